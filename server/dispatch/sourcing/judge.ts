import type { Rate } from '../../rates';
import { convertMinor } from '../../rates/decimal';
import type { ShippingQuote, SupplierProduct } from '../../suppliers/adapter';
import type { Work } from '../work';
import { type Candidate, type Money, type Offer, Refusal } from './types';

/** What judging needs of the job's evaluation (./offer.ts `Evaluation`): the store's currency, its rates, its words. */
export interface Pricing {
  readonly work: Work;
  readonly storeCurrency: string;
  rate(currency: string): Promise<Rate | Refusal>;
  inStore(m: Money): Promise<number>;
  words(m: Money): Promise<string>;
  above(a: Money, b: Money): Promise<boolean>;
}

/** Variants, stock, destination and one currency per item; the shipping quote; the store's amount; then the limits. */
export async function judge(ev: Pricing, c: Candidate, read: { products: Map<string, SupplierProduct>; shipping: ShippingQuote }): Promise<Offer | Refusal> {
  const conn = c.conn!;
  const country = ev.work.so.destination.country.toUpperCase();
  let currency = '';
  let itemsMinor = 0;
  const items: Offer['items'] = [];
  const aboveMax: string[] = [];
  for (const item of c.items) {
    const product = read.products.get(item.supplierProductId)!;
    const v = product.variants.find((x) => x.id === item.supplierVariantId);
    if (!v || !v.available) throw new Refusal('variantUnavailable', `The supplier no longer offers variant ${item.supplierVariantId} (${item.sku}).`);
    if (v.stock < item.quantity)
      throw new Refusal(
        'variantUnavailable',
        `The supplier has ${v.stock} of variant ${item.supplierVariantId} (${item.sku}); the order needs ${item.quantity}.`,
      );
    if (!product.shipsTo.includes(country))
      throw new Refusal('destinationUnsupported', `The supplier does not deliver product ${item.supplierProductId} to ${country}.`);
    // One supplier order is priced in one currency: a supplier pricing one part's items in two is for a person.
    if (currency && currency !== v.cost.currency)
      throw new Refusal('currencyMismatch', `The supplier prices the items of one order in ${currency} and ${v.cost.currency}.`);
    currency = v.cost.currency;
    itemsMinor += v.cost.amountMinor * item.quantity;
    items.push({ id: item.id, supplierProductId: item.supplierProductId, supplierVariantId: v.id, unitCostMinor: v.cost.amountMinor });
    const max = item.maxBuyPrice;
    if (max && (await ev.above(v.cost, max)))
      aboveMax.push(`${item.sku} costs ${await ev.words(v.cost)}, above its maximum buy price of ${await ev.words(max)}`);
  }
  const quote = read.shipping;
  if (quote.cost.currency !== currency)
    throw new Refusal('currencyMismatch', `The supplier quotes shipping in ${quote.cost.currency} and the items in ${currency}.`);
  const rate = await ev.rate(currency);
  if (rate instanceof Refusal) return rate;
  const totalMinor = itemsMinor + quote.cost.amountMinor;
  const offer: Offer = {
    connectionId: conn.id,
    supplierKey: conn.supplierKey,
    items,
    currency,
    itemsMinor,
    totalMinor,
    shipping: {
      service: quote.service,
      ...(quote.services ? { services: quote.services } : {}),
      costMinor: quote.cost.amountMinor,
      maxDays: quote.maxDays ?? null,
    },
    storeCurrency: ev.storeCurrency,
    storeTotalMinor: convertMinor(totalMinor, currency, ev.storeCurrency, rate.rate),
    rate,
    quotedAt: new Date().toISOString(),
  };
  const cost = { amountMinor: itemsMinor, currency };
  if (aboveMax.length)
    return new Refusal(
      'costAboveLimit',
      `${aboveMax.join('; ')}.`,
      { currentCostMinor: itemsMinor, currency, ...rateDetails(rate, ev.storeCurrency) },
      'candidate',
      null,
      offer,
    );
  const limit = conn.automation.costLimit;
  if (limit && (await ev.above(cost, limit))) {
    const why = `The items cost ${await ev.words(cost)}, above the store's limit of ${await ev.words(limit)}.`;
    const both =
      limit.currency === currency
        ? {}
        : { currentStoreCostMinor: await ev.inStore(cost), limitStoreMinor: await ev.inStore(limit), ...rateDetails(rate, ev.storeCurrency) };
    return new Refusal(
      'costAboveLimit',
      why,
      { currentCostMinor: itemsMinor, currency, limitMinor: limit.amountMinor, limitCurrency: limit.currency, ...both },
      'candidate',
      null,
      offer,
    );
  }
  return offer;
}

/** A rate as a pause's details name it. */
const rateDetails = (r: Rate, storeCurrency: string) => ({ rate: r.rate, rateSource: r.source, rateAsOf: r.asOfDate, storeCurrency });
