import { formatMoney } from '../platform/money';
import { SupplierError } from '../suppliers/errors';
import type { SupplierProduct } from '../suppliers/adapter';
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

/** Variants, stock, destination and cost as the supplier has them now; one read per product. */
const supplierOffers: Check = async ({ work: { so, conn, items }, gateway }) => {
  const country = so.destination.country.toUpperCase();
  const products = new Map<string, SupplierProduct>();
  let current = 0;
  let recorded = 0;
  let currency = conn.automation.costLimit?.currency ?? 'USD';
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
    // Amounts in two currencies are never compared as plain numbers (no exchange rates yet): a person decides.
    if (item.recordedCurrency && item.recordedCurrency !== variant.cost.currency) {
      throw new Pause('currencyMismatch', `The supplier now prices ${item.sku} in ${variant.cost.currency}; its cost was recorded in ${item.recordedCurrency}. Amounts in two currencies are not compared.`);
    }
    currency = variant.cost.currency;
    current += variant.cost.amountMinor * item.quantity;
    recorded += (item.linkCostMinor ?? variant.cost.amountMinor) * item.quantity;
  }
  const accepted = so.acceptedCostMinor !== null && so.acceptedCostMinor === current;
  if (current !== recorded && !accepted) {
    throw new Pause('costChanged', `The supplier's cost moved from ${formatMoney(recorded, currency)} to ${formatMoney(current, currency)} since import.`, { recordedCostMinor: recorded, currentCostMinor: current });
  }
  const limit = conn.automation.costLimit;
  if (limit && limit.currency !== currency && !accepted) {
    throw new Pause('currencyMismatch', `The items cost ${formatMoney(current, currency)}; the store's cost limit is in ${limit.currency}. Amounts in two currencies are not compared.`, { currentCostMinor: current });
  }
  if (limit && current > limit.amountMinor && !accepted) {
    throw new Pause('costAboveLimit', `The items cost ${formatMoney(current, currency)}, above the store's limit of ${formatMoney(limit.amountMinor, limit.currency)}.`, { currentCostMinor: current, limitMinor: limit.amountMinor });
  }
};

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
  { name: 'supplierOffers', check: supplierOffers },
];

export async function runPreChecks(c: CheckContext): Promise<void> {
  for (const { check } of PRE_CHECKS) await check(c);
}
