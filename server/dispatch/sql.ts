import { affected, Params, preparedRows, Queryable, rows } from '../platform/db';
import { isoTime, KeysetListStatement, storeScope } from '../platform/pagination';
import { ConnectionRow, connectionOf } from '../connections/sql';
import { movePart } from '../orders/sql';
import type { PaymentMethod, PaymentStatus } from '../orders/types';
import { eventStep } from './events';
import { assertMove } from './state-machine';
import type { PartRef, SupplierOrder, SupplierOrderEvent, Work, WorkItem } from './supplier-order';
import type { Change } from './transition';
import type { SupplierOrderFilters } from './views';

// The dispatch domain's data module: every statement on its tables (supplier orders, their history), rows mapped to its types below.
// Reads may join other domains' tables for one step; the only writes outside are orders' `movePart` and the events' outbox (`writeChange`).

/** Every change of a supplier order is announced here (in the same statement), for callers waiting on it. */
export const CHANGE_CHANNEL = 'supplier_order_changed';
/** Wakes the dispatch runners of every process when work is sent. */
export const WORK_CHANNEL = 'dispatch_work';

export interface SupplierOrderRow {
  id: string;
  store_id: string;
  order_id: string;
  group_key: string;
  connection_id: string;
  supplier_key: string;
  order_number: string;
  contract_model: SupplierOrder['contractModel'];
  status: SupplierOrder['status'];
  review_reason: SupplierOrder['reviewReason'];
  review_message: string | null;
  retryable: boolean | null;
  supplier_order_number: string;
  number_known_absent: boolean;
  supplier_order_id: string | null;
  supplier_status: string | null;
  costs: SupplierOrder['costs'];
  payment_status: SupplierOrder['paymentStatus'];
  shipping: SupplierOrder['shipping'];
  attempt: number;
  pay_now: boolean;
  pay_requested: boolean;
  cancel_requested: boolean;
  payment_due: boolean;
  capture_requested: boolean;
  store_takes_over: boolean;
  accepted_cost_minor: string | null;
  destination: SupplierOrder['destination'];
  retries_used: number;
  next_retry_at: Date | null;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date; updated_at: Date;
}

/** A supplier order's columns, named (the hot statements are prepared: their result may not change with the table). */
const COLUMNS_READ = `id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, review_reason, review_message,
  retryable, supplier_order_number, number_known_absent, supplier_order_id, supplier_status, costs, payment_status, shipping, attempt, pay_now, pay_requested,
  cancel_requested, payment_due, capture_requested, store_takes_over, accepted_cost_minor, destination, retries_used, next_retry_at, created_by_account_id,
  created_by_key_id, created_at, updated_at`;
const OF_S = COLUMNS_READ.split(',').map((c) => `s.${c.trim()}`).join(', ');
const LISTED_OF_S = `${'id store_id order_id order_number group_key connection_id supplier_key contract_model status review_reason review_message retryable supplier_order_number supplier_order_id supplier_status costs payment_status shipping attempt destination'
  .split(' ').map((c) => `s.${c} AS "${c.replace(/_(\w)/g, (_, x: string) => x.toUpperCase())}"`).join(', ')}, ${isoTime('s.created_at')} AS "createdAt", ${isoTime('s.updated_at')} AS "updatedAt"`;

/** A supplier order's history as JSON, oldest first, each `at` in ISO 8601 as answered (for `s`, a supplier order row). */
const EVENTS_OF_S = `(SELECT coalesce(json_agg(json_build_object('at', ${isoTime('e.at')}, 'actor', json_build_object('kind', e.actor_kind, 'id', e.actor_id), 'type', e.type,
                              'from', e.from_status, 'to', e.to_status, 'details', e.details) ORDER BY e.id), '[]')
                      FROM supplier_order_events e WHERE e.supplier_order_id = s.id)`;

/** The columns of the fields a change may write, and which hold JSON. */
const COLUMNS: Record<string, string> = {
  reviewReason: 'review_reason', reviewMessage: 'review_message', retryable: 'retryable', supplierOrderId: 'supplier_order_id', supplierStatus: 'supplier_status',
  costs: 'costs', paymentStatus: 'payment_status', shipping: 'shipping', attempt: 'attempt', supplierOrderNumber: 'supplier_order_number',
  numberKnownAbsent: 'number_known_absent', payRequested: 'pay_requested', cancelRequested: 'cancel_requested', storeTakesOver: 'store_takes_over',
  acceptedCostMinor: 'accepted_cost_minor', retriesUsed: 'retries_used', nextRetryAt: 'next_retry_at', paymentDue: 'payment_due', captureRequested: 'capture_requested',
};
const JSON_FIELDS = new Set(['costs', 'shipping']);

export function supplierOrderOf(r: SupplierOrderRow): SupplierOrder {
  return {
    id: r.id, storeId: r.store_id, orderId: r.order_id, groupKey: r.group_key, connectionId: r.connection_id, supplierKey: r.supplier_key, orderNumber: r.order_number,
    contractModel: r.contract_model, status: r.status, reviewReason: r.review_reason, reviewMessage: r.review_message, retryable: r.retryable,
    supplierOrderNumber: r.supplier_order_number, numberKnownAbsent: r.number_known_absent, supplierOrderId: r.supplier_order_id, supplierStatus: r.supplier_status,
    costs: r.costs, paymentStatus: r.payment_status, shipping: r.shipping, attempt: r.attempt, payNow: r.pay_now, payRequested: r.pay_requested,
    cancelRequested: r.cancel_requested, paymentDue: r.payment_due, captureRequested: r.capture_requested, storeTakesOver: r.store_takes_over,
    acceptedCostMinor: r.accepted_cost_minor === null ? null : Number(r.accepted_cost_minor), destination: r.destination, retriesUsed: r.retries_used,
    nextRetryAt: r.next_retry_at, createdByAccountId: r.created_by_account_id, createdByKeyId: r.created_by_key_id, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

/**
 * The one write of a supplier order, for every change (./transition.ts made `c`): in one statement, the record made
 * or changed by compare and set on its status, its history event, its order part moved (orders' `movePart`), and the
 * notification waiters listen for. The move is checked against the table again here. `alike` names other records
 * that the same change moves in the same statement (each by compare and set, each with its own history and part).
 * Answers the records as written; a record not in `c.from` (or, for a new one, a part that already had one) is not.
 */
export async function writeChange(db: Queryable, c: Change, alike: string[] = []): Promise<SupplierOrder[]> {
  assertMove(c.from, c.to);
  const p = new Params();
  const a = c.after;
  let so: string;
  if (c.from === null) {
    so = `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number,
                                       payment_status, pay_now, destination, created_by_account_id, created_by_key_id)
          VALUES (${[a.id, a.storeId, a.orderId, a.groupKey, a.connectionId, a.supplierKey, a.orderNumber, a.contractModel, a.status, a.supplierOrderNumber, a.paymentStatus, a.payNow].map((v) => p.add(v)).join(', ')},
                  ${p.json(a.destination)}, ${p.add(a.createdByAccountId)}, ${p.add(a.createdByKeyId)})
          ON CONFLICT (order_id, group_key) DO NOTHING RETURNING ${COLUMNS_READ}, NULL::text AS from_status`;
  } else {
    const sets = Object.entries(c.fields).map(([key, value]) => {
      if (!COLUMNS[key]) throw new Error(`not a dispatch field: ${key}`);
      return `${COLUMNS[key]} = ${JSON_FIELDS.has(key) ? p.json(value) : p.add(value)}`;
    });
    const from = p.add(c.from);
    so = `UPDATE supplier_orders SET status = ${p.add(c.to)}, updated_at = now()${sets.map((x) => `, ${x}`).join('')}
           WHERE id = ANY(${p.add([c.id, ...alike])}::uuid[]) AND status = ${from} RETURNING ${COLUMNS_READ}, ${from}::text AS from_status`;
  }
  const h = c.history;
  const changed = await preparedRows<SupplierOrderRow>(
    db,
    `WITH so AS (${so}),
     ev AS (INSERT INTO supplier_order_events (supplier_order_id, actor_kind, actor_id, type, from_status, to_status, details)
            SELECT id, ${p.add(h.actor.kind)}, ${p.add(h.actor.id)}, ${p.add(h.type)}, from_status, status, ${p.json(h.details)} FROM so RETURNING id, supplier_order_id)
     ${eventStep(p, c)} ${c.part ? `, ${movePart(p, 'so', c.part)}` : ''}
     SELECT ${COLUMNS_READ}, pg_notify('${CHANGE_CHANNEL}', id::text) AS notified FROM so`,
    p.values,
  );
  return changed.map(supplierOrderOf);
}

// --- Reads

export async function supplierOrderById(db: Queryable, id: string, storeId?: string): Promise<SupplierOrder | null> {
  const [r] = await preparedRows<SupplierOrderRow>(db, `SELECT ${COLUMNS_READ} FROM supplier_orders WHERE id = $1${storeId ? ' AND store_id = $2' : ''}`, storeId ? [id, storeId] : [id]);
  return r ? supplierOrderOf(r) : null;
}

export async function supplierOrderOfPart(db: Queryable, orderId: string, groupKey: string): Promise<SupplierOrder | null> {
  const [r] = await preparedRows<SupplierOrderRow>(db, `SELECT ${COLUMNS_READ} FROM supplier_orders WHERE order_id = $1 AND group_key = $2`, [orderId, groupKey]);
  return r ? supplierOrderOf(r) : null;
}

/** Other queued records of a connection with no cancel asked (the store's queued ones, by the status index), oldest first. */
export async function queuedOfConnection(db: Queryable, so: Pick<SupplierOrder, 'id' | 'storeId' | 'connectionId'>, limit: number): Promise<SupplierOrder[]> {
  const found = await preparedRows<SupplierOrderRow>(
    db,
    `SELECT ${COLUMNS_READ} FROM supplier_orders WHERE store_id = $1 AND status = 'queued' AND connection_id = $2 AND id <> $3 AND NOT cancel_requested ORDER BY created_at LIMIT $4`,
    [so.storeId, so.connectionId, so.id, limit],
  );
  return found.map(supplierOrderOf);
}

export async function supplierOrderBySupplierId(db: Queryable, connectionId: string, supplierOrderId: string): Promise<SupplierOrder | null> {
  const [r] = await rows<SupplierOrderRow>(db, 'SELECT * FROM supplier_orders WHERE connection_id = $1 AND supplier_order_id = $2', [connectionId, supplierOrderId]);
  return r ? supplierOrderOf(r) : null;
}

/** The supplier orders of some store orders, oldest first, each with its events (the list's shape), in one read. */
export function supplierOrdersOfOrders(db: Queryable, orderIds: string[]): Promise<Array<SupplierOrderRow & { events: SupplierOrderEvent[] }>> {
  return preparedRows(db, `SELECT ${OF_S}, ${EVENTS_OF_S} AS events FROM supplier_orders s WHERE s.order_id = ANY($1) ORDER BY s.created_at`, [orderIds]);
}

/**
 * Everything a dispatch step reads, in one statement: the record, its connection (as the connections domain maps
 * it), the store order's payment, and the part's items with the supplier product each is linked to now.
 */
export async function workOf(db: Queryable, id: string): Promise<Work | null> {
  const [r] = await preparedRows<SupplierOrderRow & { connection: ConnectionRow; order_payment_method: PaymentMethod; order_payment_status: PaymentStatus; order_confirmed: boolean; items: WorkItem[] }>(
    db,
    `SELECT ${OF_S}, to_jsonb(c.*) AS connection, o.payment_method AS order_payment_method, o.payment_status AS order_payment_status, o.confirmed_at IS NOT NULL AS order_confirmed,
            COALESCE((SELECT json_agg(json_build_object('id', i.id, 'sku', i.sku, 'quantity', i.quantity, 'supplierVariantId', i.supplier_variant_id,
                                                        'linkCostMinor', i.link_cost_minor, 'supplierProductId', l.supplier_product_id) ORDER BY i.position)
                        FROM store_order_items i
                        LEFT JOIN product_link_variants lv ON lv.store_variant_id = i.variant_id
                        LEFT JOIN product_links l ON l.id = lv.link_id
                       WHERE i.order_id = s.order_id AND i.group_key = s.group_key), '[]') AS items
       FROM supplier_orders s JOIN supplier_connections c ON c.id = s.connection_id JOIN store_orders o ON o.id = s.order_id
      WHERE s.id = $1`,
    [id],
  );
  if (!r) return null;
  return {
    so: supplierOrderOf(r),
    conn: connectionOf(r.connection),
    order: { paymentMethod: r.order_payment_method, paymentStatus: r.order_payment_status, confirmed: r.order_confirmed },
    items: r.items.map((i) => ({ ...i, linkCostMinor: i.linkCostMinor === null ? null : Number(i.linkCostMinor) })),
  };
}

const PART_REF = `id, order_id AS "orderId", group_key AS "groupKey", connection_id AS "connectionId", supplier_key AS "supplierKey"`;

/** Which of these records have a step due (the generated column): the runner's one look after a batch of jobs. */
export function stepDueAmong(db: Queryable, ids: string[]): Promise<PartRef[]> {
  return preparedRows(db, `SELECT ${PART_REF} FROM supplier_orders WHERE id = ANY($1) AND step_due`, [ids]);
}

/** Records with a step due that nothing touched for a while (a lost job, a crash between commit and send). */
export function staleWithStepDue(db: Queryable, olderThanSeconds: number, limit: number): Promise<PartRef[]> {
  return rows(db, `SELECT ${PART_REF} FROM supplier_orders WHERE step_due AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT $2`, [olderThanSeconds, limit]);
}

/** Failed records whose backoff has passed. */
export async function dueForRetry(db: Queryable, limit: number): Promise<SupplierOrder[]> {
  return (await rows<SupplierOrderRow>(db, `SELECT * FROM supplier_orders WHERE status = 'failed' AND next_retry_at <= now() ORDER BY next_retry_at LIMIT $1`, [limit])).map(supplierOrderOf);
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

export function eventsOf(db: Queryable, ids: string[]): Promise<Array<{ id: string; supplier_order_id: string; at: Date; actor_kind: string; actor_id: string | null; type: string; from_status: string | null; to_status: string | null; details: Record<string, unknown> }>> {
  return rows(db, 'SELECT * FROM supplier_order_events WHERE supplier_order_id = ANY($1) ORDER BY id', [ids]);
}

/**
 * The supplier order list: each record with its events, in the columns its view shows named as it reads them (`LISTED_OF_S`,
 * `ListedSupplierOrder` in ./views; times as ISO text). Counted by supplier_order_counts; own-scope keys and orderId count their rows.
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
    columns: `${LISTED_OF_S}, ${EVENTS_OF_S} AS events`,
    counts: { table: 'supplier_order_counts', sum: 'n' },
  };
}
