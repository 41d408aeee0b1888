import type { Actor } from '../../identity/permissions';
import { affected, type Queryable, rows } from '../../platform/db';
import type { PaymentAttentionReason, PaymentStatus } from '../types';
import { paymentDeltaCtes } from './profit';

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
  const once =
    e.source === 'service'
      ? 'WHERE NOT EXISTS (SELECT 1 FROM payment_events WHERE store_id = $8 AND order_id = $1 AND source = $3 AND kind = $2 AND reference IS NOT DISTINCT FROM $5)'
      : '';
  const insert = `INSERT INTO payment_events (store_id, order_id, kind, source, amount_minor, reference, provider_event_id, actor, provider_occurred_at, provider_version, applied, stale, note, attention${fee ? ', fee_minor, fee_currency' : ''})
       SELECT $8::uuid, $1::uuid, $2::text, $3::text, $4::bigint, $5::text, $6::text, $7::jsonb, $9::timestamptz, $10::int, $11::boolean, $12::boolean, $13::text, $14::text${fee ? ', $15::bigint, $16::text' : ''} ${once}
       ON CONFLICT (store_id, order_id, provider_event_id) WHERE provider_event_id IS NOT NULL DO NOTHING`;
  const args = [
    e.orderId,
    e.kind,
    e.source,
    e.amountMinor ?? null,
    e.reference ?? null,
    e.providerEventId ?? null,
    e.actor ? JSON.stringify(e.actor) : null,
    e.storeId,
    e.occurredAt ?? null,
    e.version ?? null,
    e.applied ?? null,
    e.stale ?? false,
    e.note ?? null,
    e.attention ?? null,
    ...(fee ? [fee.amountMinor, fee.currency] : []),
  ];
  if (!fee) return (await affected(tx, insert, args)) > 0;
  // A fee the event records joins the profit report's sums (its order's day: deltas, folded later), split to the order's
  // parts and their products in the same statement; one in another currency than the store's is not converted, and not summed.
  const [r] = await rows<{ n: number }>(
    tx,
    `WITH ins AS (${insert} RETURNING store_id, order_id, fee_minor, fee_currency),
          pay AS (SELECT ins.store_id, ins.order_id, (o.created_at AT TIME ZONE 'UTC')::date AS day, ins.fee_minor, 0::bigint AS refund_minor
                    FROM ins JOIN store_orders o ON o.store_id = $8 AND o.id = ins.order_id JOIN stores st ON st.id = $8
                   WHERE ins.fee_minor IS NOT NULL AND ins.fee_currency = trim(st.currency)),
          ${paymentDeltaCtes('$8', 'pay')}
     SELECT count(*)::int AS n FROM ins`,
    args,
  );
  return r.n > 0;
}

/** The provider payments the service asked to capture (each once: its captureRequested). */
export async function captureAskedOf(db: Queryable, storeId: string, orderId: string): Promise<string[]> {
  const found = await rows<{ reference: string }>(
    db,
    `SELECT reference FROM payment_events WHERE store_id = $1 AND order_id = $2 AND source = 'service' AND kind = 'captureRequested' AND reference IS NOT NULL`,
    [storeId, orderId],
  );
  return found.map((r) => r.reference);
}

/** True when a supplier part of the order has shipped or been delivered (the goods are gone). */
export async function supplierPartShipped(db: Queryable, storeId: string, orderId: string): Promise<boolean> {
  const [r] = await rows<{ shipped: boolean }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM fulfilment_groups WHERE store_id = $1 AND order_id = $2 AND NOT fulfilled_by_store AND status IN ('shipped', 'delivered')) AS shipped`,
    [storeId, orderId],
  );
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
export function paymentEventsOf(
  db: Queryable,
  storeId: string,
  orderIds: string[],
): Promise<
  Array<{
    order_id: string;
    kind: string;
    source: PaymentEventRow['source'];
    amount_minor: string | null;
    reference: string | null;
    actor: Actor | null;
    stale: boolean;
    note: string | null;
    attention: string | null;
    fee_minor: string | null;
    fee_currency: string | null;
    created_at: Date;
  }>
> {
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
  return (
    (await affected(tx, 'UPDATE store_orders SET marked_paid_at = now(), updated_at = now() WHERE store_id = $1 AND id = $2 AND marked_paid_at IS NULL', [
      storeId,
      orderId,
    ])) > 0
  );
}

export * from './payment-status';
