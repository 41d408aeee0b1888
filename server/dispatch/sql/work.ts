import { type ConnectionRow, connectionOf } from '../../connections';
import type { PaymentMethod, PaymentStatus } from '../../orders';
import { preparedRows, type Queryable } from '../../platform/db';
import type { Work, WorkAlternate, WorkItem } from '../work';
import { OF_S, supplierOrderOf, type SupplierOrderRow } from './rows';

// What a dispatch step reads. `workOfMany` reads, in one statement for one step, the connection (the connections
// domain's row, mapped by it), the store order's payment and the part's items (orders'), and the links of those items
// (the catalogue's).

/**
 * Everything a dispatch step reads, in one statement for some records of one store: each record, its connection (as
 * the connections domain maps it), the store order's payment, and the part's items with the supplier product each is
 * linked to now. By the store (equality), so that under Citus it runs on the store's shard.
 */
export async function workOfMany(db: Queryable, storeId: string, ids: string[]): Promise<Work[]> {
  const found = await preparedRows<
    SupplierOrderRow & {
      connection: ConnectionRow;
      order_payment_method: PaymentMethod;
      order_payment_status: PaymentStatus;
      order_confirmed: boolean;
      store_currency: string;
      store_routing: Work['storeRouting'];
      items: WorkItem[];
      alternates: WorkAlternate[] | null;
      connections: ConnectionRow[] | null;
    }
  >(
    db,
    `SELECT ${OF_S}, to_jsonb(c.*) AS connection, trim(st.currency) AS store_currency, (SELECT r.routing FROM store_supplier_routing r WHERE r.store_id = s.store_id) AS store_routing, o.payment_method AS order_payment_method, o.payment_status AS order_payment_status, o.confirmed_at IS NOT NULL AS order_confirmed,
            COALESCE((SELECT json_agg(json_build_object('id', i.id, 'sku', i.sku, 'quantity', i.quantity, 'supplierVariantId', i.supplier_variant_id,
                                                        'linkCostMinor', i.link_cost_minor, 'linkCurrency', coalesce(i.link_currency, i.recorded_currency, lv.currency),
                                                        'recordedCostMinor', coalesce(i.recorded_cost_minor, i.link_cost_minor), 'recordedCurrency', coalesce(i.recorded_currency, lv.currency),
                                                        -- A rerouted item is ordered from its alternate's product (looked up only then).
                                                        'supplierProductId', CASE WHEN l.connection_id = s.connection_id THEN l.supplier_product_id ELSE
                                                          (SELECT a.supplier_product_id FROM product_link_alternates a WHERE a.store_id = s.store_id AND a.store_variant_id = i.variant_id
                                                              AND a.connection_id = s.connection_id AND a.supplier_variant_id = i.supplier_variant_id LIMIT 1) END,
                                                        'linkConnectionId', l.connection_id, 'linkProductId', l.supplier_product_id, 'linkVariantId', lv.supplier_variant_id,
                                                        'linkRouting', to_jsonb(l) -> 'routing',
                                                        'hasAlternates', EXISTS (SELECT 1 FROM product_link_alternates a WHERE a.store_id = s.store_id AND a.store_variant_id = i.variant_id),
                                                        -- Through the row's JSON: read before its migration added the columns too (docs/scaling.md).
                                                        'maxBuyPrice', CASE WHEN to_jsonb(lv) ->> 'max_buy_price_minor' IS NULL THEN NULL
                                                                            ELSE json_build_object('amountMinor', (to_jsonb(lv) ->> 'max_buy_price_minor')::bigint, 'currency', coalesce(to_jsonb(lv) ->> 'max_buy_price_currency', lv.currency)) END) ORDER BY i.position)
                        FROM store_order_items i
                        LEFT JOIN product_link_variants lv ON lv.store_id = s.store_id AND lv.store_variant_id = i.variant_id
                        LEFT JOIN product_links l ON l.store_id = s.store_id AND l.id = lv.link_id
                       WHERE i.store_id = s.store_id AND i.order_id = s.order_id AND i.group_key = s.group_key), '[]') AS items,
            ra.alternates, ra.connections
       FROM supplier_orders s JOIN supplier_connections c ON c.id = s.connection_id AND c.store_id = s.store_id JOIN store_orders o ON o.id = s.order_id AND o.store_id = s.store_id
       JOIN stores st ON st.id = s.store_id
       -- Sourcing's candidates (../sourcing/), read only for a part that may be routed (never routed nor sent, a rule
       -- other than primary set by a link of its items or the store) or whose reroute is asked: its items' alternates,
       -- and the connections of those and of the items' links, other than its own.
       LEFT JOIN LATERAL (
         SELECT (SELECT json_agg(json_build_object('itemId', i.id, 'position', a.position, 'connectionId', a.connection_id, 'supplierProductId', a.supplier_product_id,
                                                   'supplierVariantId', a.supplier_variant_id) ORDER BY a.position, i.position)
                   FROM store_order_items i JOIN product_link_alternates a ON a.store_id = i.store_id AND a.store_variant_id = i.variant_id
                  WHERE i.store_id = s.store_id AND i.order_id = s.order_id AND i.group_key = s.group_key) AS alternates,
                (SELECT json_agg(to_jsonb(ac.*)) FROM supplier_connections ac
                  WHERE ac.store_id = s.store_id AND ac.id <> s.connection_id
                    AND ac.id IN (SELECT a.connection_id FROM store_order_items i JOIN product_link_alternates a ON a.store_id = i.store_id AND a.store_variant_id = i.variant_id
                                   WHERE i.store_id = s.store_id AND i.order_id = s.order_id AND i.group_key = s.group_key
                                  UNION SELECT l.connection_id FROM store_order_items i JOIN product_link_variants lv ON lv.store_id = i.store_id AND lv.store_variant_id = i.variant_id
                                   JOIN product_links l ON l.store_id = i.store_id AND l.id = lv.link_id
                                   WHERE i.store_id = s.store_id AND i.order_id = s.order_id AND i.group_key = s.group_key)) AS connections
          WHERE s.reroute_request IS NOT NULL
             OR (s.status = 'queued' AND s.routing IS NULL AND s.attempt = 1
                 AND (coalesce((SELECT r.routing ->> 'rule' FROM store_supplier_routing r WHERE r.store_id = s.store_id), 'primary') <> 'primary'
                      OR EXISTS (SELECT 1 FROM store_order_items i JOIN product_link_variants lv ON lv.store_id = i.store_id AND lv.store_variant_id = i.variant_id
                                   JOIN product_links l ON l.store_id = i.store_id AND l.id = lv.link_id
                                  WHERE i.store_id = s.store_id AND i.order_id = s.order_id AND i.group_key = s.group_key
                                    AND coalesce(to_jsonb(l) -> 'routing' ->> 'rule', 'primary') <> 'primary'
                                 -- OFFSET 0: looked up per part through the items' index. Without it Postgres hashes this EXISTS once over
                                 -- every item of the store, each with its link (3 s a read for a store of 10,000 parts: docs/benchmarks.md).
                                 OFFSET 0)))
       ) ra ON true
      WHERE s.store_id = $1 AND s.id = ANY($2::uuid[])`,
    [storeId, ids],
  );
  return found.map((r) => ({
    so: supplierOrderOf(r),
    conn: connectionOf(r.connection),
    order: { paymentMethod: r.order_payment_method, paymentStatus: r.order_payment_status, confirmed: r.order_confirmed },
    items: r.items.map((i) => ({
      ...i,
      linkCostMinor: numberOrNull(i.linkCostMinor),
      recordedCostMinor: numberOrNull(i.recordedCostMinor),
      maxBuyPrice: i.maxBuyPrice ? { amountMinor: Number(i.maxBuyPrice.amountMinor), currency: i.maxBuyPrice.currency } : null,
    })),
    storeCurrency: r.store_currency,
    storeRouting: r.store_routing,
    alternates: r.alternates ?? [],
    connections: (r.connections ?? []).map(connectionOf),
  }));
}

const numberOrNull = (v: number | string | null) => (v === null ? null : Number(v));
