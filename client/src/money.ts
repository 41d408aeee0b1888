/**
 * Money as the API carries it: `{ amountMinor, currency }`, an integer count of the currency's minor units with
 * ISO 4217's decimals for it (JPY 0, USD 2, KWD 3). Amounts are read and written as decimal text, never through
 * floating point, and two currencies are never summed or compared as plain numbers.
 */
import { StoreSuppliersError } from './errors.js';
import { CURRENCY_EXPONENTS } from './generated/currencies.js';

/** An amount in minor units of its currency, as the API's money fields are shaped. */
export interface Money {
  amountMinor: number;
  /** ISO 4217 code, upper case. */
  currency: string;
}

/** A code ISO 4217 does not list: its decimals are unknown, so none are guessed. */
export class UnknownCurrencyError extends StoreSuppliersError {
  override name = 'UnknownCurrencyError';
  constructor(readonly currency: string) {
    super(`${String(currency).slice(0, 8)} is not an ISO 4217 currency`);
  }
}

/** Text that is not a decimal amount, or an amount that is not a whole, safe number of minor units. */
export class MoneyFormatError extends StoreSuppliersError {
  override name = 'MoneyFormatError';
}

/** Amounts in two currencies were summed or compared: convert one first (with its rate), never add the numbers. */
export class CurrencyMismatchError extends StoreSuppliersError {
  override name = 'CurrencyMismatchError';
  constructor(readonly currencies: [string, string]) {
    super(`amounts in ${currencies[0]} and ${currencies[1]} cannot be summed or compared`);
  }
}

/** True for a code ISO 4217 lists (upper case, as the API writes it). */
export const isCurrency = (currency: string): boolean => Object.prototype.hasOwnProperty.call(CURRENCY_EXPONENTS, currency);

/** Decimals of the currency's amounts: 0 for JPY, 2 for USD, 3 for KWD. Throws UnknownCurrencyError for others. */
export function currencyExponent(currency: string): number {
  if (!isCurrency(currency)) throw new UnknownCurrencyError(currency);
  return CURRENCY_EXPONENTS[currency];
}

/** Every ISO 4217 code the service knows, with its decimals (the service's table, generated into the client). */
export const currencyExponents = (): Readonly<Record<string, number>> => CURRENCY_EXPONENTS;

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const MAX = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Minor units of a decimal amount in `currency`: "12.34" USD → 1234, "1234" JPY → 1234, "1.234" KWD → 1234.
 * More decimals than the currency has round half up, as the service reads supplier amounts ("0.295" USD → 30,
 * "500.5" JPY → 501); a negative amount rounds its size the same way ("-0.295" USD → -30).
 */
export function parseMinor(text: string, currency: string): number {
  const digits = currencyExponent(currency);
  const m = typeof text === 'string' && text.length <= 100 ? DECIMAL.exec(text.trim()) : null;
  if (!m || (!m[2] && !m[3])) throw new MoneyFormatError(`not a decimal amount: ${String(text).slice(0, 40)}`);
  const frac = m[3] ?? '';
  const kept = (frac + '0'.repeat(digits)).slice(0, digits);
  let units = BigInt(m[2] || '0') * 10n ** BigInt(digits) + BigInt(kept || '0');
  if (frac.length > digits && frac.charCodeAt(digits) >= 53 /* '5' */) units += 1n;
  if (units > MAX) throw new MoneyFormatError('amount too large for a safe integer of minor units');
  return m[1] === '-' && units ? -Number(units) : Number(units);
}

/** `parseMinor` as money: `parseMoney("12.34", "USD")` → `{ amountMinor: 1234, currency: "USD" }`. */
export const parseMoney = (text: string, currency: string): Money => ({ amountMinor: parseMinor(text, currency), currency });

function checkedAmount(amountMinor: number): number {
  if (!Number.isSafeInteger(amountMinor)) throw new MoneyFormatError(`not a whole number of minor units: ${amountMinor}`);
  return amountMinor;
}

/** Minor units as decimal text with exactly the currency's decimals: 1234 USD → "12.34", 1234 JPY → "1234", 1234 KWD → "1.234". */
export function formatMinor(amountMinor: number, currency: string): string {
  const digits = currencyExponent(currency);
  checkedAmount(amountMinor);
  const sign = amountMinor < 0 ? '-' : '';
  const s = String(Math.abs(amountMinor)).padStart(digits + 1, '0');
  return sign + (digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s);
}

/** An amount with its code, the same in every locale: `{ amountMinor: 1234, currency: "KWD" }` → "KWD 1.234". */
export const formatMoney = (money: Money): string => `${money.currency} ${formatMinor(money.amountMinor, money.currency)}`;

function sameCurrency(a: Money, b: Money): string {
  currencyExponent(a.currency);
  if (a.currency !== b.currency) throw new CurrencyMismatchError([a.currency, b.currency]);
  return a.currency;
}

function safe(amountMinor: number): number {
  if (!Number.isSafeInteger(amountMinor)) throw new MoneyFormatError('the sum is too large for a safe integer of minor units');
  return amountMinor;
}

/** a + b, both in one currency; throws CurrencyMismatchError otherwise. */
export function addMoney(a: Money, b: Money): Money {
  const currency = sameCurrency(a, b);
  return { amountMinor: safe(checkedAmount(a.amountMinor) + checkedAmount(b.amountMinor)), currency };
}

/** a − b, both in one currency; throws CurrencyMismatchError otherwise. */
export function subtractMoney(a: Money, b: Money): Money {
  const currency = sameCurrency(a, b);
  return { amountMinor: safe(checkedAmount(a.amountMinor) - checkedAmount(b.amountMinor)), currency };
}

/** The sum of amounts all in `currency` (zero of it when there are none); throws CurrencyMismatchError on any other. */
export function sumMoney(amounts: Iterable<Money>, currency: string): Money {
  let total: Money = { amountMinor: 0, currency };
  currencyExponent(currency);
  for (const m of amounts) total = addMoney(total, m);
  return total;
}

/** −1, 0 or 1 as a is less than, equal to or more than b, both in one currency; throws CurrencyMismatchError otherwise. */
export function compareMoney(a: Money, b: Money): -1 | 0 | 1 {
  sameCurrency(a, b);
  const x = checkedAmount(a.amountMinor);
  const y = checkedAmount(b.amountMinor);
  return x < y ? -1 : x > y ? 1 : 0;
}
