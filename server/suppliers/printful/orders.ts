/**
 * Printful orders: drafts under our number (`external_id`), found by it (`GET /orders/@{external_id}`) before every
 * create, confirmed to pay (the charge on the store's billing method) only after reading them, cancelled (DELETE)
 * while draft or pending. Shipping is quoted by `/shipping/rates` and picked by the connection's rule.
 */
import type { ShippingQuote, SupplierCallContext, SupplierOrderInput, SupplierOrderSnapshot } from '../adapter';
import { isCountryCode } from '../countries';
import { SupplierError } from '../errors';
import { asObj, Obj, optionalText, text } from '../http';
import { chooseShipping, describeRule } from '../shipping';
import { failureOf, type PrintfulClient } from './client';
import { costsPending, currencyOf, list, minor, readOrder, readShipmentStates } from './readers';

/** Printful takes up to 32 digits, Latin letters, `-` and `_` as an external id. */
const EXTERNAL_ID = /^[A-Za-z0-9_-]{1,32}$/;
const CANCELLABLE = new Set(['draft', 'pending']);
const SHIPPED = new Set(['partial', 'fulfilled', 'archived']);

const orderPath = (id: string) => `/orders/${encodeURIComponent(id)}`;

async function readRaw(client: PrintfulClient, ctx: SupplierCallContext, supplierOrderId: string): Promise<Obj> {
  if (!/^\d{1,20}$/.test(supplierOrderId)) throw new SupplierError('notFound', 'Not a Printful order id', { supplierOrderId });
  const answer = await client.request(ctx, { method: 'GET', path: orderPath(supplierOrderId) }, 'order', { supplierOrderId });
  return client.read(answer, (r) => asObj(r, 'order'));
}

/** The order, and once it has packages their v2 states (returned, delivered), which v1 does not tell. */
export async function getOrder(client: PrintfulClient, ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
  const raw = await readRaw(client, ctx, supplierOrderId);
  if (!Array.isArray(raw.shipments) || raw.shipments.length === 0) return readOrder(raw);
  const answer = await client.request(ctx, { method: 'GET', path: `/v2${orderPath(supplierOrderId)}/shipments`, query: { limit: '100' }, v2: true }, 'order', {
    supplierOrderId,
  });
  return readOrder(raw, 'order', client.read(answer, readShipmentStates));
}

/** Printful finds an order by our number itself; 404 is none. After a cancel the number stays taken, and found. */
export async function findOrderByNumber(client: PrintfulClient, ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null> {
  if (!EXTERNAL_ID.test(orderNumber)) return null;
  try {
    const answer = await client.request(ctx, { method: 'GET', path: orderPath(`@${orderNumber}`) }, 'order');
    return client.read(answer, (r) => readOrder(r));
  } catch (err) {
    if (err instanceof SupplierError && err.kind === 'notFound') return null;
    throw err;
  }
}

/** The catalogue variant each line is made from (shipping rates take catalogue variants, orders sync variants). */
async function catalogueVariants(
  client: PrintfulClient,
  ctx: SupplierCallContext,
  input: Pick<SupplierOrderInput, 'items'>,
): Promise<Array<{ variant_id: number; quantity: number }>> {
  const out: Array<{ variant_id: number; quantity: number }> = [];
  for (const item of input.items) {
    const subject = { variantId: item.variantId };
    if (!/^\d{1,15}$/.test(item.variantId)) throw new SupplierError('variantUnavailable', 'Not a Printful variant id', subject);
    const answer = await client.request(ctx, { method: 'GET', path: `/store/variants/${item.variantId}` }, 'variant', subject);
    const { variantId, status } = client.read(answer, (r) => {
      const o = asObj(r, 'variant');
      // Printful's sample answers the variant itself; live answers were observed as `{sync_variant, sync_product}`.
      const v = o.sync_variant && typeof o.sync_variant === 'object' ? asObj(o.sync_variant, 'variant.sync_variant') : o;
      return { variantId: Number(text(v, 'variant_id', 'variant')), status: optionalText(v, 'availability_status') ?? 'active' };
    });
    if (status !== 'active') throw new SupplierError('variantUnavailable', `Printful does not make this variant now (${status})`, subject);
    out.push({ variant_id: variantId, quantity: item.quantity });
  }
  return out;
}

function recipientOf(input: Pick<SupplierOrderInput, 'destination'>): Record<string, string> {
  const d = input.destination;
  const r: Record<string, string> = { name: d.name, address1: d.line1, city: d.city, country_code: d.country.toUpperCase(), zip: d.postalCode };
  if (d.line2) r.address2 = d.line2;
  if (d.region) r.state_code = d.region;
  if (d.phone) r.phone = d.phone;
  if (d.email) r.email = d.email;
  return r;
}

/** The service the connection's rule picks among Printful's rates for these items and recipient, with its cost. */
async function chooseRate(
  client: PrintfulClient,
  ctx: SupplierCallContext,
  input: Pick<SupplierOrderInput, 'items' | 'destination'>,
  items: Array<{ variant_id: number; quantity: number }>,
): Promise<ShippingQuote> {
  const to = input.destination.country.toUpperCase();
  const answer = await client.request(ctx, { method: 'POST', path: '/shipping/rates', body: { recipient: recipientOf(input), items } }, 'other');
  const options = client.read(answer, (r) =>
    list(r, 'rates').map((raw, i) => {
      const o = asObj(raw, `rates[${i}]`);
      const max = o.maxDeliveryDays;
      const currency = currencyOf(o);
      return {
        service: text(o, 'id', `rates[${i}]`),
        costMinor: minor(o.rate, currency, `rates[${i}].rate`),
        currency,
        maxDays: typeof max === 'number' && Number.isSafeInteger(max) ? max : null,
      };
    }),
  );
  if (!options.length) throw new SupplierError('destinationUnsupported', `Printful has no shipping service to ${to} for this order`);
  const rule = ctx.ordering?.shippingMethod;
  const chosen = chooseShipping(options, rule);
  if (!chosen)
    throw new SupplierError(
      'destinationUnsupported',
      `Printful does not offer ${describeRule(rule)} to ${to} for this order (it offers ${options.map((o) => o.service).join(', ')})`,
    );
  const { currency } = options.find((o) => o.service === chosen.service)!;
  return { service: chosen.service, cost: { amountMinor: chosen.costMinor, currency }, maxDays: chosen.maxDays };
}

/** Printful's `/shipping/rates` for the order's catalogue variants, the service picked as the create will take it. */
export async function quoteShipping(
  client: PrintfulClient,
  ctx: SupplierCallContext,
  input: Pick<SupplierOrderInput, 'items' | 'destination'>,
): Promise<ShippingQuote> {
  if (!isCountryCode(input.destination.country.toUpperCase()))
    throw new SupplierError('destinationUnsupported', `${input.destination.country} is not a country Printful knows`);
  return chooseRate(client, ctx, input, await catalogueVariants(client, ctx, input));
}

/** A draft, never confirmed here: payment is its own step, after reading the order. */
export async function createOrder(client: PrintfulClient, ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot> {
  if (!EXTERNAL_ID.test(input.orderNumber)) throw new SupplierError('refused', 'Printful takes up to 32 letters, digits, - and _ as an order number');
  if (!isCountryCode(input.destination.country.toUpperCase()))
    throw new SupplierError('destinationUnsupported', `${input.destination.country} is not a country Printful knows`);
  if (!input.items.length) throw new SupplierError('refused', 'An order needs at least one item');
  // The service quoted before the order when there was a quote (Printful refuses one it no longer offers); else the rule's now.
  const shipping = input.shipping?.service ?? (await quoteShipping(client, ctx, input)).service;
  // Right before creating: after a lost answer the draft exists, and Printful would refuse the number (OR-13).
  const existing = await findOrderByNumber(client, ctx, input.orderNumber);
  if (existing) return existing;
  const body = {
    external_id: input.orderNumber,
    shipping,
    recipient: recipientOf(input),
    items: input.items.map((i) => ({ sync_variant_id: Number(i.variantId), quantity: i.quantity })),
  };
  const subject = input.items.length === 1 ? { variantId: input.items[0].variantId } : undefined;
  // Never retried here, and never with `confirm`: after a time-out the caller looks the number up.
  const answer = await client.send(ctx, { method: 'POST', path: '/orders', body });
  if ('words' in answer) {
    const err = failureOf(answer, 'order', subject);
    if (err.kind !== 'orderNumberExists') throw err;
    // Made by an earlier attempt whose answer was lost between our look-up and now: that one is ours.
    const found = await findOrderByNumber(client, ctx, input.orderNumber);
    if (found) return found;
    throw err;
  }
  return client.read(answer, (r) => readOrder(r));
}

/**
 * Confirms a draft, only after reading it: a confirmed order is never confirmed again (`alreadyPaid`). A confirm
 * refused while Printful is still calculating the draft's costs is a passing error: the queue confirms again later.
 */
export async function payOrder(client: PrintfulClient, ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
  const subject = { supplierOrderId };
  const before = await readRaw(client, ctx, supplierOrderId);
  const snap = readOrder(before);
  if (snap.paid) throw new SupplierError('alreadyPaid', `Printful already has this order confirmed (${snap.supplierStatus})`, subject);
  if (snap.supplierStatus === 'canceled') throw new SupplierError('refused', 'Printful cancelled this order; it cannot be paid', subject);
  if (snap.supplierStatus === 'failed')
    throw new SupplierError(
      'refused',
      'Printful returned this order as failed (address, print files or the charge); fix it in the Printful dashboard',
      subject,
    );
  const answer = await client.send(ctx, { method: 'POST', path: `${orderPath(supplierOrderId)}/confirm` });
  if (!('words' in answer)) return client.read(answer, (r) => readOrder(r));
  const err = failureOf(answer, 'order', subject);
  if (err.kind !== 'refused') throw err;
  // Decided on the order, not on the words: a draft whose costs are still being calculated is confirmed later.
  const after = await readRaw(client, ctx, supplierOrderId);
  if (readOrder(after).paid) throw new SupplierError('alreadyPaid', 'Printful already has this order confirmed', subject);
  if (after.status === 'draft' && costsPending(after))
    throw new SupplierError('unavailable', `Printful is still calculating this order's costs; it is confirmed once they are known`, subject, true);
  throw err;
}

/** Printful cancels a draft or a pending order (refunding its charge); later it is being made, or shipped. */
export async function cancelOrder(client: PrintfulClient, ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
  const subject = { supplierOrderId };
  const check = (snap: SupplierOrderSnapshot): SupplierOrderSnapshot | null => {
    if (snap.supplierStatus === 'canceled') return snap;
    if (SHIPPED.has(snap.supplierStatus)) throw new SupplierError('alreadyShipped', `Printful already shipped this order (${snap.supplierStatus})`, subject);
    if (!CANCELLABLE.has(snap.supplierStatus))
      throw new SupplierError('refused', `Printful does not cancel an order once it is ${snap.supplierStatus}; ask Printful support`, subject);
    return null;
  };
  const done = check(await getOrder(client, ctx, supplierOrderId));
  if (done) return done;
  const answer = await client.send(ctx, { method: 'DELETE', path: orderPath(supplierOrderId) });
  if (!('words' in answer)) return client.read(answer, (r) => readOrder(r));
  const err = failureOf(answer, 'order', subject);
  if (err.kind !== 'refused') throw err;
  // Refused: it moved on between our read and the cancel; its state now says why.
  const now = check(await getOrder(client, ctx, supplierOrderId));
  if (now) return now;
  throw err;
}
