/** CJ's amounts are USD (docs/suppliers/cj.md): the shared reading, in USD's two decimals, under CJ's names. */
import { decimalToMinor, minorToDecimal } from '../money';

export { MoneyFormatError } from '../money';

/** USD cents of a CJ amount; throws MoneyFormatError for anything that is not a non-negative amount. */
export const usdToMinor = (value: unknown): number => decimalToMinor(value, 'USD');

/** Cents back to the decimal text CJ takes ("12.30"). */
export const minorToUsd = (cents: number): string => minorToDecimal(cents, 'USD');
