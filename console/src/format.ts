/** Money and times as a person reads them. */

/** Minor units per major unit of a currency (100 for USD, 1 for JPY), as the browser knows it. */
export function minorPerMajor(currency: string): number {
  try {
    return 10 ** (new Intl.NumberFormat(undefined, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2);
  } catch {
    return 100;
  }
}

/** An amount in minor units with its currency, in the currency's own number of decimals: 4916 USD → $49.16, 500 JPY → ¥500. */
export function money(amountMinor: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amountMinor / minorPerMajor(currency));
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
