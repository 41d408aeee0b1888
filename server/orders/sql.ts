import { affected, Params, preparedRows, Queryable, rows } from '../platform/db';
import { recordEvents } from '../events/sql';
import { KeysetListStatement, storeScope } from '../platform/pagination';
import type { Actor } from '../identity/permissions';
import type { Destination, FulfilmentGroup, PartMove, PaymentAttentionReason, PaymentStatus, StoreOrder, StoreOrderItem } from './types';

// The orders domain's data module: every statement on its tables (store orders, their items and parts, payment
// events), rows turned into its types by the mappers below. Its services hold no SQL and no TypeORM calls.

// --- Rows and mappers

interface OrderRow {
  id: string; store_id: string; number: string; status: StoreOrder['status']; payment_method: StoreOrder['paymentMethod']; payment_status: StoreOrder['paymentStatus'];
  contract_model: StoreOrder['contractModel']; currency: string; total_minor: string; destination: Destination; needs_attention: boolean;
  payment_attention: PaymentAttentionReason | null; payment_attention_at: Date | null; confirmed_at: Date | null; marked_paid_at: Date | null;
  created_by_account_id: string; created_by_key_id: string | null; created_at: Date; updated_at: Date;
}

const storeOrderOf = (r: OrderRow): StoreOrder => ({
  id: r.id, storeId: r.store_id, number: r.number, status: r.status, paymentMethod: r.payment_method, paymentStatus: r.payment_status,
  contractModel: r.contract_model, currency: r.currency, totalMinor: Number(r.total_minor), destination: r.destination, needsAttention: r.needs_attention,
  paymentAttention: r.payment_attention ? { reason: r.payment_attention, since: r.payment_attention_at! } : null,
  confirmedAt: r.confirmed_at, markedPaidAt: r.marked_paid_at, createdByAccountId: r.created_by_account_id, createdByKeyId: r.created_by_key_id, createdAt: r.created_at, updatedAt: r.updated_at,
});

/** A store order's columns, named: its reads are prepared (a prepared result may not change with the table). */
const ORDER_COLUMNS = `id, store_id, number, status, payment_method, payment_status, contract_model, currency, total_minor, destination, needs_attention,
  payment_attention, payment_attention_at, confirmed_at, marked_paid_at, created_by_account_id, created_by_key_id, created_at, updated_at`;
const ITEM_COLUMNS = `id, order_id AS "orderId", position, product_id AS "productId", variant_id AS "variantId", sku, title, product_title AS "productTitle", quantity,
  unit_price_minor::float8 AS "unitPriceMinor", group_key AS "groupKey", supplier_variant_id AS "supplierVariantId", link_cost_minor::float8 AS "linkCostMinor"`;
const GROUP_COLUMNS = `order_id AS "orderId", group_key AS "groupKey", connection_id AS "connectionId", status, shipment,
  fulfilled_by_store AS "fulfilledByStore", needs_attention AS "needsAttention", updated_at AS "updatedAt"`;

// --- Reads

export async function orderById(db: Queryable, id: string): Promise<StoreOrder | null> {
  const [r] = await preparedRows<OrderRow>(db, `SELECT ${ORDER_COLUMNS} FROM store_orders WHERE id = $1`, [id]);
  return r ? storeOrderOf(r) : null;
}

export async function orderInStore(db: Queryable, storeId: string, id: string): Promise<StoreOrder | null> {
  const [r] = await preparedRows<OrderRow>(db, `SELECT ${ORDER_COLUMNS} FROM store_orders WHERE id = $1 AND store_id = $2`, [id, storeId]);
  return r ? storeOrderOf(r) : null;
}

export function itemsOf(db: Queryable, orderId: string): Promise<StoreOrderItem[]> {
  return preparedRows<StoreOrderItem>(db, `SELECT ${ITEM_COLUMNS} FROM store_order_items WHERE order_id = $1 ORDER BY position`, [orderId]);
}

export function groupsOf(db: Queryable, orderIds: string[]): Promise<FulfilmentGroup[]> {
  return preparedRows<FulfilmentGroup>(db, `SELECT ${GROUP_COLUMNS} FROM fulfilment_groups WHERE order_id = ANY($1) ORDER BY group_key`, [orderIds]);
}

export async function groupOf(db: Queryable, orderId: string, groupKey: string): Promise<FulfilmentGroup | null> {
  const [g] = await preparedRows<FulfilmentGroup>(db, `SELECT ${GROUP_COLUMNS} FROM fulfilment_groups WHERE order_id = $1 AND group_key = $2`, [orderId, groupKey]);
  return g ?? null;
}

// --- A new order

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

/** The order, its items and its parts (each part pending), in one statement. */
export async function insertOrder(tx: Queryable, o: Omit<StoreOrder, 'createdAt' | 'updatedAt' | 'status' | 'needsAttention' | 'paymentAttention' | 'confirmedAt' | 'markedPaidAt'>, items: StoreOrderItem[], groups: Array<Pick<FulfilmentGroup, 'groupKey' | 'connectionId' | 'fulfilledByStore'>>): Promise<void> {
  await affected(
    tx,
    `WITH o AS (
       INSERT INTO store_orders (id, store_id, number, status, payment_method, payment_status, contract_model, currency, total_minor, destination, needs_attention, created_by_account_id, created_by_key_id)
       VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, false, $10, $11) RETURNING id
     ), i AS (
       INSERT INTO store_order_items (id, order_id, position, product_id, variant_id, sku, title, product_title, quantity, unit_price_minor, group_key, supplier_variant_id, link_cost_minor)
       SELECT x.id, o.id, x.position, x."productId", x."variantId", x.sku, x.title, x."productTitle", x.quantity, x."unitPriceMinor", x."groupKey", x."supplierVariantId", x."linkCostMinor"
         FROM o, jsonb_to_recordset($12::jsonb) AS x(id uuid, position int, "productId" uuid, "variantId" uuid, sku text, title text, "productTitle" text, quantity int, "unitPriceMinor" bigint, "groupKey" text, "supplierVariantId" text, "linkCostMinor" bigint)
     )
     INSERT INTO fulfilment_groups (order_id, group_key, connection_id, status, shipment, fulfilled_by_store)
     SELECT o.id, g."groupKey", g."connectionId", 'pending', NULL, g."fulfilledByStore" FROM o, jsonb_to_recordset($13::jsonb) AS g("groupKey" text, "connectionId" uuid, "fulfilledByStore" boolean)`,
    [o.id, o.storeId, o.number, o.paymentMethod, o.paymentStatus, o.contractModel, o.currency, o.totalMinor, JSON.stringify(o.destination), o.createdByAccountId, o.createdByKeyId, JSON.stringify(items), JSON.stringify(groups)],
  );
}

// --- Confirmation and payments

/** Confirms the order and starts its own part (`storeGroup`, if pending), in one statement; true when this call confirmed it. */
export async function confirmOrder(tx: Queryable, orderId: string, storeGroup: string): Promise<boolean> {
  const p = new Params();
  const confirmed = `UPDATE store_orders SET confirmed_at = now() WHERE id = ${p.add(orderId)} AND confirmed_at IS NULL RETURNING id AS order_id, ${p.add(storeGroup)}::text AS group_key`;
  const start = movePart(p, 'o', { kind: 'byStore', status: 'processing', shipment: null, from: ['pending'] });
  return (await preparedRows(tx, `WITH o AS (${confirmed}), ${start} SELECT order_id FROM o`, p.values)).length > 0;
}

export interface PaymentEventRow {
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
  const once = e.source === 'service' ? 'WHERE NOT EXISTS (SELECT 1 FROM payment_events WHERE order_id = $1 AND source = $3 AND kind = $2 AND reference IS NOT DISTINCT FROM $5)' : '';
  return (
    (await affected(
      tx,
      `INSERT INTO payment_events (order_id, kind, source, amount_minor, reference, provider_event_id, actor) SELECT $1::uuid, $2::text, $3::text, $4::bigint, $5::text, $6::text, $7::jsonb ${once}
       ON CONFLICT (order_id, provider_event_id) WHERE provider_event_id IS NOT NULL DO NOTHING`,
      [e.orderId, e.kind, e.source, e.amountMinor ?? null, e.reference ?? null, e.providerEventId ?? null, e.actor ? JSON.stringify(e.actor) : null],
    )) > 0
  );
}

/** The provider's id of the order's latest authorised payment (what a capture takes), or null. */
export async function authorisedReference(db: Queryable, orderId: string): Promise<string | null> {
  const [r] = await rows<{ reference: string }>(db, `SELECT reference FROM payment_events WHERE order_id = $1 AND source = 'provider' AND kind = 'authorised' AND reference IS NOT NULL ORDER BY id DESC LIMIT 1`, [orderId]);
  return r?.reference ?? null;
}

/** The payment history of these orders, oldest first. */
export function paymentEventsOf(db: Queryable, orderIds: string[]): Promise<Array<{ order_id: string; kind: string; source: PaymentEventRow['source']; amount_minor: string | null; reference: string | null; actor: Actor | null; created_at: Date }>> {
  return rows(db, 'SELECT order_id, kind, source, amount_minor, reference, actor, created_at FROM payment_events WHERE order_id = ANY($1) ORDER BY id', [orderIds]);
}

/** True when this call marked the order paid by hand (it was not marked before). */
export async function markPaid(tx: Queryable, orderId: string): Promise<boolean> {
  return (await affected(tx, 'UPDATE store_orders SET marked_paid_at = now(), updated_at = now() WHERE id = $1 AND marked_paid_at IS NULL', [orderId])) > 0;
}

/**
 * The payment status moves (the provider's word), with its `storeOrder.paymentChanged` event, in one statement; with
 * `attention`, the order needs a person (a payment taken back after it was paid).
 */
export async function setPaymentStatus(tx: Queryable, orderId: string, from: PaymentStatus, to: PaymentStatus, e: { reportedAs: string; attention: PaymentAttentionReason | null }): Promise<void> {
  const p = new Params();
  const attention = `${p.add(e.attention)}::text`;
  const update = `UPDATE store_orders SET payment_status = ${p.add(to)}, updated_at = now(), payment_attention = COALESCE(${attention}, payment_attention),
      payment_attention_at = CASE WHEN ${attention} IS NULL THEN payment_attention_at ELSE now() END, needs_attention = needs_attention OR ${attention} IS NOT NULL
    WHERE id = ${p.add(orderId)} RETURNING id, store_id, number, payment_status, needs_attention, payment_attention, payment_attention_at, created_by_key_id`;
  const event = recordEvents({
    from: 'o', type: `'storeOrder.paymentChanged'`, storeId: 'o.store_id', resourceKey: `'storeOrder:' || o.id`, recordKeyId: 'o.created_by_key_id',
    snapshot: `jsonb_build_object('orderId', o.id, 'orderNumber', o.number, 'paymentStatus', o.payment_status, 'previousPaymentStatus', ${p.add(from)}::text,
      'reportedAs', ${p.add(e.reportedAs)}::text, 'needsAttention', o.needs_attention,
      'paymentAttention', CASE WHEN o.payment_attention IS NULL THEN NULL ELSE jsonb_build_object('reason', o.payment_attention, 'since', to_char(o.payment_attention_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END)`,
  });
  await rows(tx, `WITH o AS (${update}), ev AS (${event}) SELECT 1`, p.values);
}

/** The order's payment status, the row held for the rest of the caller's transaction. */
export async function lockPaymentStatus(tx: Queryable, orderId: string): Promise<PaymentStatus> {
  const [order] = await rows<{ payment_status: PaymentStatus }>(tx, 'SELECT payment_status FROM store_orders WHERE id = $1 FOR UPDATE', [orderId]);
  return order.payment_status;
}

// --- Parts

/** What a part's move answers: the part as written, its status before, and its order's store, number and creating key. */
const MOVED = `g.order_id, g.group_key, g.connection_id, g.status, g.shipment, g.fulfilled_by_store, g.updated_at, was.status AS was_status,
  ord.store_id, ord.number AS order_number, ord.created_by_key_id`;

/**
 * The one write of an order part's status (the store order follows its parts by trigger, migration
 * StoreOrderFromParts), with the `orderPart.statusChanged` event of each part whose status it changed. It moves the
 * parts named by the rows of `parts` (a table expression with `order_id` and `group_key`), and is written as two
 * steps of a statement (`part` and `part_event`), so that a caller may run it inside its own: a supplier order's
 * change, its part's move and their events then commit together in one round trip (dispatch's `writeChange`). A part
 * that follows its supplier order is written only when something changes, and never once the store took it over.
 */
export function movePart(p: Params, parts: string, move: PartMove): string {
  const from = `FROM ${parts} x JOIN fulfilment_groups was ON was.order_id = x.order_id AND was.group_key = x.group_key JOIN store_orders ord ON ord.id = x.order_id
               WHERE g.order_id = x.order_id AND g.group_key = x.group_key`;
  let update: string;
  switch (move.kind) {
    case 'follow': {
      const [status, shipment, attention] = [p.add(move.status), p.json(move.shipment), p.add(move.needsAttention)];
      update = `UPDATE fulfilment_groups g SET status = ${status}, shipment = ${shipment}, needs_attention = ${attention}, updated_at = now()
                  ${from} AND NOT g.fulfilled_by_store
                   AND (g.status IS DISTINCT FROM ${status} OR g.shipment IS DISTINCT FROM ${shipment} OR g.needs_attention IS DISTINCT FROM ${attention})`;
      break;
    }
    case 'handToStore':
      update = `UPDATE fulfilment_groups g SET fulfilled_by_store = true, shipment = NULL, needs_attention = false, updated_at = now(),
                       status = CASE WHEN ord.confirmed_at IS NULL THEN 'pending' ELSE 'processing' END
                  ${from}`;
      break;
    case 'byStore':
      update = `UPDATE fulfilment_groups g SET status = ${p.add(move.status)}, shipment = COALESCE(${p.json(move.shipment)}, g.shipment), updated_at = now()
                  ${from} AND g.fulfilled_by_store AND g.status = ANY(${p.add(move.from)}::text[])`;
  }
  const event = recordEvents({
    from: 'part', type: `'orderPart.statusChanged'`, storeId: 'part.store_id', resourceKey: `'orderPart:' || part.order_id || ':' || part.group_key`,
    recordKeyId: 'part.created_by_key_id', snapshot: 'to_jsonb(part)', where: 'part.status IS DISTINCT FROM part.was_status',
  });
  return `part AS (${update} RETURNING ${MOVED}), part_event AS (${event})`;
}

/** `movePart` as a statement of its own, for one part; true when the part moved. */
export async function movePartNow(db: Queryable, orderId: string, groupKey: string, move: PartMove): Promise<boolean> {
  const p = new Params();
  const one = `(SELECT ${p.add(orderId)}::uuid AS order_id, ${p.add(groupKey)}::text AS group_key)`;
  return (await rows(db, `WITH ${movePart(p, one, move)} SELECT order_id FROM part`, p.values)).length > 0;
}

/** Part rows as `movePart` wrote them into events, with their items, for the events' data (the part as the API shows it). */
export async function partsWithItems(db: Queryable, parts: Array<{ order_id: string; group_key: string }>): Promise<Map<string, string[]>> {
  const found = await rows<{ order_id: string; group_key: string; items: string[] }>(
    db,
    `SELECT x.order_id, x.group_key, coalesce(array_agg(i.id ORDER BY i.position) FILTER (WHERE i.id IS NOT NULL), '{}') AS items
       FROM unnest($1::uuid[], $2::text[]) AS x(order_id, group_key) LEFT JOIN store_order_items i ON i.order_id = x.order_id AND i.group_key = x.group_key
      GROUP BY x.order_id, x.group_key`,
    [parts.map((t) => t.order_id), parts.map((t) => t.group_key)],
  );
  return new Map(found.map((r) => [`${r.order_id}:${r.group_key}`, r.items]));
}

// --- The list

export interface OrderListRow extends OrderRow {
  parts: Array<{ groupKey: string; connectionId: string | null; status: FulfilmentGroup['status']; fulfilledByStore: boolean; shipment: FulfilmentGroup['shipment'] }>;
  attention: number;
}

/** The store order list: each order with its parts and how many of them need attention; `customer`: in the delivery name or e-mail. */
export function orderList(f: { storeId: string; ownKeyId: string | null; needsAttention?: boolean; status?: string; customer?: string }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  if (f.needsAttention !== undefined) filters.push({ column: 'needs_attention', countColumn: 'needs_attention', value: f.needsAttention });
  if (f.status) filters.push({ column: 'status', countColumn: 'status', value: f.status });
  if (f.customer) filters.push({ column: "destination->>'name'", orColumns: ["destination->>'email'"], op: 'contains', value: f.customer });
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
