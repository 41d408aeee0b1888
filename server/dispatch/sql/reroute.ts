import { rows, type Queryable } from '../../platform/db';

// The dispatch domain's data module (this folder), this file: which connections a person may reroute a part to (the
// orders' items, the catalogue's alternates and links), in one statement. Nothing else is written here.

/** The connections the part's items name: each item's alternates' and its link's own. */
export async function connectionsOfPart(db: Queryable, so: { storeId: string; orderId: string; partKey: string }): Promise<string[]> {
  const found = await rows<{ id: string }>(
    db,
    `SELECT a.connection_id AS id FROM store_order_items i JOIN product_link_alternates a ON a.store_id = i.store_id AND a.store_variant_id = i.variant_id
      WHERE i.store_id = $1 AND i.order_id = $2 AND i.group_key = $3
     UNION SELECT l.connection_id FROM store_order_items i JOIN product_link_variants lv ON lv.store_id = i.store_id AND lv.store_variant_id = i.variant_id
       JOIN product_links l ON l.store_id = i.store_id AND l.id = lv.link_id
      WHERE i.store_id = $1 AND i.order_id = $2 AND i.group_key = $3`,
    [so.storeId, so.orderId, so.partKey],
  );
  return found.map((r) => r.id);
}
