/**
 * CJ orders: found by our number (CJ does not refuse a repeated one), created with the shipping method the
 * connection's rule picks from CJ's freight quote, read, paid from the balance, and deleted while unpaid.
 */
import type { ShippingQuote, SupplierCallContext, SupplierOrderInput, SupplierOrderSnapshot } from '../adapter';
import { countryName, isCountryCode } from '../countries';
import { SupplierError } from '../errors';
import { asObj, optionalText, text } from '../http';
import { chooseShipping, describeRule, maxDaysOf, type ShippingOption } from '../shipping';
import type { CjClient } from './client';
import { cents, list, parseCjDate, readOrder, snapshotOf } from './readers';

const LIST_PAGE_SIZE = 50;
const CANCELLABLE_STATUSES = new Set(['CREATED', 'IN_CART', 'UNPAID']);

type Detailed = SupplierOrderSnapshot & { numericId: string | null };

/** The order as CJ has it now (getOrderDetail takes the CJ order code, or our own number). */
export async function orderDetail(client: CjClient, ctx: SupplierCallContext, supplierOrderId: string): Promise<Detailed> {
  const subject = { supplierOrderId };
  const answer = await client.request(ctx, { method: 'GET', path: '/shopping/order/getOrderDetail', query: { orderId: supplierOrderId } }, 'order', subject);
  if (answer.data === null || answer.data === undefined) throw new SupplierError('notFound', 'CJ has no such order', subject);
  return client.read(answer, (data) => readOrder(data, 'order'));
}

/**
 * Every create is preceded by this. `order/list` filtered by `orderNumbers` (observed, not documented) and matched on
 * `orderNum`; when the filter is not honoured the order is asked for by our number through getOrderDetail.
 * Duplicates: the earliest order not cancelled.
 */
export async function findOrderByNumber(client: CjClient, ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null> {
  const answer = await client.request(
    ctx,
    { method: 'GET', path: '/shopping/order/list', query: { pageNum: '1', pageSize: String(LIST_PAGE_SIZE), orderNumbers: orderNumber } },
    'order',
  );
  const { matches, filtered } = client.read(answer, (data) => {
    const rows = data === null ? [] : list(asObj(data, 'orders').list ?? [], 'orders.list').map((raw, i) => asObj(raw, `orders.list[${i}]`));
    const mine = rows.filter((r) => optionalText(r, 'orderNum') === orderNumber || optionalText(r, 'orderNumber') === orderNumber);
    return {
      matches: mine.map((r, i) => ({ order: readOrder(r, `orders.list[${i}]`), created: parseCjDate(r.createDate) })),
      filtered: mine.length === rows.length,
    };
  });
  if (!matches.length && !filtered) {
    try {
      const found = await orderDetail(client, ctx, orderNumber);
      return found.orderNumber === orderNumber ? snapshotOf(found) : null;
    } catch (err) {
      if (err instanceof SupplierError && err.kind === 'notFound') return null;
      throw err;
    }
  }
  if (!matches.length) return null;
  // CJ dates orders to the second; within one second its (growing) numeric ids tell the order.
  const idOrder = (a: string | null, b: string | null) => (a && b ? a.length - b.length || (a < b ? -1 : a > b ? 1 : 0) : 0);
  type Match = (typeof matches)[number];
  const byAge = (a: Match, b: Match) =>
    (Number.isFinite(a.created) ? a.created : Infinity) - (Number.isFinite(b.created) ? b.created : Infinity) || idOrder(a.order.numericId, b.order.numericId);
  const live = matches.filter((m) => m.order.status !== 'cancelled').sort(byAge);
  return snapshotOf((live[0] ?? matches.sort(byAge)[0]).order);
}

/** CJ's freight quote for the order; the connection's shipping rule picks the method (the cheapest by default). */
async function chooseLogistic(
  client: CjClient,
  ctx: SupplierCallContext,
  input: Pick<SupplierOrderInput, 'items' | 'destination'>,
  from: string,
): Promise<ShippingOption> {
  const to = input.destination.country.toUpperCase();
  const products = input.items.map((i) => ({ vid: i.variantId, quantity: i.quantity }));
  const call = {
    method: 'POST' as const,
    path: '/logistic/freightCalculate',
    body: { startCountryCode: from, endCountryCode: to, zip: input.destination.postalCode, products },
  };
  const answer = await client.request(ctx, call, 'order', oneVariant(input));
  const options = client.read(answer, (data) =>
    (data === null ? [] : list(data, 'freight')).map((raw, i) => {
      const o = asObj(raw, `freight[${i}]`);
      return {
        service: text(o, 'logisticName', `freight[${i}]`),
        costMinor: cents(o.logisticPrice, `freight[${i}].logisticPrice`),
        maxDays: maxDaysOf(o.logisticAging),
      };
    }),
  );
  if (!options.length) throw new SupplierError('destinationUnsupported', `CJ has no shipping method from ${from} to ${to} for this order`);
  const rule = ctx.ordering?.shippingMethod;
  const chosen = chooseShipping(options, rule);
  if (!chosen)
    throw new SupplierError(
      'destinationUnsupported',
      `CJ does not offer ${describeRule(rule)} from ${from} to ${to} for this order (it offers ${options.map((o) => o.service).join(', ')})`,
    );
  return chosen;
}

const fromCountry = (ctx: SupplierCallContext): string =>
  typeof ctx.settings.fromCountryCode === 'string' && isCountryCode(ctx.settings.fromCountryCode) ? ctx.settings.fromCountryCode : 'CN';

/** CJ's freight quote for the items, the method the rule picks (CJ prices in USD). */
export async function quoteShipping(
  client: CjClient,
  ctx: SupplierCallContext,
  input: Pick<SupplierOrderInput, 'items' | 'destination'>,
): Promise<ShippingQuote> {
  const chosen = await chooseLogistic(client, ctx, input, fromCountry(ctx));
  return { service: chosen.service, cost: { amountMinor: chosen.costMinor, currency: 'USD' }, maxDays: chosen.maxDays };
}

/** The subject of an order's failure: its variant, when it has one line. */
const oneVariant = (input: Pick<SupplierOrderInput, 'items'>) => (input.items.length === 1 ? { variantId: input.items[0].variantId } : undefined);

export async function createOrder(client: CjClient, ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot> {
  const d = input.destination;
  const country = d.country.toUpperCase();
  if (!isCountryCode(country)) throw new SupplierError('destinationUnsupported', `${country} is not a country CJ knows`);
  if (!input.items.length) throw new SupplierError('refused', 'An order needs at least one item');
  const from = fromCountry(ctx);
  const logisticName = (await chooseLogistic(client, ctx, input, from)).service;
  // Right before creating: CJ would take the same number again.
  const existing = await findOrderByNumber(client, ctx, input.orderNumber);
  if (existing) return existing;
  const body: Record<string, unknown> = {
    orderNumber: input.orderNumber,
    shippingCountryCode: country,
    shippingCountry: countryName(country),
    shippingProvince: d.region || d.city,
    shippingCity: d.city,
    shippingAddress: d.line1,
    shippingCustomerName: d.name,
    shippingZip: d.postalCode,
    logisticName,
    fromCountryCode: from,
    // Create only: payment is a separate step, after reading the order.
    payType: 3,
    products: input.items.map((i) => ({ vid: i.variantId, quantity: i.quantity })),
  };
  if (d.line2) body.shippingAddress2 = d.line2;
  if (d.phone) body.shippingPhone = d.phone;
  if (d.email) body.email = d.email;
  // Never retried here: after a timeout the order may exist, and the caller looks it up by number.
  const answer = await client.request(ctx, { method: 'POST', path: '/shopping/order/createOrderV2', body }, 'order', oneVariant(input));
  return client.read(answer, (data) => {
    const o = asObj(data, 'order');
    // The create answer may leave the status out (V3 leaves several fields null): a new order is CREATED.
    return snapshotOf(
      readOrder({ ...o, orderStatus: optionalText(o, 'orderStatus') ?? 'CREATED', orderNumber: optionalText(o, 'orderNumber') ?? input.orderNumber }, 'order'),
    );
  });
}

/** Pays from the CJ balance, only after reading the order: one already paid is never paid again. */
export async function payOrder(client: CjClient, ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
  const before = await orderDetail(client, ctx, supplierOrderId);
  if (before.paid) throw new SupplierError('alreadyPaid', 'CJ already has this order paid', { supplierOrderId });
  if (before.status === 'cancelled') throw new SupplierError('refused', 'CJ cancelled this order; it cannot be paid', { supplierOrderId });
  // payBalance is observed to take the numeric order id where the code is refused.
  await client.request(ctx, { method: 'POST', path: '/shopping/pay/payBalance', body: { orderId: before.numericId ?? supplierOrderId } }, 'pay', {
    supplierOrderId,
  });
  return snapshotOf(await orderDetail(client, ctx, supplierOrderId));
}

/** CJ deletes orders that are not paid yet; a paid one is refused here, a shipped one is alreadyShipped. */
export async function cancelOrder(client: CjClient, ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
  const before = await orderDetail(client, ctx, supplierOrderId);
  if (before.status === 'cancelled') return snapshotOf(before);
  if (before.status === 'shipped' || before.status === 'delivered')
    throw new SupplierError('alreadyShipped', 'CJ already shipped this order', { supplierOrderId });
  if (!CANCELLABLE_STATUSES.has(before.supplierStatus)) {
    throw new SupplierError('refused', `CJ does not cancel an order through its API once it is paid (${before.supplierStatus}); ask CJ support to cancel it`, {
      supplierOrderId,
    });
  }
  await client.request(ctx, { method: 'DELETE', path: '/shopping/order/deleteOrder', query: { orderId: supplierOrderId } }, 'order', { supplierOrderId });
  try {
    return snapshotOf(await orderDetail(client, ctx, supplierOrderId));
  } catch (err) {
    // A deleted order may no longer be listed at all.
    if (err instanceof SupplierError && err.kind === 'notFound')
      return { ...snapshotOf(before), supplierStatus: 'CANCELLED', status: 'cancelled', paid: false };
    throw err;
  }
}
