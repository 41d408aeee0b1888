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
  /** The provider's own order of its events: when it happened there, and the payment's version after it. */
  occurredAt?: Date | null;
  version?: number | null;
  /** A provider event: it moved the status (applied), or a later one was applied before it arrived (stale). */
  applied?: boolean | null;
  stale?: boolean;
  /** An acknowledgement: the person's note and the attention reason it cleared. */
  note?: string | null;
  attention?: string | null;
  actor?: Actor | null;
  /** The provider's fee for the charge, when it reports one. */
  fee?: { amountMinor: number; currency: string } | null;
}

/** False when the provider's event was recorded for this order before (or, for the service, the same kind for the same payment). */
export async function insertPaymentEvent(tx: Queryable, e: PaymentEventRow): Promise<boolean> {
  // The fee's columns only when the provider reported one: without, this release writes as the one before it.
  const fee = e.fee ?? null;
  const once = e.source === 'service' ? 'WHERE NOT EXISTS (SELECT 1 FROM payment_events WHERE store_id = $8 AND order_id = $1 AND source = $3 AND kind = $2 AND reference IS NOT DISTINCT FROM $5)' : '';
  const insert = `INSERT INTO payment_events (store_id, order_id, kind, source, amount_minor, reference, provider_event_id, actor, provider_occurred_at, provider_version, applied, stale, note, attention${fee ? ', fee_minor, fee_currency' : ''})
       SELECT $8::uuid, $1::uuid, $2::text, $3::text, $4::bigint, $5::text, $6::text, $7::jsonb, $9::timestamptz, $10::int, $11::boolean, $12::boolean, $13::text, $14::text${fee ? ', $15::bigint, $16::text' : ''} ${once}
       ON CONFLICT (store_id, order_id, provider_event_id) WHERE provider_event_id IS NOT NULL DO NOTHING`;
  const args = [e.orderId, e.kind, e.source, e.amountMinor ?? null, e.reference ?? null, e.providerEventId ?? null, e.actor ? JSON.stringify(e.actor) : null, e.storeId,
    e.occurredAt ?? null, e.version ?? null, e.applied ?? null, e.stale ?? false, e.note ?? null, e.attention ?? null, ...(fee ? [fee.amountMinor, fee.currency] : [])];
  if (!fee) return (await affected(tx, insert, args)) > 0;
  // A fee the event records joins the profit report's sums (its order's day: a delta, folded later), in the same
  // statement; one in another currency than the store's is not converted, and not summed.
  const [r] = await rows<{ n: number }>(
    tx,
    `WITH ins AS (${insert} RETURNING store_id, order_id, fee_minor, fee_currency),
          fee AS (INSERT INTO profit_deltas (store_id, order_id, day, payment_fee_minor)
                  SELECT ins.store_id, ins.order_id, (o.created_at AT TIME ZONE 'UTC')::date, ins.fee_minor
                    FROM ins JOIN store_orders o ON o.store_id = $8 AND o.id = ins.order_id JOIN stores st ON st.id = $8
                   WHERE ins.fee_minor IS NOT NULL AND ins.fee_currency = trim(st.currency)
                  RETURNING store_id)
     SELECT count(*)::int AS n FROM ins`,
    args,
  );
  return r.n > 0;
}

/** The provider payments the service asked to capture (each once: its captureRequested). */
export async function captureAskedOf(db: Queryable, storeId: string, orderId: string): Promise<string[]> {
  const found = await rows<{ reference: string }>(db, `SELECT reference FROM payment_events WHERE store_id = $1 AND order_id = $2 AND source = 'service' AND kind = 'captureRequested' AND reference IS NOT NULL`, [storeId, orderId]);
  return found.map((r) => r.reference);
}

/** True when a supplier part of the order has shipped or been delivered (the goods are gone). */
export async function supplierPartShipped(db: Queryable, storeId: string, orderId: string): Promise<boolean> {
  const [r] = await rows<{ shipped: boolean }>(db, `SELECT EXISTS (SELECT 1 FROM fulfilment_groups WHERE store_id = $1 AND order_id = $2 AND NOT fulfilled_by_store AND status IN ('shipped', 'delivered')) AS shipped`, [storeId, orderId]);
  return r.shipped;
}

/**
 * True when the supplier of a promise-to-sell order was (or may be about to be) paid: the service asked the provider
 * to capture (it asks only once the supplier accepted), or a supplier part was sent (its payment may follow at any
 * moment; erring towards a person looking rather than a paid supplier nobody hears of).
 */
export async function supplierPaidOn(db: Queryable, storeId: string, orderId: string): Promise<boolean> {
  const [r] = await rows<{ paid: boolean }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM payment_events WHERE store_id = $1 AND order_id = $2 AND source = 'service')
         OR EXISTS (SELECT 1 FROM fulfilment_groups WHERE store_id = $1 AND order_id = $2 AND NOT fulfilled_by_store AND status IN ('processing', 'shipped', 'delivered')) AS paid`,
    [storeId, orderId],
  );
  return r.paid;
}

/** The payment history of these orders, oldest first. */
export function paymentEventsOf(db: Queryable, storeId: string, orderIds: string[]): Promise<Array<{ order_id: string; kind: string; source: PaymentEventRow['source']; amount_minor: string | null; reference: string | null; actor: Actor | null; stale: boolean; note: string | null; attention: string | null; fee_minor: string | null; fee_currency: string | null; created_at: Date }>> {
  // Issue 40's columns read through the row's JSON: while an earlier contract migration waits for the previous release
  // (docs/scaling.md, "Changing the keys without downtime"), this release answers before its migration added them.
  return rows(
    db,
    `SELECT order_id, kind, source, amount_minor, reference, actor, COALESCE((to_jsonb(e) ->> 'stale')::boolean, false) AS stale, to_jsonb(e) ->> 'note' AS note, to_jsonb(e) ->> 'attention' AS attention,
            to_jsonb(e) ->> 'fee_minor' AS fee_minor, to_jsonb(e) ->> 'fee_currency' AS fee_currency, created_at
       FROM payment_events e WHERE e.store_id = $1 AND e.order_id = ANY($2) ORDER BY e.id`,
    [storeId, orderIds],
  );
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
 * back after the supplier or the order was paid). `reference`: the provider's payment that authorised or paid an order
 * that had none standing (none, or failed), kept as the one a capture takes.
 */
export async function setPaymentStatus(tx: Queryable, storeId: string, orderId: string, from: PaymentStatus, to: PaymentStatus, e: { reportedAs: string; attention: PaymentAttentionReason | null; reaction: InternalEventType | null; actor: Actor; reference?: string | null; refundedMinor?: number }): Promise<void> {
  const p = new Params();
  const refunded = e.refundedMinor === undefined ? 'refunded_minor' : `${p.add(e.refundedMinor)}::bigint`;
  const attention = `${p.add(e.attention)}::text`;
  const takesReference = (to === 'authorised' || to === 'paid') && e.reference ? `CASE WHEN payment_reference IS NULL OR ${p.add(from)}::text IN ('none', 'failed') THEN ${p.add(e.reference)}::text ELSE payment_reference END` : 'payment_reference';
  const update = `UPDATE store_orders SET payment_status = ${p.add(to)}, updated_at = now(), refunded_minor = ${refunded}, payment_attention = COALESCE(${attention}, payment_attention), payment_reference = ${takesReference},
      payment_attention_at = CASE WHEN ${attention} IS NULL THEN payment_attention_at ELSE now() END, needs_attention = needs_attention OR ${attention} IS NOT NULL
    WHERE store_id = ${p.add(storeId)} AND id = ${p.add(orderId)} RETURNING id, store_id, number, payment_status, refunded_minor, needs_attention, payment_attention, payment_attention_at, created_by_key_id`;
  const reaction = e.reaction ? `, reaction AS (${storeOrderEvent(p, 'o', e.reaction, e.actor)})` : '';
  await rows(tx, `WITH o AS (${update}), ev AS (${paymentChangedEvent(p, from, e.reportedAs, e.reference ?? null)})${reaction} SELECT 1`, p.values);
}

/** `storeOrder.paymentChanged` for the order row `o` as written: its payment now and before, and what moved it. */
const paymentChangedEvent = (p: Params, from: PaymentStatus, reportedAs: string, reference: string | null) =>
  outboxStep({
    from: 'o', type: `'storeOrder.paymentChanged'`, storeId: 'o.store_id', resourceKey: `'storeOrder:' || o.id`, recordKeyId: 'o.created_by_key_id',
    snapshot: `jsonb_build_object('orderId', o.id, 'orderNumber', o.number, 'paymentStatus', o.payment_status, 'previousPaymentStatus', ${p.add(from)}::text,
      'reportedAs', ${p.add(reportedAs)}::text, 'paymentReference', ${p.add(reference)}::text, 'amountRefundedMinor', o.refunded_minor, 'needsAttention', o.needs_attention,
      'paymentAttention', CASE WHEN o.payment_attention IS NULL THEN NULL ELSE jsonb_build_object('reason', o.payment_attention, 'since', to_char(o.payment_attention_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END)`,
  });

/**
 * A person acknowledged the payment's attention for `reason`: it clears only while the order's reason is that one,
 * and the order needs attention only if a part still does. Answers the reason the order had (null: none).
 */
export async function clearPaymentAttention(tx: Queryable, storeId: string, orderId: string, reason: PaymentAttentionReason): Promise<PaymentAttentionReason | null> {
  const [was] = await rows<{ reason: PaymentAttentionReason | null }>(tx, 'SELECT payment_attention AS reason FROM store_orders WHERE store_id = $1 AND id = $2 FOR UPDATE', [storeId, orderId]);
  if (was?.reason !== reason) return was?.reason ?? null;
  await rows(
    tx,
    `UPDATE store_orders s SET payment_attention = NULL, payment_attention_at = NULL, updated_at = now(),
        needs_attention = EXISTS (SELECT 1 FROM fulfilment_groups g WHERE g.store_id = s.store_id AND g.order_id = s.id AND g.needs_attention)
      WHERE s.store_id = $1 AND s.id = $2`,
    [storeId, orderId],
  );
  return reason;
}

/** The order's payment status and amount refunded, the row held for the rest of the caller's transaction. */
export async function lockPaymentStatus(tx: Queryable, storeId: string, orderId: string): Promise<{ status: PaymentStatus; refundedMinor: number }> {
  const [order] = await rows<{ payment_status: PaymentStatus; refunded_minor: string }>(tx, 'SELECT payment_status, refunded_minor FROM store_orders WHERE store_id = $1 AND id = $2 FOR UPDATE', [storeId, orderId]);
  return { status: order.payment_status, refundedMinor: Number(order.refunded_minor) };
}
