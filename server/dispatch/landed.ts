import type { Logger } from '../platform/logger';
import { convertMinor } from '../rates/decimal';
import type { Rate, RateAnswer, RateUnavailable } from '../rates';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import type { SupplierOrder } from './supplier-order';

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
export function landedCost(
  stage: LandedStage,
  costs: { currency: string; itemsMinor: number; shippingMinor: number | null },
  storeCurrency: string,
  rate: Rate,
): LandedCost {
  const totalMinor = costs.itemsMinor + (costs.shippingMinor ?? 0);
  return {
    stage,
    currency: costs.currency,
    itemsMinor: costs.itemsMinor,
    shippingMinor: costs.shippingMinor,
    totalMinor,
    storeCurrency,
    storeTotalMinor: convertMinor(totalMinor, costs.currency, storeCurrency, rate.rate),
    rate: rate.rate,
    rateSource: rate.source,
    rateAsOf: rate.asOfDate,
  };
}

/**
 * The landed costs a supplier's answer records: the confirmation's (from the pre-checks, with the create's answer),
 * the accepted cost (the first answer that carries costs) and the paid one (the answer that first says paid), each
 * converted at today's rate. Without a usable rate then, that stage is not recorded (the profit names it missing).
 */
export async function landedOfAnswer(
  so: SupplierOrder,
  answer: SupplierOrderSnapshot,
  given: { storeCurrency?: string; confirmation?: LandedCost },
  deps: { rates: StoreRates; storeCurrency(storeId: string): Promise<string>; log: Logger },
): Promise<LandedCost[]> {
  const out = given.confirmation ? [given.confirmation] : [];
  const costs = answer.costs;
  if (!costs) return out;
  const stages: LandedStage[] = [];
  if (!so.costs) stages.push('accepted');
  if (answer.paid && so.paymentStatus !== 'paid') stages.push('paid');
  if (!stages.length) return out;
  const storeCurrency = given.storeCurrency ?? (await deps.storeCurrency(so.storeId));
  const rate = await deps.rates.rateFor(costs.currency, storeCurrency);
  if (!rate.available) {
    deps.log.warn(
      { supplierOrderId: so.id, from: costs.currency, to: storeCurrency, reason: rate.reason, stages },
      'landed cost not recorded: no exchange rate',
    );
    return out;
  }
  return [
    ...out,
    ...stages.map((stage) =>
      landedCost(stage, { currency: costs.currency, itemsMinor: costs.itemsMinor, shippingMinor: costs.shippingMinor }, storeCurrency, rate),
    ),
  ];
}

/** Words for a rate there is none of, for a pause's message. */
export function noRateMessage(r: RateUnavailable): string {
  const why =
    r.reason === 'stale'
      ? `the newest is of ${r.asOfDate}, older than the service uses`
      : r.reason === 'missing'
        ? 'none is stored or pinned'
        : 'a currency is not ISO 4217';
  return `No exchange rate from ${r.from} to ${r.to} to convert the cost with: ${why}. The part resumes by itself once a fresh rate is fetched or the operator pins one.`;
}

/** One recorded stage as the API shows it (`landedCosts[]` of a supplier order): the stage as kept, with when. */
export type LandedCostView = Omit<LandedCost, 'rateSource'> & { rateSource: string; recordedAt: string };

/** What a profit is made of, in the store's currency; `missing` names what is not known yet (then `complete` is false). */
export interface Profit {
  currency: string;
  revenueMinor: number | null;
  landedCostMinor: number | null;
  /** The stage the landed cost is taken from: the latest recorded (paid, else accepted, else confirmation). */
  landedCostStage: LandedStage | null;
  paymentFeeMinor: number | null;
  /** What suppliers gave back (claims and cancels refunded), already taken off `landedCostMinor`. */
  supplierCreditMinor: number;
  /** A store order's: what the provider refunded to the shopper, taken out of `revenueMinor` (issue 53), as the report's figure. */
  refundMinor?: number;
  /** The same amount, under the name it was first answered with. */
  refundedMinor?: number;
  resultMinor: number | null;
  complete: boolean;
  missing: string[];
}

/** A supplier credit as a part shows it: its amount, the store's at the recorded rate, and whether it counts. */
export interface SupplierCreditView {
  kind: 'claimRefund' | 'cancelRefund';
  amountMinor: number;
  currency: string;
  storeAmountMinor: number | null;
  storeCurrency: string;
  rate: string | null;
  rateSource: string | null;
  rateAsOf: string | null;
  counted: boolean;
  recordedAt: string;
}

/** What a part's profit is read from (./sql/reads.ts `moneyOf`). */
export interface PartMoney {
  storeCurrency: string;
  orderCurrency: string;
  revenueMinor: number;
  landedCosts: LandedCostView[];
  credits: SupplierCreditView[];
}

/**
 * A part's profit: its items' prices less its latest landed cost. Not complete until the supplier accepted (the
 * confirmation's figure is shown meanwhile). The payment provider's fee is the store order's, counted there once.
 */
export function partProfit(m: PartMoney): Profit {
  const missing: string[] = [];
  const revenue = m.orderCurrency === m.storeCurrency ? m.revenueMinor : null;
  if (revenue === null) missing.push('revenueInStoreCurrency');
  const latest = [...m.landedCosts].sort((a, b) => LANDED_STAGES.indexOf(b.stage) - LANDED_STAGES.indexOf(a.stage))[0] ?? null;
  if (!latest) missing.push('landedCost');
  if (!m.landedCosts.some((l) => l.stage !== 'confirmation')) missing.push('acceptedCost');
  if (latest && latest.shippingMinor === null) missing.push('shipping');
  // Credits that counted (./sql/credits.ts says when) come off the landed cost, as they did in the report's sums.
  const credit = m.credits.filter((c) => c.counted).reduce((a, c) => a + Number(c.storeAmountMinor), 0);
  const landed = latest ? latest.storeTotalMinor - credit : null;
  return {
    currency: m.storeCurrency,
    revenueMinor: revenue,
    landedCostMinor: landed,
    landedCostStage: latest?.stage ?? null,
    paymentFeeMinor: null,
    supplierCreditMinor: credit,
    resultMinor: revenue !== null && landed !== null ? revenue - landed : null,
    complete: missing.length === 0,
    missing,
  };
}

/**
 * A store order's profit: its live supplier parts' (not cancelled) revenue and landed costs, less the payment
 * provider's fees when it reported them (in the store's currency; a fee in another currency is named missing).
 */
export function orderProfit(
  storeCurrency: string,
  parts: Profit[],
  fees: Array<{ feeMinor: number; feeCurrency: string }>,
  refunded: { amountMinor: number; currency: string } = { amountMinor: 0, currency: storeCurrency },
): Profit {
  const missing = new Set(parts.flatMap((p) => p.missing));
  if (!parts.length) missing.add('supplierOrders');
  const sum = (xs: Array<number | null>) => (xs.some((x) => x === null) ? null : xs.reduce<number>((a, b) => a + (b as number), 0));
  // A refund takes money back from the sale: its revenue, as the profit report's sums do (in the store's currency).
  const refund = refunded.currency === storeCurrency ? refunded.amountMinor : 0;
  const sold = sum(parts.map((p) => p.revenueMinor));
  const revenue = sold === null ? null : sold - refund;
  const landed = sum(parts.map((p) => p.landedCostMinor));
  const otherFee = fees.some((f) => f.feeCurrency !== storeCurrency);
  if (otherFee) missing.add('paymentFeeInStoreCurrency');
  const fee = fees.length && !otherFee ? fees.reduce((a, f) => a + f.feeMinor, 0) : fees.length ? null : 0;
  const stage =
    parts.map((p) => p.landedCostStage).sort((a, b) => LANDED_STAGES.indexOf(a ?? 'confirmation') - LANDED_STAGES.indexOf(b ?? 'confirmation'))[0] ?? null;
  return {
    currency: storeCurrency,
    revenueMinor: revenue,
    landedCostMinor: landed,
    landedCostStage: stage,
    paymentFeeMinor: fee,
    refundMinor: refund,
    refundedMinor: refund,
    supplierCreditMinor: parts.reduce((a, p) => a + (p.supplierCreditMinor ?? 0), 0),
    resultMinor: revenue !== null && landed !== null && fee !== null ? revenue - landed - fee : null,
    complete: missing.size === 0,
    missing: [...missing],
  };
}

/** A store order's profit from its supplier orders as the routes show them (null: it has none, or none shows a profit). */
export function profitOfStoreOrder(
  supplierOrders: Array<Record<string, unknown>>,
  fees: Array<{ amountMinor: number; currency: string }>,
  refunded?: { amountMinor: number; currency: string },
): Profit | null {
  const live = supplierOrders.filter((s) => s.status !== 'cancelled' && s.profit);
  // Paid but not sent yet: the fee is already in the report's sums, so it shows in the order's own profit too (no
  // revenue nor cost yet; `supplierOrders` missing). An order's fees are its provider's, in one currency.
  const currency = (supplierOrders.find((s) => s.profit)?.profit as Profit | undefined)?.currency ?? fees[0]?.currency;
  if (!currency) return null;
  return orderProfit(
    currency,
    live.map((s) => s.profit as Profit),
    fees.map((f) => ({ feeMinor: f.amountMinor, feeCurrency: f.currency })),
    refunded,
  );
}
