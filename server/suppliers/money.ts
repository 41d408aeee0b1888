/**
 * Supplier amounts in a two-decimal currency (USD, EUR, ...) to integer minor units, exactly: decimal strings ("15.16"), JSON numbers (15.16, 0.30000000000000004)
 * and price ranges ("15.16 -- 15.17"). The digits are read as text and never multiplied as floating point.
 *
 * - A range answers its upper bound: a cost is never understated.
 * - More than two decimals round half up to the cent ("0.295" -> 30, "0.294" -> 29).
 * - A JSON number is read from its shortest round-trip spelling (what `String(n)` gives), so 19.99 is 1999 cents.
 */
export class MoneyFormatError extends Error {}

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

function decimalToCents(text: string): number {
  const { int, frac } = digitsOf(text);
  if (int.replace(/^0+/, '').length > MAX_DIGITS) throw new MoneyFormatError('amount too large');
  const cents = BigInt(int) * 100n + BigInt((frac + '00').slice(0, 2));
  const roundUp = frac.length > 2 && frac.charCodeAt(2) >= '5'.charCodeAt(0);
  const result = roundUp ? cents + 1n : cents;
  if (result > BigInt(Number.MAX_SAFE_INTEGER)) throw new MoneyFormatError('amount too large');
  return Number(result);
}

/** Minor units of a two-decimal amount; throws MoneyFormatError for anything that is not a non-negative amount. */
export function decimalToMinor(value: unknown): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new MoneyFormatError('not a non-negative finite number');
    return decimalToCents(String(value));
  }
  if (typeof value !== 'string') throw new MoneyFormatError('neither a string nor a number');
  const text = value.trim();
  if (!text || text.length > 100) throw new MoneyFormatError('not an amount');
  const range = RANGE.exec(text);
  if (range) return Math.max(decimalToCents(range[1]), decimalToCents(range[2]));
  return decimalToCents(text);
}

/** Minor units back to the decimal text suppliers take ("12.30"). */
export function minorToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new MoneyFormatError('not a non-negative whole number of cents');
  const s = String(cents).padStart(3, '0');
  return `${s.slice(0, -2)}.${s.slice(-2)}`;
}
