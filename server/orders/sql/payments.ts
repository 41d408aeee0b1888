import type { Actor } from '../../identity/permissions';
import { outboxStep } from '../../events';
import type { InternalEventType } from '../../events';
import { affected, Params, type Queryable, rows } from '../../platform/db';
import type { PaymentAttentionReason, PaymentStatus } from '../types';

// The shopper's payment of a store order: its history (payment_events) and its status, with the events they make.
// The events other domains react to carry the store owner's plan, read in their statement (stores', identity's rows).

interface PaymentEventRow {
  storeId: string;
  orderId: string;
  kind: string;
  /** Who said so: the payment provider (signed), a staff member by hand, or the service (a capture it asked for). */
  source: 'provider' | 'manual' | 'service';
  amountMinor?: number | null;
  reference?: string | null;
  /** The provider's event id: an event already recorded for the order is not recorded again. */
  providerEventId?: string | null;
  actor?: Actor | null;
}

/** False when the provider's event was recorded for this order before (or, for the service, the same kind for the same payment). */
export async function insertPaymentEvent(tx: Queryable, e: PaymentEventRow): Promise<boolean> {
  const once = e.source === 'service' ? 'WHERE NOT EXISTS (SELECT 1 FROM payment_events WHERE store_id = $8 AND order_id = $1 AND source = $3 AND kind = $2 AND reference IS NOT DISTINCT FROM $5)' : '';
  return (
    (await affected(
      tx,
      `INSERT INTO payment_events (store_id, order_id, kind, source, amount_minor, reference, provider_event_id, actor) SELECT $8::uuid, $1::uuid, $2::text, $3::text, $4::bigint, $5::text, $6::text, $7::jsonb ${once}
       ON CONFLICT (store_id, order_id, provider_event_id) WHERE provider_event_id IS NOT NULL DO NOTHING`,
      [e.orderId, e.kind, e.source, e.amountMinor ?? null, e.reference ?? null, e.providerEventId ?? null, e.actor ? JSON.stringify(e.actor) : null, e.storeId],
    )) > 0
  );
}

/** The provider's id of the order's latest authorised payment (what a capture takes), or null. */
export async function authorisedReference(db: Queryable, storeId: string, orderId: string): Promise<string | null> {
  const [r] = await rows<{ reference: string }>(db, `SELECT reference FROM payment_events WHERE store_id = $2 AND order_id = $1 AND source = 'provider' AND kind = 'authorised' AND reference IS NOT NULL ORDER BY id DESC LIMIT 1`, [orderId, storeId]);
  return r?.reference ?? null;
}

/** The payment history of these orders, oldest first. */
export function paymentEventsOf(db: Queryable, storeId: string, orderIds: string[]): Promise<Array<{ order_id: string; kind: string; source: PaymentEventRow['source']; amount_minor: string | null; reference: string | null; actor: Actor | null; created_at: Date }>> {
  return rows(db, 'SELECT order_id, kind, source, amount_minor, reference, actor, created_at FROM payment_events WHERE store_id = $1 AND order_id = ANY($2) ORDER BY id', [storeId, orderIds]);
}

/** True when this call marked the order paid by hand (it was not marked before). */
export async function markPaid(tx: Queryable, storeId: string, orderId: string): Promise<boolean> {
  return (await affected(tx, 'UPDATE store_orders SET marked_paid_at = now(), updated_at = now() WHERE store_id = $1 AND id = $2 AND marked_paid_at IS NULL', [storeId, orderId])) > 0;
}

/**
 * The event other domains react to (an internal type: never sent to subscriptions), for `order` (a row of the
 * statement): the order, who acted, and the store owner's plan at that moment (read from the stores' and identity's
 * rows in the same statement), since work done later on the store's behalf acts under the plan as it was then.
 */
export const storeOrderEvent = (p: Params, order: string, type: InternalEventType, actor: Actor) =>
  outboxStep({
    from: order, type: `'${type}'`, storeId: `${order}.store_id`, resourceKey: `'storeOrder:' || ${order}.id`, recordKeyId: `${order}.created_by_key_id`,
    snapshot: `jsonb_build_object('orderId', ${order}.id, 'actor', ${p.json(actor)},
                 'ownerPlan', (SELECT a.plan FROM stores st JOIN accounts a ON a.id = st.owner_account_id WHERE st.id = ${order}.store_id))`,
  });

/**
 * The payment status moves (the provider's word), with its `storeOrder.paymentChanged` event, and `reaction` (the
 * event other domains act on, if any), in one statement; with `attention`, the order needs a person (a payment taken
 * back after it was paid).
 */
export async function setPaymentStatus(tx: Queryable, storeId: string, orderId: string, from: PaymentStatus, to: PaymentStatus, e: { reportedAs: string; attention: PaymentAttentionReason | null; reaction: InternalEventType | null; actor: Actor }): Promise<void> {
  const p = new Params();
  const attention = `${p.add(e.attention)}::text`;
  const update = `UPDATE store_orders SET payment_status = ${p.add(to)}, updated_at = now(), payment_attention = COALESCE(${attention}, payment_attention),
      payment_attention_at = CASE WHEN ${attention} IS NULL THEN payment_attention_at ELSE now() END, needs_attention = needs_attention OR ${attention} IS NOT NULL
    WHERE store_id = ${p.add(storeId)} AND id = ${p.add(orderId)} RETURNING id, store_id, number, payment_status, needs_attention, payment_attention, payment_attention_at, created_by_key_id`;
  const event = outboxStep({
    from: 'o', type: `'storeOrder.paymentChanged'`, storeId: 'o.store_id', resourceKey: `'storeOrder:' || o.id`, recordKeyId: 'o.created_by_key_id',
    snapshot: `jsonb_build_object('orderId', o.id, 'orderNumber', o.number, 'paymentStatus', o.payment_status, 'previousPaymentStatus', ${p.add(from)}::text,
      'reportedAs', ${p.add(e.reportedAs)}::text, 'needsAttention', o.needs_attention,
      'paymentAttention', CASE WHEN o.payment_attention IS NULL THEN NULL ELSE jsonb_build_object('reason', o.payment_attention, 'since', to_char(o.payment_attention_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END)`,
  });
  const reaction = e.reaction ? `, reaction AS (${storeOrderEvent(p, 'o', e.reaction, e.actor)})` : '';
  await rows(tx, `WITH o AS (${update}), ev AS (${event})${reaction} SELECT 1`, p.values);
}

const RETIRED_KINDS = new Map<string, InternalEventType>([['confirmed', 'storeOrder.confirmed'], ['authorised', 'storeOrder.authorised'], ['captureFailed', 'storeOrder.captureFailed']]);

/**
 * A store order event left on the job queue that carried them before issue 33 (`events.store-order`), recorded as
 * the outbox event it stands for: the reaction to it is idempotent, so one recorded twice does no harm. Those jobs
 * carry no store id: it is read once, by the order's id alone (an allowed cross-store lookup, docs/scaling.md).
 */
export async function recordRetiredEvent(db: Queryable, e: { storeId?: string; orderId: string; kind: string; actor: Actor }): Promise<void> {
  const type = RETIRED_KINDS.get(e.kind);
  if (!type) return;
  const storeId = e.storeId ?? (await rows<{ store_id: string }>(db, 'SELECT /* cross-store: retired-order-event-store */ store_id FROM store_orders WHERE id = $1', [e.orderId]))[0]?.store_id;
  if (!storeId) return;
  const p = new Params();
  const order = `SELECT id, store_id, created_by_key_id FROM store_orders WHERE store_id = ${p.add(storeId)} AND id = ${p.add(e.orderId)}`;
  await rows(db, `WITH o AS (${order}) ${storeOrderEvent(p, 'o', type, e.actor)}`, p.values);
}

/** The order's payment status, the row held for the rest of the caller's transaction. */
export async function lockPaymentStatus(tx: Queryable, storeId: string, orderId: string): Promise<PaymentStatus> {
  const [order] = await rows<{ payment_status: PaymentStatus }>(tx, 'SELECT payment_status FROM store_orders WHERE store_id = $1 AND id = $2 FOR UPDATE', [storeId, orderId]);
  return order.payment_status;
}
