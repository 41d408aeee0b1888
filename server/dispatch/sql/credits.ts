import { type Params, type Queryable, rows } from '../../platform/db';
import type { Piece } from '../../platform/statement';

// Supplier credits (docs/decisions.md, "Supplier credits"): one statement records a credit and, when it counts, the
// delta that takes it off the part's landed cost in the profit report's sums (server/orders/sql/profit.ts folds it).

export interface NewCredit {
  storeId: string;
  id: string;
  supplierOrderId: string;
  kind: 'claimRefund' | 'cancelRefund';
  /** What the credit is for, once: the claim's id, or the supplier order's for a cancel. */
  sourceKey: string;
  amount: { amountMinor: number; currency: string };
  /** In the store's currency at the recorded rate; null when no rate was usable (then it counts nowhere). */
  storeAmount: { amountMinor: number; currency: string; rate: string; rateSource: string; rateAsOf: string } | null;
  storeCurrency: string;
}

/**
 * Records the credit (nothing when its cause was recorded before) and, in the same statement, the delta: landed cost
 * less the credit, the credit as its own figure, under the part's day, product and connection as its landed cost was.
 * It counts when the part is live (not cancelled: a cancelled part's cost already left the sums), has a landed cost
 * (it entered the sums) and its order is in the store's currency (else its amounts are not summed). Answers whether it
 * was recorded and whether it counted.
 */
export async function recordCredit(tx: Queryable, c: NewCredit): Promise<{ recorded: boolean; counted: boolean }> {
  const s = c.storeAmount;
  const [r] = await rows<{ recorded: number; counted: number }>(
    tx,
    `WITH part AS (
       SELECT s.store_id, s.id, s.order_id, s.connection_id, s.group_key, (o.created_at AT TIME ZONE 'UTC')::date AS day,
              $9::bigint IS NOT NULL AND s.status <> 'cancelled' AND trim(o.currency) = $8
                AND EXISTS (SELECT 1 FROM landed_costs l WHERE l.store_id = s.store_id AND l.supplier_order_id = s.id) AS counts
         FROM supplier_orders s JOIN store_orders o ON o.store_id = s.store_id AND o.id = s.order_id
        WHERE s.store_id = $1 AND s.id = $3),
     c AS (
       INSERT INTO supplier_credits (store_id, id, supplier_order_id, order_id, kind, source_key, amount_minor, currency, store_currency, store_amount_minor, rate, rate_source, rate_as_of, counted)
       SELECT $1, $2, part.id, part.order_id, $4, $5, $6, $7, $8, $9, $10, $11, $12::date, part.counts FROM part
       ON CONFLICT (store_id, kind, source_key) DO NOTHING RETURNING store_id, counted, store_amount_minor),
     d AS (
       INSERT INTO profit_deltas (store_id, order_id, day, product_key, product_label, connection_id, landed_cost_minor, supplier_credit_minor)
       SELECT part.store_id, part.order_id, part.day, it.product_key, it.product_label, part.connection_id, -c.store_amount_minor, c.store_amount_minor
         FROM c JOIN part ON true
         CROSS JOIN LATERAL (SELECT min(i.product_id::text) AS product_key, (array_agg(coalesce(i.product_title, i.title) ORDER BY i.product_id))[1] AS product_label
                               FROM store_order_items i WHERE i.store_id = part.store_id AND i.order_id = part.order_id AND i.group_key = part.group_key) it
        WHERE c.counted
       RETURNING 1)
     SELECT (SELECT count(*) FROM c)::int AS recorded, (SELECT count(*) FROM d)::int AS counted`,
    [c.storeId, c.id, c.supplierOrderId, c.kind, c.sourceKey, c.amount.amountMinor, c.amount.currency, c.storeCurrency, s?.amountMinor ?? null, s?.rate ?? null, s?.rateSource ?? null, s?.rateAsOf ?? null],
  );
  return { recorded: r.recorded > 0, counted: r.counted > 0 };
}

/**
 * A cancel the supplier refunded (its payment went paid → refunded with this change): a credit of the order's total in
 * its currency, and in the store's at the rate its latest landed cost was converted at (its rate, source and day; the
 * store's amount in the same proportion). The part is cancelled, so its cost already left the sums: it is kept for
 * the books and counts nowhere. A piece of the change's one statement (./write.ts).
 */
export function cancelRefundPiece(p: Params, storeId: string): Piece {
  const store = p.add(storeId);
  return {
    name: 'credit_cancel', gives: ['*'], reads: { so: ['store_id', 'id', 'order_id', 'costs', 'payment_status'] },
    sql: `INSERT INTO supplier_credits (store_id, id, supplier_order_id, order_id, kind, source_key, amount_minor, currency, store_currency, store_amount_minor, rate, rate_source, rate_as_of, counted)
          SELECT so.store_id, gen_random_uuid(), so.id, so.order_id, 'cancelRefund', so.id::text, (so.costs ->> 'totalMinor')::bigint, so.costs ->> 'currency',
                 coalesce(l.store_currency, (SELECT trim(st.currency) FROM stores st WHERE st.id = ${store}::uuid)),
                 CASE WHEN l.total_minor > 0 THEN round((so.costs ->> 'totalMinor')::numeric * l.store_total_minor / l.total_minor) END,
                 l.rate, l.rate_source, l.rate_as_of, false
            FROM so LEFT JOIN LATERAL (SELECT t.store_currency, t.total_minor, t.store_total_minor, t.rate, t.rate_source, t.rate_as_of FROM landed_costs t WHERE t.store_id = so.store_id AND t.supplier_order_id = so.id AND t.currency = so.costs ->> 'currency'
                                        ORDER BY array_position(ARRAY['confirmation', 'accepted', 'paid'], t.stage) DESC LIMIT 1) l ON true
           WHERE so.payment_status = 'refunded' AND so.costs IS NOT NULL
          ON CONFLICT (store_id, kind, source_key) DO NOTHING RETURNING 1`,
  };
}
