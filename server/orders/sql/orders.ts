import { affected, preparedRows, type Queryable, rows } from '../../platform/db';
import { type KeysetListStatement, storeScope } from '../../platform/pagination';
import type { Destination, OrderPart, PaymentAttentionReason, StoreOrder, StoreOrderItem } from '../types';

// The orders domain's data module (this folder): every statement on its tables (store orders, their items and parts,
// payment events), rows turned into its types by the mappers below. This file: orders, items, parts read, the list.
// A new order reads the catalogue's links of its variants (and their connections) in one statement; it writes none.

interface OrderRow {
  id: string;
  store_id: string;
  number: string;
  status: StoreOrder['status'];
  payment_method: StoreOrder['paymentMethod'];
  payment_status: StoreOrder['paymentStatus'];
  contract_model: StoreOrder['contractModel'];
  currency: string;
  total_minor: string;
  refunded_minor: string;
  destination: Destination;
  needs_attention: boolean;
  payment_attention: PaymentAttentionReason | null;
  payment_attention_at: Date | null;
  confirmed_at: Date | null;
  marked_paid_at: Date | null;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const storeOrderOf = (r: OrderRow): StoreOrder => ({
  id: r.id,
  storeId: r.store_id,
  number: r.number,
  status: r.status,
  paymentMethod: r.payment_method,
  paymentStatus: r.payment_status,
  refundedMinor: Number(r.refunded_minor),
  contractModel: r.contract_model,
  currency: r.currency,
  totalMinor: Number(r.total_minor),
  destination: r.destination,
  needsAttention: r.needs_attention,
  paymentAttention: r.payment_attention ? { reason: r.payment_attention, since: r.payment_attention_at! } : null,
  confirmedAt: r.confirmed_at,
  markedPaidAt: r.marked_paid_at,
  createdByAccountId: r.created_by_account_id,
  createdByKeyId: r.created_by_key_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * A store order's columns, named: its reads are prepared (a prepared result may not change with the table). Issue 53's
 * column through the row's JSON: this release answers while its migration waits for the previous release to stop.
 */
const ORDER_COLUMNS = `id, store_id, number, status, payment_method, payment_status, contract_model, currency, total_minor,
  COALESCE((to_jsonb(o) ->> 'refunded_minor')::bigint, 0) AS refunded_minor, destination, needs_attention,
  payment_attention, payment_attention_at, confirmed_at, marked_paid_at, created_by_account_id, created_by_key_id, created_at, updated_at`;
// The column group_key is the code's partKey (the glossary in docs/architecture.md).
const ITEM_COLUMNS = `id, order_id AS "orderId", position, product_id AS "productId", variant_id AS "variantId", sku, title, product_title AS "productTitle", quantity,
  unit_price_minor::float8 AS "unitPriceMinor", group_key AS "partKey", supplier_variant_id AS "supplierVariantId", link_cost_minor::float8 AS "linkCostMinor"`;
const PART_COLUMNS = `order_id AS "orderId", group_key AS "partKey", connection_id AS "connectionId", status, shipment,
  fulfilled_by_store AS "fulfilledByStore", needs_attention AS "needsAttention", updated_at AS "updatedAt"`;

// --- Reads

export async function orderInStore(db: Queryable, storeId: string, id: string): Promise<StoreOrder | null> {
  const [r] = await preparedRows<OrderRow>(db, `SELECT ${ORDER_COLUMNS} FROM store_orders o WHERE o.id = $1 AND o.store_id = $2`, [id, storeId]);
  return r ? storeOrderOf(r) : null;
}

export function itemsOf(db: Queryable, storeId: string, orderId: string): Promise<StoreOrderItem[]> {
  return preparedRows<StoreOrderItem>(db, `SELECT ${ITEM_COLUMNS} FROM store_order_items WHERE store_id = $1 AND order_id = $2 ORDER BY position`, [
    storeId,
    orderId,
  ]);
}

export function partsOf(db: Queryable, storeId: string, orderIds: string[]): Promise<OrderPart[]> {
  return preparedRows<OrderPart>(db, `SELECT ${PART_COLUMNS} FROM fulfilment_groups WHERE store_id = $1 AND order_id = ANY($2) ORDER BY group_key`, [
    storeId,
    orderIds,
  ]);
}

export async function partOf(db: Queryable, storeId: string, orderId: string, partKey: string): Promise<OrderPart | null> {
  const [g] = await preparedRows<OrderPart>(db, `SELECT ${PART_COLUMNS} FROM fulfilment_groups WHERE store_id = $1 AND order_id = $2 AND group_key = $3`, [
    storeId,
    orderId,
    partKey,
  ]);
  return g ?? null;
}

// --- A new order

/** The links of these store variants through live connections (each table pinned to the store). */
export function liveLinksOfVariants(
  tx: Queryable,
  storeId: string,
  variantIds: string[],
): Promise<Array<{ store_variant_id: string; connection_id: string; supplier_variant_id: string; cost_minor: string; currency: string }>> {
  return rows(
    tx,
    `SELECT lv.store_variant_id, l.connection_id, lv.supplier_variant_id, lv.cost_minor, lv.currency
       FROM product_link_variants lv JOIN product_links l ON l.store_id = $1 AND l.id = lv.link_id
       JOIN supplier_connections c ON c.store_id = $1 AND c.id = l.connection_id AND c.disconnected_at IS NULL
      WHERE lv.store_id = $1 AND lv.store_variant_id = ANY($2)`,
    [storeId, variantIds],
  );
}

/** The order, its items and its parts (each part pending), in one statement. */
export async function insertOrder(
  tx: Queryable,
  o: Omit<StoreOrder, 'createdAt' | 'updatedAt' | 'status' | 'needsAttention' | 'paymentAttention' | 'confirmedAt' | 'markedPaidAt' | 'refundedMinor'>,
  items: Array<StoreOrderItem & { linkCurrency: string | null }>,
  parts: Array<Pick<OrderPart, 'partKey' | 'connectionId' | 'fulfilledByStore'>>,
): Promise<void> {
  await affected(
    tx,
    `WITH o AS (
       INSERT INTO store_orders (id, store_id, number, status, payment_method, payment_status, contract_model, currency, total_minor, destination, needs_attention, created_by_account_id, created_by_key_id)
       VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9, false, $10, $11) RETURNING id
     ), i AS (
       INSERT INTO store_order_items (id, store_id, order_id, position, product_id, variant_id, sku, title, product_title, quantity, unit_price_minor, group_key, supplier_variant_id, link_cost_minor, recorded_cost_minor, recorded_currency)
       SELECT x.id, $2::uuid, o.id, x.position, x."productId", x."variantId", x.sku, x.title, x."productTitle", x.quantity, x."unitPriceMinor", x."partKey", x."supplierVariantId", x."linkCostMinor", x."linkCostMinor", x."linkCurrency"
         FROM o, jsonb_to_recordset($12::jsonb) AS x(id uuid, position int, "productId" uuid, "variantId" uuid, sku text, title text, "productTitle" text, quantity int, "unitPriceMinor" bigint, "partKey" text, "supplierVariantId" text, "linkCostMinor" bigint, "linkCurrency" text)
     )
     INSERT INTO fulfilment_groups (store_id, order_id, group_key, connection_id, status, shipment, fulfilled_by_store)
     SELECT $2::uuid, o.id, g."partKey", g."connectionId", 'pending', NULL, g."fulfilledByStore" FROM o, jsonb_to_recordset($13::jsonb) AS g("partKey" text, "connectionId" uuid, "fulfilledByStore" boolean)`,
    [
      o.id,
      o.storeId,
      o.number,
      o.paymentMethod,
      o.paymentStatus,
      o.contractModel,
      o.currency,
      o.totalMinor,
      JSON.stringify(o.destination),
      o.createdByAccountId,
      o.createdByKeyId,
      JSON.stringify(items),
      JSON.stringify(parts),
    ],
  );
}

export interface OrderListRow extends OrderRow {
  parts: Array<{
    partKey: string;
    connectionId: string | null;
    status: OrderPart['status'];
    fulfilledByStore: boolean;
    shipment: OrderPart['shipment'];
  }>;
  attention: number;
}

/** The store order list: each order with its parts and how many of them need attention; `customer`: in the delivery name or e-mail. */
export function orderList(f: { storeId: string; ownKeyId: string | null; needsAttention?: boolean; status?: string; customer?: string }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  if (f.needsAttention !== undefined) filters.push({ column: 'needs_attention', countColumn: 'needs_attention', value: f.needsAttention });
  if (f.status) filters.push({ column: 'status', countColumn: 'status', value: f.status });
  if (f.customer) filters.push({ column: "destination->>'name'", orColumns: ["destination->>'email'"], op: 'contains', value: f.customer });
  return {
    list: 'storeOrders',
    binding: f,
    table: 'store_orders',
    alias: 'o',
    filters,
    // attention: the order's parts waiting for review or failed; parts' group_key is read as partKey.
    columns: `o.*,
      (SELECT coalesce(json_agg(json_build_object('partKey', g.group_key, 'connectionId', g.connection_id, 'status', g.status,
                                  'fulfilledByStore', g.fulfilled_by_store, 'shipment', g.shipment) ORDER BY g.group_key), '[]')
         FROM fulfilment_groups g WHERE g.store_id = o.store_id AND g.order_id = o.id) AS parts,
      (SELECT count(*)::int FROM fulfilment_groups g WHERE g.store_id = o.store_id AND g.order_id = o.id AND g.needs_attention) AS attention`,
    counts: { table: 'store_order_counts', sum: 'n' },
  };
}
