/**
 * Supplier amounts to integer minor units of their currency, with ISO 4217's decimals for it (JPY 0, USD 2, KWD 3),
 * exactly: decimal strings ("15.16"), JSON numbers (15.16, 0.30000000000000004) and price ranges ("15.16 -- 15.17").
 * The digits are read as text and never multiplied as floating point.
 *
 * - A range answers its upper bound: a cost is never understated.
 * - More decimals than the currency has round half up to its minor unit ("0.295" USD -> 30, "500.5" JPY -> 501).
 * - A JSON number is read from its shortest round-trip spelling (what `String(n)` gives), so 19.99 is 1999 cents.
 */
import { minorUnitsOf, UnknownCurrencyError } from '../platform/currencies';

export class MoneyFormatError extends Error {}

function digitsFor(currency: string): number {
  try {
    return minorUnitsOf(currency);
  } catch (err) {
    if (err instanceof UnknownCurrencyError) throw new MoneyFormatError(err.message);
    throw err;
  }
}

const PLAIN = /^(\d*)(?:\.(\d*))?$/;
const EXPONENT = /^(\d*)(?:\.(\d*))?[eE]([+-]?\d{1,3})$/;
const RANGE = /^\s*([0-9.]+)\s*-{1,2}\s*([0-9.]+)\s*$/;
const MAX_DIGITS = 30;

/** Integer part and fraction digits of a non-negative decimal spelled plainly or with an exponent. */
function digitsOf(text: string): { int: string; frac: string } {
  const plain = PLAIN.exec(text);
  if (plain) {
    const int = plain[1] ?? '';
    const frac = plain[2] ?? '';
    if (!int && !frac) throw new MoneyFormatError('not an amount');
    return { int: int || '0', frac };
  }
  const exp = EXPONENT.exec(text);
  if (!exp) throw new MoneyFormatError('not an amount');
  const mantissa = (exp[1] ?? '') + (exp[2] ?? '');
  if (!mantissa) throw new MoneyFormatError('not an amount');
  // Where the decimal point sits in `mantissa` once the exponent is applied.
  const point = (exp[1] ?? '').length + Number(exp[3]);
  if (point > MAX_DIGITS) throw new MoneyFormatError('amount too large');
  if (point <= 0) return { int: '0', frac: '0'.repeat(-point) + mantissa };
  if (point >= mantissa.length) return { int: mantissa + '0'.repeat(point - mantissa.length), frac: '' };
  return { int: mantissa.slice(0, point), frac: mantissa.slice(point) };
}

function decimalToUnits(text: string, digits: number): number {
  const { int, frac } = digitsOf(text);
  if (int.replace(/^0+/, '').length > MAX_DIGITS) throw new MoneyFormatError('amount too large');
  const kept = (frac + '0'.repeat(digits)).slice(0, digits);
  const units = BigInt(int) * 10n ** BigInt(digits) + BigInt(kept || '0');
  const roundUp = frac.length > digits && frac.charCodeAt(digits) >= '5'.charCodeAt(0);
  const result = roundUp ? units + 1n : units;
  if (result > BigInt(Number.MAX_SAFE_INTEGER)) throw new MoneyFormatError('amount too large');
  return Number(result);
}

/** Minor units of an amount in `currency`; throws MoneyFormatError for anything that is not a non-negative amount. */
export function decimalToMinor(value: unknown, currency: string): number {
  const digits = digitsFor(currency);
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new MoneyFormatError('not a non-negative finite number');
    return decimalToUnits(String(value), digits);
  }
  if (typeof value !== 'string') throw new MoneyFormatError('neither a string nor a number');
  const text = value.trim();
  if (!text || text.length > 100) throw new MoneyFormatError('not an amount');
  const range = RANGE.exec(text);
  if (range) return Math.max(decimalToUnits(range[1], digits), decimalToUnits(range[2], digits));
  return decimalToUnits(text, digits);
}

/** Minor units back to the decimal text suppliers take ("12.30" USD, "500" JPY, "1.234" KWD). */
export function minorToDecimal(units: number, currency: string): string {
  const digits = digitsFor(currency);
  if (!Number.isSafeInteger(units) || units < 0) throw new MoneyFormatError('not a non-negative whole number of minor units');
  if (!digits) return String(units);
  const s = String(units).padStart(digits + 1, '0');
  return `${s.slice(0, -digits)}.${s.slice(-digits)}`;
}
