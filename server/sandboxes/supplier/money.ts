/**
 * The sandbox's catalogue is priced in US cents; an account may keep its books in another currency (set when it is
 * made, through the control API), and then sees every price, quote, order cost and balance in that currency, at the
 * sandbox's own fixed rates below, rounded half up in that currency's minor unit. A program of its own: it states its
 * rates and exponents rather than ask the service's.
 */
import { ApiError } from './errors';

/** Units of each currency per US dollar, and its ISO 4217 exponent. */
const CURRENCIES: Readonly<Record<string, { perUsd: string; exponent: number }>> = {
  USD: { perUsd: '1', exponent: 2 },
  EUR: { perUsd: '0.92', exponent: 2 },
  GBP: { perUsd: '0.79', exponent: 2 },
  JPY: { perUsd: '150', exponent: 0 },
  KWD: { perUsd: '0.307', exponent: 3 },
};

export const SANDBOX_CURRENCIES = Object.keys(CURRENCIES);

export function sandboxCurrency(value: unknown): string {
  if (value === undefined) return 'USD';
  if (typeof value !== 'string' || !CURRENCIES[value]) throw new ApiError(400, 'invalidRequest', `currency must be one of ${SANDBOX_CURRENCIES.join(', ')}`);
  return value;
}

/** US cents in `currency`'s minor unit: exact decimal arithmetic on integers, half up. */
export function fromCents(cents: number, currency: string): number {
  const c = CURRENCIES[currency];
  if (!c || currency === 'USD') return cents;
  const [whole, frac = ''] = c.perUsd.split('.');
  const rate = BigInt(whole + frac);
  const scale = 10n ** BigInt(frac.length);
  // cents / 100 * rate * 10^exponent, the rate's own decimals taken out by `scale`.
  const num = BigInt(cents) * rate * 10n ** BigInt(c.exponent);
  const den = 100n * scale;
  return Number((num * 2n + den) / (2n * den));
}

/** An amount as a person reads it in its currency (the sandbox's messages): "$12.00", "12.00 EUR". */
export function spoken(minor: number, currency: string): string {
  const exponent = CURRENCIES[currency]?.exponent ?? 2;
  const amount = (minor / 10 ** exponent).toFixed(exponent);
  return currency === 'USD' ? `$${amount}` : `${amount} ${currency}`;
}
