/**
 * Printful's webhooks (API v1, docs/suppliers/printful.md "Notifications"): one address per store, set by
 * `POST /webhooks` and read back with `GET /webhooks`. v1 deliveries are unsigned: the address itself carries the
 * service's tag (checked before the adapter is asked), the body must name the connection's own store, and its
 * `created` time must be within Printful's retry schedule, so an event can only be replayed while its receipt is kept.
 */
import { createHash } from 'node:crypto';
import type { NotificationSubject, SupplierCallContext, VerifiedNotification } from '../adapter';
import { SupplierError } from '../errors';
import { asObj, Obj, optionalText, text } from '../http';
import type { PrintfulClient } from './client';

/** The events registered: every one that names an order. (`stock_updated` needs catalogue product ids; sync covers stock.) */
export const WEBHOOK_TYPES = [
  'package_shipped',
  'package_returned',
  'order_failed',
  'order_canceled',
  'order_put_hold',
  'order_remove_hold',
  'order_updated',
] as const;

/**
 * Printful retries a delivery not answered 2xx after 1, 4, 16, 64, 256 and 1024 minutes (22 h 45 min in all); every
 * retry carries the event's first `created`. Accepted up to 23 hours old, less than the day receipts are kept.
 */
export const MAX_AGE_MS = 23 * 60 * 60 * 1000;
const MAX_AHEAD_MS = 5 * 60 * 1000;
const STORE_ID = /^[1-9]\d{0,14}$/;

/** The credential field the adapter keeps at registration: the Printful store whose events the address takes. */
export const NOTIFY_STORE_FIELD = 'notifyStoreId';

export async function registerWebhook(client: PrintfulClient, ctx: SupplierCallContext, url: string): Promise<Record<string, string>> {
  const store = await client.request(ctx, { method: 'GET', path: '/store' }, 'other');
  const storeId = client.read(store, (r) => text(asObj(r, 'store'), 'id', 'store'));
  // One configuration per store: this replaces whatever was set before (another tool's address included).
  await client.request(ctx, { method: 'POST', path: '/webhooks', body: { url, types: [...WEBHOOK_TYPES] } }, 'other');
  const set = await client.request(ctx, { method: 'GET', path: '/webhooks' }, 'other');
  const { setUrl, types } = client.read(set, (r) => {
    const o = asObj(r, 'webhooks');
    return { setUrl: optionalText(o, 'url'), types: Array.isArray(o.types) ? o.types.filter((t): t is string => typeof t === 'string') : [] };
  });
  if (setUrl !== url || WEBHOOK_TYPES.some((t) => !types.includes(t))) {
    throw new SupplierError('refused', 'Printful did not keep the notification address it was given (GET /webhooks reads another configuration)');
  }
  return { [NOTIFY_STORE_FIELD]: storeId };
}

/** A delivery's order, what to read back; null for anything not from this store, too old, or not Printful's shape. */
export function readWebhook(ctx: SupplierCallContext, input: { rawBody: string; now: Date }): VerifiedNotification | null {
  const storeId = ctx.credentials[NOTIFY_STORE_FIELD];
  if (typeof storeId !== 'string' || !STORE_ID.test(storeId)) return null;
  let body: Obj;
  try {
    body = asObj(JSON.parse(input.rawBody), 'webhook');
  } catch {
    return null;
  }
  const type = body.type;
  if (typeof type !== 'string' || !(WEBHOOK_TYPES as readonly string[]).includes(type)) return null;
  if (String(body.store) !== storeId) return null;
  const created = body.created;
  if (typeof created !== 'number' || !Number.isSafeInteger(created)) return null;
  const age = input.now.getTime() - created * 1000;
  if (age > MAX_AGE_MS || age < -MAX_AHEAD_MS) return null;
  const data = body.data && typeof body.data === 'object' ? (body.data as Obj) : null;
  const order = data?.order && typeof data.order === 'object' ? (data.order as Obj) : null;
  const orderId = order ? optionalText(order, 'id') : null;
  if (!order || !orderId || !/^\d{1,20}$/.test(orderId)) return null;
  const shipment = data?.shipment && typeof data.shipment === 'object' ? optionalText(data.shipment as Obj, 'id') : null;
  const orderNumber = optionalText(order, 'external_id');
  const subject: NotificationSubject = { kind: 'order', supplierOrderId: orderId, ...(orderNumber ? { orderNumber } : {}) };
  // Printful sends no event id: the event is its type, time, store, order and package. `retries` is left out, so a
  // redelivery after a refusal or a 503 is taken, and one of an event already taken is a replay.
  const eventId = `printful:${createHash('sha256')
    .update(JSON.stringify([type, created, storeId, orderId, shipment ?? '']))
    .digest('hex')}`;
  return { eventId, subjects: [subject] };
}
