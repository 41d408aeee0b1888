import { convertMinor } from '../rates/decimal';
import type { Rate, RateAnswer, RateUnavailable } from '../rates';

// A part's landed cost (docs/decisions.md, "Landed cost and profit"): the items plus the chosen shipping service, in
// the supplier's currency and in the store's, with the rate it was converted at. Recorded once per stage.

export type LandedStage = 'confirmation' | 'accepted' | 'paid';
export const LANDED_STAGES: readonly LandedStage[] = ['confirmation', 'accepted', 'paid'];

export interface LandedCost {
  stage: LandedStage;
  /** The supplier's currency and amounts; `shippingMinor` null when the supplier quotes none before the order. */
  currency: string;
  itemsMinor: number;
  shippingMinor: number | null;
  totalMinor: number;
  storeCurrency: string;
  storeTotalMinor: number;
  rate: string;
  rateSource: Rate['source'];
  rateAsOf: string;
}

/** The look-up of rates dispatch needs (the rates domain's service). */
export interface StoreRates {
  rateFor(from: string, to: string, asOf?: string): Promise<RateAnswer>;
}

/** A landed cost at `stage`, converted at `rate` (from the supplier's currency to the store's): rounded half up once, on the total. */
export function landedCost(stage: LandedStage, costs: { currency: string; itemsMinor: number; shippingMinor: number | null }, storeCurrency: string, rate: Rate): LandedCost {
  const totalMinor = costs.itemsMinor + (costs.shippingMinor ?? 0);
  return {
    stage, currency: costs.currency, itemsMinor: costs.itemsMinor, shippingMinor: costs.shippingMinor, totalMinor, storeCurrency,
    storeTotalMinor: convertMinor(totalMinor, costs.currency, storeCurrency, rate.rate), rate: rate.rate, rateSource: rate.source, rateAsOf: rate.asOfDate,
  };
}

/** Words for a rate there is none of, for a pause's message. */
export function noRateMessage(r: RateUnavailable): string {
  const why = r.reason === 'stale' ? `the newest is of ${r.asOfDate}, older than the service uses` : r.reason === 'missing' ? 'none is stored or pinned' : 'a currency is not ISO 4217';
  return `No exchange rate from ${r.from} to ${r.to} to convert the cost with: ${why}. The part resumes by itself once a fresh rate is fetched or the operator pins one.`;
}
