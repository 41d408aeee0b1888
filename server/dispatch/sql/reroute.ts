import { rows, type Queryable } from '../../platform/db';

// The dispatch domain's data module (this folder), this file: what a reroute reads of the part's items and their
// alternates (the orders' items, the catalogue's alternates and links), in one statement. Nothing else is written here.

export interface AlternateOfItem {
  itemId: string;
  sku: string;
  quantity: number;
  /** The item's cost recorded when the order was taken, and its currency: each hop's ceiling starts from it. */
  recordedCostMinor: number | null;
  recordedCurrency: string | null;
  position: number;
  connectionId: string;
  supplierProductId: string;
  supplierVariantId: string;
}

/** Each item of the part with each of its alternates, by position. */
export function alternatesOfPart(db: Queryable, so: { storeId: string; orderId: string; groupKey: string }): Promise<AlternateOfItem[]> {
  return rows<AlternateOfItem>(
    db,
    `SELECT i.id AS "itemId", i.sku, i.quantity, coalesce(i.recorded_cost_minor, i.link_cost_minor)::float8 AS "recordedCostMinor",
            coalesce(i.recorded_currency, lv.currency) AS "recordedCurrency", a.position,
            a.connection_id AS "connectionId", a.supplier_product_id AS "supplierProductId", a.supplier_variant_id AS "supplierVariantId"
       FROM store_order_items i
       JOIN product_link_alternates a ON a.store_id = i.store_id AND a.store_variant_id = i.variant_id
       LEFT JOIN product_link_variants lv ON lv.store_id = i.store_id AND lv.store_variant_id = i.variant_id
      WHERE i.store_id = $1 AND i.order_id = $2 AND i.group_key = $3
      ORDER BY a.position, i.position`,
    [so.storeId, so.orderId, so.groupKey],
  );
}
