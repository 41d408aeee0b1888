import { isCurrency, minorUnitsOf } from './currencies';

/** An amount in minor units as a person reads it, with its currency: 4916 USD → "$49.16", 500 JPY → "¥500", 1234 KWD → "KWD 1.234". */
export function formatMoney(amountMinor: number, currency: string): string {
  if (!isCurrency(currency) || !Number.isSafeInteger(amountMinor)) return `${amountMinor} (minor units of ${currency})`;
  const digits = minorUnitsOf(currency);
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  // Divided as text, not as a float, so no amount is shown a unit off.
  const negative = amountMinor < 0;
  const s = String(Math.abs(amountMinor)).padStart(digits + 1, '0');
  const major = digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
  return format.format(Number(`${negative ? '-' : ''}${major}`));
}
