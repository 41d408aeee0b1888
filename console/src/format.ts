/** Money and times as a person reads them. */
import { CURRENCY_EXPONENTS } from './currencies.js';

/** ISO 4217's decimals of a currency (JPY 0, USD 2, KWD 3), from the service's own table; 2 for a code it does not know. */
const decimalsOf = (currency: string): number => CURRENCY_EXPONENTS[currency] ?? 2;

/** Minor units per major unit of a currency (100 for USD, 1 for JPY, 1000 for KWD). */
export const minorPerMajor = (currency: string): number => 10 ** decimalsOf(currency);

/** Minor units as the decimal text a person types, in the currency's own decimals: 1234 KWD → "1.234", 500 JPY → "500". */
export function minorToText(amountMinor: number, currency: string): string {
  const digits = decimalsOf(currency);
  if (!digits) return String(amountMinor);
  const s = String(amountMinor).padStart(digits + 1, '0');
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/** Typed decimal text to minor units, read as text (never multiplied as a float), half up past the currency's decimals. */
export function textToMinor(text: string, currency: string): number | null {
  const m = /^\s*(\d{1,13})(?:\.(\d*))?\s*$/.exec(text);
  if (!m) return null;
  const digits = decimalsOf(currency);
  const frac = m[2] ?? '';
  const units = Number(m[1]) * 10 ** digits + Number((frac + '0'.repeat(digits)).slice(0, digits) || '0');
  return frac.length > digits && Number(frac[digits]) >= 5 ? units + 1 : units;
}

/** The step a number input takes for the currency: 1 for JPY, 0.01 for USD, 0.001 for KWD. */
export const stepOf = (currency: string): string => (decimalsOf(currency) ? `0.${'0'.repeat(decimalsOf(currency) - 1)}1` : '1');

/** An amount in minor units with its currency, in the currency's own number of decimals: 4916 USD → $49.16, 500 JPY → ¥500. */
export function money(amountMinor: number, currency: string): string {
  try {
    const digits = decimalsOf(currency);
    // The exact decimal text, never a division in floating point; Intl only adds the symbol and the grouping.
    const text = (amountMinor < 0 ? '-' : '') + minorToText(Math.abs(amountMinor), currency);
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
      text as unknown as number,
    );
  } catch {
    return `${amountMinor} (minor units of ${currency})`;
  }
}

/** The lowest and highest of some amounts: "$4.99" or "$4.99 – $7.99". */
export function moneyRange(amounts: number[], currency: string): string {
  if (!amounts.length) return '—';
  const low = Math.min(...amounts);
  const high = Math.max(...amounts);
  return low === high ? money(low, currency) : `${money(low, currency)} – ${money(high, currency)}`;
}

export function when(iso: string | null | undefined, never = 'never'): string {
  return iso ? new Date(iso).toLocaleString() : never;
}
