import { convertMinor } from '../rates/decimal';
import type { Rate, RateAnswer } from '../rates';

// A supplier's cost in the store's currency (docs/decisions.md, "Import in any currency"): converted at the rates
// service's rate before the price rule, so the rule's amounts (documented as the store's currency) mean what they say.

/** The look-up of rates the catalogue needs (the rates domain's service). */
export interface CatalogueRates {
  rateFor(from: string, to: string, asOf?: string): Promise<RateAnswer>;
}

/** The rate a link's cost was converted at, kept with the link. */
export interface CostRate {
  from: string;
  to: string;
  rate: string;
  source: Rate['source'];
  asOfDate: string;
}

/** No usable rate from the supplier's currency to the store's: the product is not priced (never priced as if 1:1). */
export class RateMissingError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly reason: string,
  ) {
    super(`No exchange rate from ${from} to ${to} to price with (${reason}).`);
  }
}

/** The rate from `from` into the store's currency; null when they are the same; RateMissingError when there is none. */
export async function costRateFor(rates: CatalogueRates, from: string, to: string): Promise<CostRate | null> {
  if (from === to) return null;
  const answer = await rates.rateFor(from, to);
  if (!answer.available) throw new RateMissingError(from, to, answer.reason);
  return { from, to, rate: answer.rate, source: answer.source, asOfDate: answer.asOfDate };
}

/** The rates for each of these supplier currencies into the store's, or the error of the ones without. */
export async function costRatesFor(rates: CatalogueRates, currencies: Iterable<string>, to: string): Promise<Map<string, CostRate | RateMissingError>> {
  const out = new Map<string, CostRate | RateMissingError>();
  for (const from of new Set(currencies)) {
    if (from === to) continue;
    out.set(
      from,
      await costRateFor(rates, from, to).then(
        (r) => r!,
        (err: unknown) => {
          if (err instanceof RateMissingError) return err;
          throw err;
        },
      ),
    );
  }
  return out;
}

/** A supplier cost in the store's minor units: as it is in the same currency, else converted at `rate` (half up, once). */
export function storeCost(costMinor: number, currency: string, storeCurrency: string, rate: CostRate | null): number {
  if (currency === storeCurrency) return costMinor;
  if (!rate || rate.from !== currency || rate.to !== storeCurrency) throw new RateMissingError(currency, storeCurrency, 'missing');
  return convertMinor(costMinor, currency, storeCurrency, rate.rate);
}
