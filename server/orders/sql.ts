import { affected, Queryable, rows } from '../platform/db';
import { KeysetListStatement, storeScope } from '../platform/pagination';
import type { Actor } from '../identity/permissions';
import type { Destination, FulfilmentGroup, PaymentStatus, StoreOrder } from './entities';

// The orders domain's SQL statements; its services call these and hold no SQL text of their own.

export interface OrderListRow {
  id: string;
  store_id: string;
  number: string;
  status: StoreOrder['status'];
  payment_method: StoreOrder['paymentMethod'];
  payment_status: StoreOrder['paymentStatus'];
  contract_model: StoreOrder['contractModel'];
  currency: string;
  total_minor: string;
  needs_attention: boolean;
  destination: Destination;
  confirmed_at: Date | null;
  marked_paid_at: Date | null;
  created_at: Date;
  updated_at: Date;
  parts: Array<{ groupKey: string; connectionId: string | null; status: FulfilmentGroup['status']; fulfilledByStore: boolean; shipment: FulfilmentGroup['shipment'] }>;
  attention: number;
}

/** The store order list: each order with its parts and how many of them need attention. */
export function orderList(f: { storeId: string; ownKeyId: string | null; needsAttention?: boolean; status?: string }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  if (f.needsAttention !== undefined) filters.push({ column: 'needs_attention', countColumn: 'needs_attention', value: f.needsAttention });
  if (f.status) filters.push({ column: 'status', countColumn: 'status', value: f.status });
  return { list: 'storeOrders', binding: f, table: 'store_orders', alias: 'o', filters,
    // attention: the order's parts waiting for review or failed.
    columns: `o.*,
      (SELECT coalesce(json_agg(json_build_object('groupKey', g.group_key, 'connectionId', g.connection_id, 'status', g.status,
                                  'fulfilledByStore', g.fulfilled_by_store, 'shipment', g.shipment) ORDER BY g.group_key), '[]')
         FROM fulfilment_groups g WHERE g.order_id = o.id) AS parts,
      (SELECT count(*)::int FROM fulfilment_groups g WHERE g.order_id = o.id AND g.needs_attention) AS attention`,
    counts: { table: 'store_order_counts', sum: 'n' },
  };
}

/** The links of these store variants through live connections. */
export function liveLinksOfVariants(tx: Queryable, variantIds: string[]): Promise<Array<{ store_variant_id: string; connection_id: string; supplier_variant_id: string; cost_minor: string }>> {
  return rows(
    tx,
    `SELECT lv.store_variant_id, l.connection_id, lv.supplier_variant_id, lv.cost_minor
       FROM product_link_variants lv JOIN product_links l ON l.id = lv.link_id
       JOIN supplier_connections c ON c.id = l.connection_id AND c.disconnected_at IS NULL
      WHERE lv.store_variant_id = ANY($1)`,
    [variantIds],
  );
}

/** The store's next order number. */
export async function nextOrderNumber(tx: Queryable, storeId: string): Promise<number> {
  const [{ order_counter: n }] = await rows<{ order_counter: number }>(tx, 'UPDATE stores SET order_counter = order_counter + 1 WHERE id = $1 RETURNING order_counter', [storeId]);
  return n;
}

/** True when this call confirmed the order (it was not confirmed before). */
export async function confirmOrder(tx: Queryable, orderId: string): Promise<boolean> {
  return (await affected(tx, `UPDATE store_orders SET confirmed_at = now() WHERE id = $1 AND confirmed_at IS NULL`, [orderId])) > 0;
}

/** The store's own pending part starts being prepared. */
export async function startStorePart(tx: Queryable, orderId: string, storeGroup: string): Promise<void> {
  await affected(tx, `UPDATE fulfilment_groups SET status = 'processing', updated_at = now() WHERE order_id = $1 AND group_key = $2 AND status = 'pending'`, [orderId, storeGroup]);
}

export interface PaymentEventRow {
  orderId: string;
  kind: string;
  /** Who said so: the payment provider (signed), a staff member by hand, or the service (a capture). */
  source: 'provider' | 'manual' | 'service';
  amountMinor?: number | null;
  reference?: string | null;
  /** The provider's event id: an event already recorded for the order is not recorded again. */
  providerEventId?: string | null;
  actor?: Actor | null;
}

/** False when the provider's event was recorded for this order before. */
export async function insertPaymentEvent(tx: Queryable, e: PaymentEventRow): Promise<boolean> {
  return (
    (await affected(
      tx,
      `INSERT INTO payment_events (order_id, kind, source, amount_minor, reference, provider_event_id, actor) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (order_id, provider_event_id) WHERE provider_event_id IS NOT NULL DO NOTHING`,
      [e.orderId, e.kind, e.source, e.amountMinor ?? null, e.reference ?? null, e.providerEventId ?? null, e.actor ? JSON.stringify(e.actor) : null],
    )) > 0
  );
}

/** The payment history of these orders, oldest first. */
export function paymentEventsOf(db: Queryable, orderIds: string[]): Promise<Array<{ order_id: string; kind: string; source: PaymentEventRow['source']; amount_minor: string | null; reference: string | null; actor: Actor | null; created_at: Date }>> {
  return rows(db, 'SELECT order_id, kind, source, amount_minor, reference, actor, created_at FROM payment_events WHERE order_id = ANY($1) ORDER BY id', [orderIds]);
}

/** True when this call marked the order paid by hand (it was not marked before). */
export async function markPaid(tx: Queryable, orderId: string): Promise<boolean> {
  return (await affected(tx, 'UPDATE store_orders SET marked_paid_at = now(), updated_at = now() WHERE id = $1 AND marked_paid_at IS NULL', [orderId])) > 0;
}

export async function setPaymentStatus(tx: Queryable, orderId: string, status: PaymentStatus): Promise<void> {
  await affected(tx, 'UPDATE store_orders SET payment_status = $2, updated_at = now() WHERE id = $1', [orderId, status]);
}

/** The order's payment status, the row held for the rest of the caller's transaction. */
export async function lockPaymentStatus(tx: Queryable, orderId: string): Promise<PaymentStatus> {
  const [order] = await rows<{ payment_status: PaymentStatus }>(tx, 'SELECT payment_status FROM store_orders WHERE id = $1 FOR UPDATE', [orderId]);
  return order.payment_status;
}

export async function confirmedAt(tx: Queryable, orderId: string): Promise<Date | null> {
  const [order] = await rows<{ confirmed_at: Date | null }>(tx, 'SELECT confirmed_at FROM store_orders WHERE id = $1', [orderId]);
  return order?.confirmed_at ?? null;
}
