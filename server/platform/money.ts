/** An amount in minor units as a person reads it, with its currency: 4916 USD → "$49.16", 500 JPY → "¥500". */
export function formatMoney(amountMinor: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
    return format.format(amountMinor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
  } catch {
    // Not a currency Intl knows: the amount in minor units, named as such.
    return `${amountMinor} (minor units of ${currency})`;
  }
}
