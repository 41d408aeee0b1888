import { affected, Queryable, rows } from '../platform/db';
import { KeysetListStatement, storeScope } from '../platform/pagination';
import type { PaymentMethod, PaymentStatus } from '../orders/entities';
import type { SupplierOrder } from './entities';
import type { Change, WorkItem } from './records';
import type { SupplierOrderFilters } from './views';

// The dispatch domain's SQL statements; its services call these and hold no SQL text of their own.

/** Every change of a supplier order is announced here (in the same statement), for callers waiting on it. */
export const CHANGE_CHANNEL = 'supplier_order_changed';
/** Wakes the dispatch runners of every process when work is sent. */
export const WORK_CHANNEL = 'dispatch_work';

/** Whether some step is due (the generated column): one indexed read. */
export async function stepDue(db: Queryable, id: string): Promise<boolean> {
  const [row] = await rows<{ step_due: boolean }>(db, 'SELECT step_due FROM supplier_orders WHERE id = $1', [id]);
  return !!row?.step_due;
}

/** The store order's payment and the part's items, with the supplier product each item's variant is linked to now. */
export async function orderOfPart(db: Queryable, orderId: string, groupKey: string): Promise<{ payment_method: PaymentMethod; payment_status: PaymentStatus; confirmed: boolean; items: WorkItem[] }> {
  const [o] = await rows<{ payment_method: PaymentMethod; payment_status: PaymentStatus; confirmed: boolean; items: WorkItem[] }>(
    db,
    `SELECT o.payment_method, o.payment_status, o.confirmed_at IS NOT NULL AS confirmed,
            COALESCE((SELECT json_agg(json_build_object('id', i.id, 'sku', i.sku, 'quantity', i.quantity, 'supplierVariantId', i.supplier_variant_id,
                                                        'linkCostMinor', i.link_cost_minor, 'supplierProductId', l.supplier_product_id) ORDER BY i.position)
                        FROM store_order_items i
                        LEFT JOIN product_link_variants lv ON lv.store_variant_id = i.variant_id
                        LEFT JOIN product_links l ON l.id = lv.link_id
                       WHERE i.order_id = o.id AND i.group_key = $2), '[]') AS items
       FROM store_orders o WHERE o.id = $1`,
    [orderId, groupKey],
  );
  return o;
}

/** The fields a dispatch step may write, and their columns. */
const COLUMNS = {
  reviewReason: 'review_reason',
  reviewMessage: 'review_message',
  retryable: 'retryable',
  supplierOrderId: 'supplier_order_id',
  supplierStatus: 'supplier_status',
  costs: 'costs',
  paymentStatus: 'payment_status',
  shipping: 'shipping',
  attempt: 'attempt',
  supplierOrderNumber: 'supplier_order_number',
  numberKnownAbsent: 'number_known_absent',
  payRequested: 'pay_requested',
  cancelRequested: 'cancel_requested',
  storeTakesOver: 'store_takes_over',
  acceptedCostMinor: 'accepted_cost_minor',
  retriesUsed: 'retries_used',
  nextRetryAt: 'next_retry_at',
  paymentDue: 'payment_due',
  shopperCaptured: 'shopper_captured',
} as const satisfies Partial<Record<keyof SupplierOrder, string>>;
const JSON_COLUMNS = new Set(['costs', 'shipping']);
export type ChangeableField = keyof typeof COLUMNS;

/**
 * The one way a supplier order changes, in one statement: compare and set on its status, the history event,
 * the order part (the store order follows it by trigger), and the notification waiters listen for. False when
 * the record was not in a `from` status.
 */
export async function applyChange(db: Queryable, id: string, c: Change): Promise<boolean> {
  const args: unknown[] = [id, c.from, c.to ?? null, c.actor.kind, c.actor.id, c.type, JSON.stringify(c.details ?? {})];
  const sets: string[] = [];
  for (const [key, value] of Object.entries(c.fields ?? {})) {
    const column = COLUMNS[key as keyof typeof COLUMNS];
    if (!column) throw new Error(`not a dispatch field: ${key}`);
    args.push(JSON_COLUMNS.has(column) && value !== null ? JSON.stringify(value) : value);
    sets.push(`${column} = $${args.length}${JSON_COLUMNS.has(column) ? '::jsonb' : ''}`);
  }
  let part = '';
  if (c.part) {
    args.push(c.part.status, c.part.shipment ? JSON.stringify(c.part.shipment) : null, c.part.needsAttention);
    const n = args.length;
    part = `, part AS (
      UPDATE fulfilment_groups g SET status = $${n - 2}, shipment = $${n - 1}::jsonb, needs_attention = $${n}, updated_at = now()
        FROM so WHERE g.order_id = so.order_id AND g.group_key = so.group_key AND NOT g.fulfilled_by_store)`;
  }
  const changed = await rows(
    db,
    `WITH cur AS (SELECT id, status FROM supplier_orders WHERE id = $1 AND status = ANY($2::text[]) FOR UPDATE),
     so AS (
       UPDATE supplier_orders s SET status = COALESCE($3, s.status), updated_at = now()${sets.map((x) => `, ${x}`).join('')}
         FROM cur WHERE s.id = cur.id
       RETURNING s.id, s.order_id, s.group_key, s.status, cur.status AS from_status
     ), ev AS (
       INSERT INTO supplier_order_events (supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
       SELECT id, $4, $5, $6, from_status, status, $7::jsonb FROM so
     )${part}
     SELECT so.id, pg_notify('${CHANGE_CHANNEL}', so.id::text) FROM so`,
    args,
  );
  return changed.length > 0;
}

/** The part's supplier order, its first event and the part's reset, unless the part has one already; true when this made it. */
export async function insertSupplierOrder(
  tx: Queryable,
  r: { id: string; storeId: string; orderId: string; groupKey: string; connectionId: string; supplierKey: string; orderNumber: string; contractModel: string; supplierOrderNumber: string; payNow: boolean; destination: unknown; createdByAccountId: string; createdByKeyId: string | null },
  event: { actorKind: string; actorId: string | null; details: Record<string, unknown> },
): Promise<boolean> {
  const inserted = await rows(
    tx,
    `WITH so AS (
       INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number,
                                    payment_status, pay_now, destination, created_by_account_id, created_by_key_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9, 'unpaid', $10, $11, $12, $13)
       ON CONFLICT (order_id, group_key) DO NOTHING RETURNING id
     ), ev AS (
       INSERT INTO supplier_order_events (supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
       SELECT id, $14, $15, 'created', NULL, 'queued', $16::jsonb FROM so
     ), part AS (
       UPDATE fulfilment_groups SET status = 'pending', needs_attention = false, updated_at = now()
        WHERE order_id = $3 AND group_key = $4 AND EXISTS (SELECT 1 FROM so) AND (status <> 'pending' OR needs_attention)
     )
     SELECT id FROM so`,
    [
      r.id, r.storeId, r.orderId, r.groupKey, r.connectionId, r.supplierKey, r.orderNumber, r.contractModel, r.supplierOrderNumber,
      r.payNow, JSON.stringify(r.destination), r.createdByAccountId, r.createdByKeyId,
      event.actorKind, event.actorId, JSON.stringify(event.details),
    ],
  );
  return inserted.length > 0;
}

/** Records with a step due that nothing touched for a while (a lost job, a crash between commit and send). */
export function staleWithStepDue(db: Queryable, olderThanSeconds: number, limit: number): Promise<Array<{ id: string; order_id: string; group_key: string; connection_id: string; supplier_key: string }>> {
  return rows(
    db,
    `SELECT id, order_id, group_key, connection_id, supplier_key FROM supplier_orders
      WHERE step_due AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT $2`,
    [olderThanSeconds, limit],
  );
}

/** Failed records whose backoff has passed. */
export function dueForRetry(db: Queryable, limit: number): Promise<Array<{ id: string }>> {
  return rows(db, `SELECT id FROM supplier_orders WHERE status = 'failed' AND next_retry_at <= now() ORDER BY next_retry_at LIMIT $1`, [limit]);
}

/** The last cost the pre-checks saw. */
export async function lastSeenCost(db: Queryable, soId: string): Promise<number | null> {
  const [row] = await rows<{ c: string | null }>(db, `SELECT details->>'currentCostMinor' AS c FROM supplier_order_events WHERE supplier_order_id = $1 AND details ? 'currentCostMinor' ORDER BY id DESC LIMIT 1`, [soId]);
  return row?.c != null ? Number(row.c) : null;
}

export async function openSupplierOrderCount(db: Queryable, connectionId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, `SELECT count(*)::int AS n FROM supplier_orders WHERE connection_id = $1 AND status NOT IN ('delivered', 'cancelled')`, [connectionId]);
  return row.n;
}

/** Wakes the dispatch runners of every process. */
export async function wakeRunners(db: Queryable): Promise<void> {
  await affected(db, `SELECT pg_notify('${WORK_CHANNEL}', '')`);
}

// --- Reads

export function eventsOf(db: Queryable, ids: string[]): Promise<Array<{ supplier_order_id: string; at: Date; actor_kind: string; actor_id: string | null; type: string; from_status: string | null; to_status: string | null; details: Record<string, unknown> }>> {
  return rows(db, 'SELECT * FROM supplier_order_events WHERE supplier_order_id = ANY($1) ORDER BY id', [ids]);
}

/**
 * The supplier order list: each record with its events. Counted by supplier_order_counts; own-scope keys and
 * orderId count their rows.
 */
export function supplierOrderList(storeId: string, ownKeyId: string | null, f: SupplierOrderFilters): KeysetListStatement {
  // The counts do not keep the creating key: an own key's list counts its rows.
  const filters = storeScope(storeId, ownKeyId, false);
  const add = (column: string, value: unknown, counted: boolean, op: '=' | '<>' = '=') => filters.push({ column, value, op, ...(counted ? { countColumn: column } : {}) });
  if (f.needsReview === true) add('status', 'needsReview', true);
  if (f.needsReview === false) add('status', 'needsReview', true, '<>');
  if (f.status) add('status', f.status, true);
  if (f.connectionId) add('connection_id', f.connectionId, true);
  if (f.orderId) add('order_id', f.orderId, false);
  if (f.contractModel) add('contract_model', f.contractModel, true);
  return {
    list: 'supplierOrders',
    binding: { storeId, ownKeyId, status: f.status ?? null, needsReview: f.needsReview ?? null, connectionId: f.connectionId ?? null, orderId: f.orderId ?? null, contractModel: f.contractModel ?? null },
    table: 'supplier_orders',
    alias: 's',
    filters,
    columns: `s.*, (SELECT coalesce(json_agg(json_build_object('at', e.at, 'actor', json_build_object('kind', e.actor_kind, 'id', e.actor_id), 'type', e.type,
                              'from', e.from_status, 'to', e.to_status, 'details', e.details) ORDER BY e.id), '[]')
                      FROM supplier_order_events e WHERE e.supplier_order_id = s.id) AS events`,
    counts: { table: 'supplier_order_counts', sum: 'n' },
  };
}
