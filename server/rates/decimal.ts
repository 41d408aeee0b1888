/**
 * Exact decimal arithmetic for exchange rates: a rate is a decimal string ("1.0705"), read into a BigInt and a scale,
 * never a float. Rounding is half up (away from zero for these non-negative values), once, at the end, as the
 * supplier amounts' parsing rounds (server/suppliers/money.ts; docs/decisions.md, "Exchange rates").
 */
import { minorUnitsOf } from '../platform/currencies';

/** A positive decimal: at most 18 digits before the point and 18 after, no sign, no exponent. */
const RATE = /^(\d{1,18})(?:\.(\d{1,18}))?$/;
/** Decimals a cross rate keeps (ECB rates have 4–6 significant digits; ten decimals lose nothing a price shows). */
export const CROSS_RATE_DECIMALS = 10;

export class RateFormatError extends Error {}

export interface Decimal {
  units: bigint;
  scale: number;
}

/** Reads a positive decimal string; throws RateFormatError for anything else (zero, signs, exponents, spaces). */
export function parseRate(text: unknown): Decimal {
  const m = typeof text === 'string' ? RATE.exec(text) : null;
  if (!m) throw new RateFormatError(`not a positive decimal rate: ${JSON.stringify(String(text).slice(0, 40))}`);
  const frac = m[2] ?? '';
  const units = BigInt(m[1] + frac);
  if (units === 0n) throw new RateFormatError('a rate of zero');
  return { units, scale: frac.length };
}

/** numerator / denominator rounded half up to an integer (both positive or the numerator zero). */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** A decimal as its plainest string: no trailing zeros after the point, "1" rather than "1.000". */
export function formatDecimal(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const s = units.toString().padStart(scale + 1, '0');
  const text = `${s.slice(0, -scale)}.${s.slice(-scale)}`.replace(/0+$/, '');
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** Canonical spelling of a rate string ("1.07050" → "1.0705"). */
export const normalRate = (text: string): string => {
  const d = parseRate(text);
  return formatDecimal(d.units, d.scale);
};

/** quote / base (both "units per euro"), rounded half up to CROSS_RATE_DECIMALS: USD→JPY = rate(JPY) / rate(USD). */
export function crossRate(basePerEuro: string, quotePerEuro: string): string {
  const b = parseRate(basePerEuro);
  const q = parseRate(quotePerEuro);
  // q.units/10^q.scale ÷ b.units/10^b.scale, scaled by 10^CROSS_RATE_DECIMALS.
  const numerator = q.units * 10n ** BigInt(b.scale + CROSS_RATE_DECIMALS);
  const denominator = b.units * 10n ** BigInt(q.scale);
  const result = divideHalfUp(numerator, denominator);
  if (result === 0n) throw new RateFormatError('a cross rate too small to keep');
  return formatDecimal(result, CROSS_RATE_DECIMALS);
}

/** The inverse of a rate (1 / rate), rounded half up to CROSS_RATE_DECIMALS. */
export const inverseRate = (rate: string): string => crossRate(rate, '1');

/**
 * `amountMinor` minor units of `from` in minor units of `to` at `rate` (units of `to` per unit of `from`), exactly:
 * amount × rate × 10^digits(to) / 10^digits(from), rounded half up once.
 */
export function convertMinor(amountMinor: number, from: string, to: string, rate: string): number {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new RangeError('amountMinor must be a non-negative whole number of minor units');
  const r = parseRate(rate);
  const numerator = BigInt(amountMinor) * r.units * 10n ** BigInt(minorUnitsOf(to));
  const denominator = 10n ** BigInt(r.scale + minorUnitsOf(from));
  const result = divideHalfUp(numerator, denominator);
  if (result > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('the converted amount is too large');
  return Number(result);
}
