import { outboxStep } from '../../events';
import type { Params } from '../../platform/db';
import type { Piece } from '../../platform/statement';

/**
 * The `storeOrder.profitChanged` event for each row of `moved` (store_id, order_id, data), as a piece of the caller's
 * statement; recorded for the store order's creating key, as its other events are.
 */
export function profitChangedPieces(p: Params, storeId: string, moved: string): Piece[] {
  const store = p.add(storeId);
  return [{
    name: 'profit_event', gives: ['*'], reads: { [moved]: ['store_id', 'order_id', 'data'] },
    sql: outboxStep({
      from: `${moved} m JOIN store_orders o ON o.store_id = ${store}::uuid AND o.id = m.order_id`, type: `'storeOrder.profitChanged'`, storeId: 'm.store_id',
      resourceKey: `'storeOrder:' || m.order_id`, recordKeyId: 'o.created_by_key_id', snapshot: 'm.data',
    }),
  }];
}

/** The groupings the profit report keeps sums by; each part counts once in each (a day's row also takes the fees). */
const GROUPINGS = `(VALUES ('day', x.day::text, x.day::text), ('product', x.product_key, x.product_label), ('connection', x.connection_id::text, ''))`;

/**
 * The profit report's kept sums (profit_sums) for each part of `moved` whose latest landed cost stage this statement
 * recorded (docs/decisions.md, "The profit report"): on its first stage the part enters with its revenue and counts
 * incomplete; a later stage replaces the previous stage's cost (the difference) and, once the supplier accepted, the
 * part is complete. A part priced in another currency than the store's enters with no amounts and stays incomplete.
 * Each order counts once per key (profit_order_keys). The day is the store order's (UTC); a part's product is the
 * first of its items' products.
 */
export function profitSumPieces(p: Params, storeId: string, moved: string): Piece[] {
  const store = p.add(storeId);
  const part: Piece = {
    name: 'ps_part', gives: ['store_id', 'order_id', 'day', 'product_key', 'product_label', 'connection_id', 'first', 'revenue_minor', 'landed_minor', 'incomplete'],
    reads: { [moved]: ['store_id', 'order_id', 'group_key', 'connection_id', 'stage', 'landed_minor', 'store_currency', 'previous_stage', 'previous_landed_minor'] },
    sql: `SELECT m.store_id, m.order_id, (o.created_at AT TIME ZONE 'UTC')::date AS day, it.product_key, it.product_label, m.connection_id, m.previous_stage IS NULL AS first,
                 CASE WHEN m.previous_stage IS NULL AND c.same THEN it.revenue_minor ELSE 0 END AS revenue_minor,
                 CASE WHEN c.same THEN m.landed_minor - coalesce(m.previous_landed_minor, 0) ELSE 0 END AS landed_minor,
                 CASE WHEN m.previous_stage IS NULL THEN (CASE WHEN NOT c.same OR m.stage = 'confirmation' THEN 1 ELSE 0 END)
                      WHEN c.same AND m.previous_stage = 'confirmation' AND m.stage <> 'confirmation' THEN -1 ELSE 0 END AS incomplete
            FROM ${moved} m JOIN store_orders o ON o.store_id = ${store}::uuid AND o.id = m.order_id
            CROSS JOIN LATERAL (SELECT trim(o.currency) = m.store_currency AS same) c
            CROSS JOIN LATERAL (SELECT min(i.product_id::text) AS product_key, (array_agg(coalesce(i.product_title, i.title) ORDER BY i.product_id))[1] AS product_label,
                                       coalesce(sum(i.unit_price_minor * i.quantity), 0) AS revenue_minor
                                  FROM store_order_items i WHERE i.store_id = ${store}::uuid AND i.order_id = m.order_id AND i.group_key = m.group_key) it`,
  };
  const keys: Piece = {
    name: 'ps_keys', gives: ['order_id', 'grouping', 'key'], reads: { ps_part: ['store_id', 'order_id', 'day', 'product_key', 'product_label', 'connection_id', 'first'] },
    sql: `INSERT INTO profit_order_keys (store_id, order_id, grouping, key)
          SELECT DISTINCT x.store_id, x.order_id, g.grouping, g.key FROM ps_part x CROSS JOIN LATERAL ${GROUPINGS} AS g(grouping, key, label)
           WHERE x.first AND g.key IS NOT NULL
          ON CONFLICT DO NOTHING RETURNING order_id, grouping, key`,
  };
  const sums: Piece = {
    name: 'ps_sums', gives: ['*'], reads: { ps_part: ['store_id', 'order_id', 'day', 'product_key', 'product_label', 'connection_id', 'first', 'revenue_minor', 'landed_minor', 'incomplete'], ps_keys: ['order_id', 'grouping', 'key'] },
    sql: `INSERT INTO profit_sums AS s (store_id, grouping, key, day, label, orders, parts, revenue_minor, landed_cost_minor, incomplete_parts)
          SELECT x.store_id, g.grouping, g.key, x.day, coalesce(max(g.label), ''),
                 count(DISTINCT x.order_id) FILTER (WHERE EXISTS (SELECT 1 FROM ps_keys k WHERE k.order_id = x.order_id AND k.grouping = g.grouping AND k.key = g.key)),
                 count(*) FILTER (WHERE x.first), sum(x.revenue_minor), sum(x.landed_minor), sum(x.incomplete)
            FROM ps_part x CROSS JOIN LATERAL ${GROUPINGS} AS g(grouping, key, label)
           WHERE g.key IS NOT NULL
           GROUP BY x.store_id, g.grouping, g.key, x.day
          ON CONFLICT (store_id, grouping, key, day) DO UPDATE SET orders = s.orders + EXCLUDED.orders, parts = s.parts + EXCLUDED.parts,
             revenue_minor = s.revenue_minor + EXCLUDED.revenue_minor, landed_cost_minor = s.landed_cost_minor + EXCLUDED.landed_cost_minor,
             incomplete_parts = s.incomplete_parts + EXCLUDED.incomplete_parts, label = CASE WHEN EXCLUDED.label <> '' THEN EXCLUDED.label ELSE s.label END
          RETURNING s.store_id`,
  };
  return [part, keys, sums];
}
