import { affected, preparedRows, type Queryable, rows } from '../../platform/db';
import { isoTime, type KeysetListStatement, storeScope } from '../../platform/pagination';
import type { LandedCostView, PartMoney, SupplierCreditView } from '../landed';
import type { PartRef, SupplierOrder, SupplierOrderEvent, SupplierOrderFilters } from '../supplier-order';
import { COLUMNS_READ, EVENTS_OF_S, LISTED_OF_S, OF_S, supplierOrderOf, type SupplierOrderRow } from './rows';

// Supplier orders read: one, of a part, due, and the list (what a step reads is ./work.ts `workOfMany`); nothing
// outside dispatch's tables is written here.

/** Wakes the dispatch runners of every process when work is sent. */
export const WORK_CHANNEL = 'dispatch_work';

export async function supplierOrderById(db: Queryable, id: string, storeId: string): Promise<SupplierOrder | null> {
  const [r] = await preparedRows<SupplierOrderRow>(db, `SELECT ${COLUMNS_READ} FROM supplier_orders WHERE store_id = $2 AND id = $1`, [id, storeId]);
  return r ? supplierOrderOf(r) : null;
}

export async function supplierOrderOfPart(db: Queryable, storeId: string, orderId: string, partKey: string): Promise<SupplierOrder | null> {
  const [r] = await preparedRows<SupplierOrderRow>(db, `SELECT ${COLUMNS_READ} FROM supplier_orders WHERE store_id = $1 AND order_id = $2 AND group_key = $3`, [
    storeId,
    orderId,
    partKey,
  ]);
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

export async function supplierOrderBySupplierId(db: Queryable, connectionId: string, supplierOrderId: string, storeId: string): Promise<SupplierOrder | null> {
  const [r] = await rows<SupplierOrderRow>(db, 'SELECT * FROM supplier_orders WHERE connection_id = $1 AND supplier_order_id = $2 AND store_id = $3', [
    connectionId,
    supplierOrderId,
    storeId,
  ]);
  return r ? supplierOrderOf(r) : null;
}

/** The supplier orders of some store orders, oldest first, each with its events (the list's shape), in one read. */
export function supplierOrdersOfOrders(
  db: Queryable,
  storeId: string,
  orderIds: string[],
): Promise<Array<SupplierOrderRow & { events: SupplierOrderEvent[] }>> {
  return preparedRows(
    db,
    `SELECT ${OF_S}, ${EVENTS_OF_S} AS events FROM supplier_orders s WHERE s.store_id = $1 AND s.order_id = ANY($2) ORDER BY s.created_at`,
    [storeId, orderIds],
  );
}

// The column group_key is the code's partKey.
const PART_REF = `id, store_id AS "storeId", order_id AS "orderId", group_key AS "partKey", connection_id AS "connectionId", supplier_key AS "supplierKey"`;

/** Which of these records of a store have a step due (the generated column): the runner's look after a batch of jobs. */
export function stepDueAmong(db: Queryable, storeId: string, ids: string[]): Promise<PartRef[]> {
  return preparedRows(db, `SELECT ${PART_REF} FROM supplier_orders WHERE store_id = $1 AND id = ANY($2::uuid[]) AND step_due`, [storeId, ids]);
}

/** Records with a step due that nothing touched for a while (a lost job, a crash between commit and send). */
export function staleWithStepDue(db: Queryable, olderThanSeconds: number, limit: number): Promise<PartRef[]> {
  return rows(
    db,
    `SELECT /* cross-store: dispatch-stale-sweep */ ${PART_REF} FROM supplier_orders WHERE step_due AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT $2`,
    [olderThanSeconds, limit],
  );
}

/** Failed records whose backoff has passed. */
export async function dueForRetry(db: Queryable, limit: number): Promise<SupplierOrder[]> {
  return (
    await rows<SupplierOrderRow>(
      db,
      `SELECT /* cross-store: dispatch-retry-sweep */ * FROM supplier_orders WHERE status = 'failed' AND next_retry_at <= now() ORDER BY next_retry_at LIMIT $1`,
      [limit],
    )
  ).map(supplierOrderOf);
}

/** A part's supplier credits (./credits.ts), oldest first. */
const CREDITS = `(SELECT coalesce(json_agg(json_build_object('kind', c.kind, 'amountMinor', c.amount_minor, 'currency', c.currency, 'storeAmountMinor', c.store_amount_minor,
                   'storeCurrency', c.store_currency, 'rate', c.rate, 'rateSource', c.rate_source, 'rateAsOf', to_char(c.rate_as_of, 'YYYY-MM-DD'), 'counted', c.counted,
                   'recordedAt', ${isoTime('c.recorded_at')}) ORDER BY c.recorded_at), '[]')
               FROM supplier_credits c WHERE c.store_id = s.store_id AND c.supplier_order_id = s.id)`;

/**
 * What the profit of some parts of one store is read from: the store's and the order's currency, the part's items'
 * prices (orders' rows) and its landed costs by stage; one statement, by the store.
 */
export async function moneyOf(db: Queryable, storeId: string, ids: string[]): Promise<Map<string, PartMoney>> {
  if (!ids.length) return new Map();
  // Before its migration made landed_costs (a release answering while the previous one still runs): no profit yet.
  const [made] = await preparedRows<{ made: boolean; credits: boolean }>(
    db,
    `SELECT to_regclass('landed_costs') IS NOT NULL AS made, to_regclass('supplier_credits') IS NOT NULL AS credits`,
    [],
  );
  if (!made.made) return new Map();
  const found = await preparedRows<{
    id: string;
    store_currency: string;
    order_currency: string;
    revenue_minor: string;
    landed: LandedCostView[];
    credits: SupplierCreditView[];
  }>(
    db,
    `SELECT s.id, trim(st.currency) AS store_currency, trim(o.currency) AS order_currency,
            (SELECT coalesce(sum(i.unit_price_minor * i.quantity), 0) FROM store_order_items i WHERE i.store_id = s.store_id AND i.order_id = s.order_id AND i.group_key = s.group_key) AS revenue_minor,
            (SELECT coalesce(json_agg(json_build_object('stage', l.stage, 'currency', l.currency, 'itemsMinor', l.items_minor, 'shippingMinor', l.shipping_minor, 'totalMinor', l.total_minor,
                      'storeCurrency', l.store_currency, 'storeTotalMinor', l.store_total_minor, 'rate', l.rate, 'rateSource', l.rate_source, 'rateAsOf', to_char(l.rate_as_of, 'YYYY-MM-DD'),
                      'recordedAt', ${isoTime('l.recorded_at')}) ORDER BY array_position(ARRAY['confirmation', 'accepted', 'paid'], l.stage)), '[]')
               FROM landed_costs l WHERE l.store_id = s.store_id AND l.supplier_order_id = s.id) AS landed,
            ${made.credits ? CREDITS : `'[]'::json`} AS credits
       FROM supplier_orders s JOIN stores st ON st.id = s.store_id JOIN store_orders o ON o.store_id = s.store_id AND o.id = s.order_id
      WHERE s.store_id = $1 AND s.id = ANY($2::uuid[])`,
    [storeId, ids],
  );
  return new Map(
    found.map((r) => [
      r.id,
      { storeCurrency: r.store_currency, orderCurrency: r.order_currency, revenueMinor: Number(r.revenue_minor), landedCosts: r.landed, credits: r.credits },
    ]),
  );
}

/** The store's currency (the stores domain's row). */
export async function storeCurrency(db: Queryable, storeId: string): Promise<string> {
  const [r] = await preparedRows<{ currency: string }>(db, 'SELECT trim(currency) AS currency FROM stores WHERE id = $1', [storeId]);
  if (!r) throw new Error(`no store ${storeId}`);
  return r.currency;
}

/** Each waiting part's pair: the one its last pause named (by the rate-wait index, the history by its own). */
const WAITING_ON_RATE = `SELECT s.*, p.details->>'from' AS rate_from, p.details->>'to' AS rate_to FROM supplier_orders s
       LEFT JOIN LATERAL (SELECT e.details FROM supplier_order_events e WHERE e.store_id = s.store_id AND e.supplier_order_id = s.id AND e.type = 'paused' ORDER BY e.id DESC LIMIT 1) p ON true
      WHERE s.status = 'needsReview' AND s.review_reason = 'exchangeRateUnavailable'`;

/** The pairs parts of every store wait on (a pause that named none: null, null). */
export function pairsWaitedOn(db: Queryable): Promise<Array<{ from: string | null; to: string | null }>> {
  return rows(db, `SELECT /* cross-store: dispatch-rate-pairs */ DISTINCT w.rate_from AS "from", w.rate_to AS "to" FROM (${WAITING_ON_RATE}) w`, []);
}

/**
 * Parts of every store waiting on one of these pairs (`from>to`; a pause that named none counts as `>`), by turns:
 * each store's oldest first, then each store's second, so one store's parts never hold another's back.
 */
export async function waitingOnRate(db: Queryable, pairs: string[], limit: number): Promise<SupplierOrder[]> {
  const found = await rows<SupplierOrderRow>(
    db,
    `SELECT /* cross-store: dispatch-rate-resume */ w.* FROM (SELECT x.*, row_number() OVER (PARTITION BY x.store_id ORDER BY x.updated_at, x.id) AS turn FROM (${WAITING_ON_RATE}) x
        WHERE coalesce(x.rate_from, '') || '>' || coalesce(x.rate_to, '') = ANY($1::text[])) w
      ORDER BY w.turn, w.updated_at LIMIT $2`,
    [pairs, limit],
  );
  return found.map(supplierOrderOf);
}

/** The last cost the pre-checks saw. */
export async function lastSeenCost(db: Queryable, storeId: string, soId: string): Promise<number | null> {
  const [row] = await rows<{ c: string | null }>(
    db,
    `SELECT details->>'currentCostMinor' AS c FROM supplier_order_events WHERE store_id = $1 AND supplier_order_id = $2 AND details ? 'currentCostMinor' ORDER BY id DESC LIMIT 1`,
    [storeId, soId],
  );
  return row?.c != null ? Number(row.c) : null;
}

export async function openSupplierOrderCount(db: Queryable, storeId: string, connectionId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM supplier_orders WHERE store_id = $1 AND connection_id = $2 AND status NOT IN ('delivered', 'cancelled')`,
    [storeId, connectionId],
  );
  return row.n;
}

/** Wakes the dispatch runners of every process. */
export async function wakeRunners(db: Queryable): Promise<void> {
  await affected(db, `SELECT pg_notify('${WORK_CHANNEL}', '')`);
}

export function eventsOf(
  db: Queryable,
  storeId: string,
  ids: string[],
): Promise<
  Array<{
    id: string;
    supplier_order_id: string;
    at: Date;
    actor_kind: string;
    actor_id: string | null;
    type: string;
    from_status: string | null;
    to_status: string | null;
    details: Record<string, unknown>;
  }>
> {
  return rows(db, 'SELECT * FROM supplier_order_events WHERE store_id = $1 AND supplier_order_id = ANY($2) ORDER BY id', [storeId, ids]);
}

/**
 * The supplier order list: each record with its events, in the columns its view shows named as it reads them (`LISTED_OF_S`,
 * `ListedSupplierOrder` in ./views; times as ISO text). Counted by supplier_order_counts; own-scope keys and orderId count their rows.
 */
export function supplierOrderList(storeId: string, ownKeyId: string | null, f: SupplierOrderFilters): KeysetListStatement {
  // The counts do not keep the creating key: an own key's list counts its rows.
  const filters = storeScope(storeId, ownKeyId, false);
  const add = (column: string, value: unknown, counted: boolean, op: '=' | '<>' = '=') =>
    filters.push({ column, value, op, ...(counted ? { countColumn: column } : {}) });
  if (f.needsReview === true) add('status', 'needsReview', true);
  if (f.needsReview === false) add('status', 'needsReview', true, '<>');
  if (f.status) add('status', f.status, true);
  if (f.connectionId) add('connection_id', f.connectionId, true);
  if (f.orderId) add('order_id', f.orderId, false);
  if (f.contractModel) add('contract_model', f.contractModel, true);
  // The delivery watch's attention (../delivery/): kept with the row, by a partial index; the counts do not keep it.
  if (f.needsAttention !== undefined) add('needs_attention', f.needsAttention, false);
  return {
    list: 'supplierOrders',
    binding: {
      storeId,
      ownKeyId,
      status: f.status ?? null,
      needsReview: f.needsReview ?? null,
      needsAttention: f.needsAttention ?? null,
      connectionId: f.connectionId ?? null,
      orderId: f.orderId ?? null,
      contractModel: f.contractModel ?? null,
    },
    table: 'supplier_orders',
    alias: 's',
    filters,
    columns: `${LISTED_OF_S}, ${EVENTS_OF_S} AS events`,
    counts: { table: 'supplier_order_counts', sum: 'n' },
  };
}
