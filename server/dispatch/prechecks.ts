import { formatMoney } from '../platform/money';
import { SupplierError } from '../suppliers/errors';
import type { ShippingQuote, SupplierOrderInput, SupplierProduct } from '../suppliers/adapter';
import { convertMinor } from '../rates/decimal';
import type { Rate } from '../rates';
import { landedCost, type LandedCost, noRateMessage, type StoreRates } from './landed';
import type { SupplierGateway } from '../connections';
import type { SupplierRegistry } from '../suppliers/registry';
import type { ReviewReason } from './review-reasons';
import type { Work } from './records';

/** A pre-check or supplier answer that pauses the order. */
export class Pause extends Error {
  constructor(
    readonly reason: ReviewReason,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A pause decided from the connection alone: it holds for every part waiting on that connection. */
export class ConnectionPause extends Pause {}

interface CheckContext {
  work: Work;
  registry: SupplierRegistry;
  gateway: SupplierGateway;
  rates: StoreRates;
}

/** One pre-check: throws a Pause naming its review reason, or a SupplierError for a passing fault. */
type Check = (c: CheckContext) => void | Promise<void>;

const connectionPresent: Check = ({ work: { conn }, registry }) => {
  const adapter = registry.find(conn.supplierKey);
  if (!adapter || registry.isSwitchedOff(conn.supplierKey)) throw new ConnectionPause('connectionMissing', `The supplier ${conn.supplierKey} is switched off by the operator of this service.`);
  if (conn.disconnectedAt || !conn.credentialsSealed) throw new ConnectionPause('connectionMissing', 'The connection was removed.');
  if (!conn.enabled) throw new ConnectionPause('connectionMissing', 'The connection is switched off.');
};

const liveOrSandbox: Check = ({ work: { conn }, registry }) => {
  const adapter = registry.find(conn.supplierKey)!;
  if (conn.mode === 'test' && !adapter.entry.capabilities.hasSandbox) throw new ConnectionPause('testMode', `${adapter.entry.name} has no test environment; no order was placed while the connection is in test mode.`);
};

const circuitClosed: Check = ({ work: { conn } }) => {
  if (conn.circuitOpenUntil && conn.circuitOpenUntil.getTime() > Date.now()) throw new ConnectionPause('connectionUnhealthy', 'The connection is paused after repeated supplier errors.');
};

const countryAllowed: Check = ({ work: { so, conn } }) => {
  const country = so.destination.country.toUpperCase();
  if (conn.automation.excludedCountries.includes(country)) throw new Pause('destinationUnsupported', `The store excluded ${country} for this supplier.`);
};

const shopperPaid: Check = ({ work: { so, conn, order } }) => {
  const willPay = so.payNow || conn.automation.automaticPayment;
  if (so.contractModel === 'promiseToSell') {
    if (order.paymentStatus !== 'authorised' && order.paymentStatus !== 'paid') throw new Pause('customerPaymentPending', "Promise to sell: the shopper's payment is not authorised yet.");
  } else if (willPay && !so.payNow) {
    if (order.paymentMethod === 'online') {
      if (order.paymentStatus === 'authorised') throw new Pause('customerPaymentNotSettled', "The shopper's payment is authorised but not settled yet.");
      if (order.paymentStatus !== 'paid') throw new Pause('customerPaymentPending', 'The shopper has not paid online yet.');
    } else if (!conn.automation.allowUnpaidOrders) {
      throw new Pause('customerPaymentPending', 'The order has no online payment and the connection does not allow unpaid orders.');
    }
  }
};

/**
 * Variants, stock, destination and cost as the supplier has them now (one read per product), the shipping service's
 * quote where the supplier gives one, and the part's landed cost at confirmation. Amounts in two currencies are
 * compared in the store's currency, each converted at the rate recorded with that landed cost (docs/decisions.md,
 * "Landed cost and profit"); a rate that is missing or too old pauses the part (exchangeRateUnavailable).
 */
const supplierOffers = async ({ work: { so, conn, items, storeCurrency }, gateway, rates }: CheckContext): Promise<LandedCost> => {
  const country = so.destination.country.toUpperCase();
  const products = new Map<string, SupplierProduct>();
  const found = new Map<string, Rate>();
  const rateOf = async (from: string): Promise<Rate> => {
    const known = found.get(from);
    if (known) return known;
    const r = await rates.rateFor(from, storeCurrency);
    if (!r.available) throw new Pause('exchangeRateUnavailable', noRateMessage(r), { from: r.from, to: r.to, rateUnavailable: r.reason, ...(r.asOfDate ? { rateAsOf: r.asOfDate } : {}) });
    found.set(from, r);
    return r;
  };
  const inStore = async (amountMinor: number, currency: string) => convertMinor(amountMinor, currency, storeCurrency, (await rateOf(currency)).rate);
  const money = (amountMinor: number, currency: string) => formatMoney(amountMinor, currency);
  let current = 0;
  let currency: string | null = null;
  const recorded = new Map<string, number>();
  const accepted = (cost: number) => so.acceptedCostMinor !== null && so.acceptedCostMinor === cost;
  const aboveMax: string[] = [];
  for (const item of items) {
    const pid = item.supplierProductId;
    if (!pid) throw new Pause('variantUnavailable', `The item ${item.sku} is no longer linked to a supplier variant.`);
    if (!products.has(pid)) {
      try {
        products.set(pid, await gateway.call(conn, (a, ctx) => a.getProduct(ctx, pid)));
      } catch (err) {
        if (err instanceof SupplierError && err.kind === 'notFound') throw new Pause('variantUnavailable', `The supplier no longer offers product ${pid}.`);
        throw err;
      }
    }
    const product = products.get(pid)!;
    const variant = product.variants.find((v) => v.id === item.supplierVariantId);
    if (!variant || !variant.available) throw new Pause('variantUnavailable', `The supplier no longer offers variant ${item.supplierVariantId} (${item.sku}).`);
    if (variant.stock < item.quantity) throw new Pause('variantUnavailable', `The supplier has ${variant.stock} of variant ${item.supplierVariantId} (${item.sku}); the order needs ${item.quantity}.`);
    if (!product.shipsTo.includes(country)) throw new Pause('destinationUnsupported', `The supplier does not deliver product ${pid} to ${country}.`);
    // One supplier order is priced in one currency: a supplier pricing one part's items in two is for a person.
    if (currency && currency !== variant.cost.currency) throw new Pause('currencyMismatch', `The supplier prices the items of one order in ${currency} and ${variant.cost.currency}.`);
    currency = variant.cost.currency;
    current += variant.cost.amountMinor * item.quantity;
    const was = item.linkCostMinor === null ? variant.cost.currency : (item.recordedCurrency ?? variant.cost.currency);
    recorded.set(was, (recorded.get(was) ?? 0) + (item.linkCostMinor ?? variant.cost.amountMinor) * item.quantity);
    const max = item.maxBuyPrice;
    if (max) {
      const over = max.currency === variant.cost.currency ? variant.cost.amountMinor > max.amountMinor : (await inStore(variant.cost.amountMinor, variant.cost.currency)) > (await inStore(max.amountMinor, max.currency));
      if (over) aboveMax.push(`${item.sku} costs ${money(variant.cost.amountMinor, variant.cost.currency)}, above its maximum buy price of ${money(max.amountMinor, max.currency)}`);
    }
  }
  const cur = currency ?? storeCurrency;
  const landedRate = await rateOf(cur);
  const rateDetails = { rate: landedRate.rate, rateSource: landedRate.source, rateAsOf: landedRate.asOfDate, storeCurrency };
  // The cost recorded when the order was taken, in its currency; when that is not the supplier's now, both sides in the store's.
  const sameCurrency = recorded.size === 1 && recorded.has(cur);
  const recordedMinor = sameCurrency ? recorded.get(cur)! : null;
  if (sameCurrency ? current !== recordedMinor && !accepted(current) : !accepted(current)) {
    if (sameCurrency) {
      throw new Pause('costChanged', `The supplier's cost moved from ${money(recordedMinor!, cur)} to ${money(current, cur)} since import.`, { recordedCostMinor: recordedMinor, currentCostMinor: current });
    }
    let recordedStore = 0;
    for (const [c, amount] of recorded) recordedStore += await inStore(amount, c);
    const currentStore = await inStore(current, cur);
    if (recordedStore !== currentStore) {
      throw new Pause('costChanged', `The supplier's cost moved from ${money(recordedStore, storeCurrency)} to ${money(currentStore, storeCurrency)} (in the store's currency) since import; it now prices in ${cur}.`, { recordedStoreCostMinor: recordedStore, currentStoreCostMinor: currentStore, currentCostMinor: current, currency: cur, ...rateDetails });
    }
  }
  if (aboveMax.length && !accepted(current)) throw new Pause('costAboveLimit', `${aboveMax.join('; ')}.`, { currentCostMinor: current, currency: cur, ...rateDetails });
  const limit = conn.automation.costLimit;
  if (limit && !accepted(current)) {
    if (limit.currency === cur) {
      if (current > limit.amountMinor) throw new Pause('costAboveLimit', `The items cost ${money(current, cur)}, above the store's limit of ${money(limit.amountMinor, limit.currency)}.`, { currentCostMinor: current, limitMinor: limit.amountMinor });
    } else {
      const [costStore, limitStore] = [await inStore(current, cur), await inStore(limit.amountMinor, limit.currency)];
      if (costStore > limitStore) {
        const inStoreWords = cur === storeCurrency ? '' : ` (${money(costStore, storeCurrency)})`;
        throw new Pause('costAboveLimit', `The items cost ${money(current, cur)}${inStoreWords}, above the store's limit of ${money(limit.amountMinor, limit.currency)} (${money(limitStore, storeCurrency)}).`, { currentCostMinor: current, limitMinor: limit.amountMinor, currentStoreCostMinor: costStore, limitStoreMinor: limitStore, ...rateDetails });
      }
    }
  }
  const shippingMinor = await shippingQuote(gateway, conn, cur, { items: items.map((i) => ({ variantId: i.supplierVariantId!, quantity: i.quantity })), destination: so.destination });
  return landedCost('confirmation', { currency: cur, itemsMinor: current, shippingMinor }, storeCurrency, landedRate);
};

/** The chosen shipping service's cost as the supplier quotes it now, in the items' currency; null when it quotes none before an order. */
async function shippingQuote(gateway: SupplierGateway, conn: Work['conn'], currency: string, input: Pick<SupplierOrderInput, 'items' | 'destination'>): Promise<number | null> {
  let quote: ShippingQuote | null;
  try {
    quote = await gateway.call(conn, (a, ctx) => (a.quoteShipping ? a.quoteShipping(ctx, input) : Promise.resolve(null)));
  } catch (err) {
    if (err instanceof SupplierError && err.kind === 'destinationUnsupported') throw new Pause('destinationUnsupported', err.message);
    throw err;
  }
  if (!quote) return null;
  if (quote.cost.currency !== currency) throw new Pause('currencyMismatch', `The supplier quotes shipping in ${quote.cost.currency} and the items in ${currency}.`);
  return quote.cost.amountMinor;
}

/**
 * The pre-checks before a create, in this order (docs/decisions.md lists it): connection present and on, test mode,
 * circuit, excluded country, shopper's payment, then what the supplier offers now (variants, stock, destination,
 * cost unchanged, cost within the limit). The first that fails names the review reason.
 */
const PRE_CHECKS: ReadonlyArray<{ name: string; check: Check }> = [
  { name: 'connectionPresent', check: connectionPresent },
  { name: 'liveOrSandbox', check: liveOrSandbox },
  { name: 'circuitClosed', check: circuitClosed },
  { name: 'countryAllowed', check: countryAllowed },
  { name: 'shopperPaid', check: shopperPaid },
];

/** Runs the pre-checks; the last, what the supplier offers now, answers the part's landed cost at confirmation. */
export async function runPreChecks(c: CheckContext): Promise<LandedCost> {
  for (const { check } of PRE_CHECKS) await check(c);
  return supplierOffers(c);
}
