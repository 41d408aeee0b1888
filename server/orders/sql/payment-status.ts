import type { Actor } from '../../identity/permissions';
import { outboxStep } from '../../events';
import type { InternalEventType } from '../../events';
import { affected, Params, type Queryable, rows } from '../../platform/db';
import type { PaymentAttentionReason, PaymentStatus } from '../types';

// The order's payment status: moved in one statement with the history entry and the events it makes, cleared, locked.

/**
 * The event other domains react to (an internal type: never sent to subscriptions), for `order` (a row of the
 * statement): the order, who acted, and the store owner's plan at that moment (read from the stores' and identity's
 * rows in the same statement), since work done later on the store's behalf acts under the plan as it was then.
 */
export const storeOrderEvent = (p: Params, order: string, type: InternalEventType, actor: Actor) =>
  outboxStep({
    from: order,
    type: `'${type}'`,
    storeId: `${order}.store_id`,
    resourceKey: `'storeOrder:' || ${order}.id`,
    recordKeyId: `${order}.created_by_key_id`,
    snapshot: `jsonb_build_object('orderId', ${order}.id, 'actor', ${p.json(actor)},
                 'ownerPlan', (SELECT a.plan FROM stores st JOIN accounts a ON a.id = st.owner_account_id WHERE st.id = ${order}.store_id))`,
  });

/**
 * The payment status moves (the provider's word), with its `storeOrder.paymentChanged` event, and `reaction` (the
 * event other domains act on, if any), in one statement; with `attention`, the order needs a person (a payment taken
 * back after the supplier or the order was paid). `reference`: the provider's payment that authorised or paid an order
 * that had none standing (none, or failed), kept as the one a capture takes.
 */
export async function setPaymentStatus(
  tx: Queryable,
  storeId: string,
  orderId: string,
  from: PaymentStatus,
  to: PaymentStatus,
  e: {
    reportedAs: string;
    attention: PaymentAttentionReason | null;
    reaction: InternalEventType | null;
    actor: Actor;
    reference?: string | null;
    refundedMinor?: number;
  },
): Promise<void> {
  const p = new Params();
  const refunded = e.refundedMinor === undefined ? 'refunded_minor' : `${p.add(e.refundedMinor)}::bigint`;
  const attention = `${p.add(e.attention)}::text`;
  const takesReference =
    (to === 'authorised' || to === 'paid') && e.reference
      ? `CASE WHEN payment_reference IS NULL OR ${p.add(from)}::text IN ('none', 'failed') THEN ${p.add(e.reference)}::text ELSE payment_reference END`
      : 'payment_reference';
  const update = `UPDATE store_orders SET payment_status = ${p.add(to)}, updated_at = now(), refunded_minor = ${refunded}, payment_attention = COALESCE(${attention}, payment_attention), payment_reference = ${takesReference},
      payment_attention_at = CASE WHEN ${attention} IS NULL THEN payment_attention_at ELSE now() END, needs_attention = needs_attention OR ${attention} IS NOT NULL
    WHERE store_id = ${p.add(storeId)} AND id = ${p.add(orderId)} RETURNING id, store_id, number, payment_status, refunded_minor, needs_attention, payment_attention, payment_attention_at, created_by_key_id`;
  const reaction = e.reaction ? `, reaction AS (${storeOrderEvent(p, 'o', e.reaction, e.actor)})` : '';
  await rows(tx, `WITH o AS (${update}), ev AS (${paymentChangedEvent(p, from, e.reportedAs, e.reference ?? null)})${reaction} SELECT 1`, p.values);
}

/** `storeOrder.paymentChanged` for the order row `o` as written: its payment now and before, and what moved it. */
const paymentChangedEvent = (p: Params, from: PaymentStatus, reportedAs: string, reference: string | null) =>
  outboxStep({
    from: 'o',
    type: `'storeOrder.paymentChanged'`,
    storeId: 'o.store_id',
    resourceKey: `'storeOrder:' || o.id`,
    recordKeyId: 'o.created_by_key_id',
    snapshot: `jsonb_build_object('orderId', o.id, 'orderNumber', o.number, 'paymentStatus', o.payment_status, 'previousPaymentStatus', ${p.add(from)}::text,
      'reportedAs', ${p.add(reportedAs)}::text, 'paymentReference', ${p.add(reference)}::text, 'amountRefundedMinor', o.refunded_minor, 'needsAttention', o.needs_attention,
      'paymentAttention', CASE WHEN o.payment_attention IS NULL THEN NULL ELSE jsonb_build_object('reason', o.payment_attention, 'since', to_char(o.payment_attention_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END)`,
  });

/**
 * A person acknowledged the payment's attention for `reason`: it clears only while the order's reason is that one,
 * and the order needs attention only if a part still does. Answers the reason the order had (null: none).
 */
export async function clearPaymentAttention(
  tx: Queryable,
  storeId: string,
  orderId: string,
  reason: PaymentAttentionReason,
): Promise<PaymentAttentionReason | null> {
  const [was] = await rows<{ reason: PaymentAttentionReason | null }>(
    tx,
    'SELECT payment_attention AS reason FROM store_orders WHERE store_id = $1 AND id = $2 FOR UPDATE',
    [storeId, orderId],
  );
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
  const [order] = await rows<{ payment_status: PaymentStatus; refunded_minor: string }>(
    tx,
    'SELECT payment_status, refunded_minor FROM store_orders WHERE store_id = $1 AND id = $2 FOR UPDATE',
    [storeId, orderId],
  );
  return { status: order.payment_status, refundedMinor: Number(order.refunded_minor) };
}
