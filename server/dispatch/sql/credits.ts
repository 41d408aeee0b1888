import { type Params, type Queryable, rows } from '../../platform/db';
import type { Piece } from '../../platform/statement';

// Supplier credits (docs/decisions.md, "Supplier credits"): money a supplier gave back on a part, recorded once per
// cause; one that counts comes off the part's landed cost (the orders domain writes that into the report's sums).

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
 * Records the credit (nothing when its cause was recorded before). It counts when the part is live (not cancelled: a
 * cancelled part's cost already left the sums), has a landed cost (it entered the sums) and its order is in the store's
 * currency (else its amounts are not summed): then the caller has the orders domain take it off the part's landed cost
 * in the sums, in the same transaction. Answers the part it counts for, or null.
 */
export async function recordCredit(
  tx: Queryable,
  c: NewCredit,
): Promise<{ orderId: string; partKey: string; connectionId: string; amountMinor: number } | null> {
  const s = c.storeAmount;
  const [r] = await rows<{ order_id: string; group_key: string; connection_id: string; store_amount_minor: string; counted: boolean }>(
    tx,
    `WITH part AS (
       SELECT s.id, s.order_id, s.group_key, s.connection_id,
              $9::bigint IS NOT NULL AND s.status <> 'cancelled' AND trim(o.currency) = $8
                AND EXISTS (SELECT 1 FROM landed_costs l WHERE l.store_id = s.store_id AND l.supplier_order_id = s.id) AS counts
         FROM supplier_orders s JOIN store_orders o ON o.store_id = s.store_id AND o.id = s.order_id
        WHERE s.store_id = $1 AND s.id = $3)
     INSERT INTO supplier_credits (store_id, id, supplier_order_id, order_id, kind, source_key, amount_minor, currency, store_currency, store_amount_minor, rate, rate_source, rate_as_of, counted)
     SELECT $1, $2, part.id, part.order_id, $4, $5, $6, $7, $8, $9, $10, $11, $12::date, part.counts FROM part
     ON CONFLICT (store_id, kind, source_key) DO NOTHING
     RETURNING order_id, (SELECT group_key FROM part) AS group_key, (SELECT connection_id FROM part) AS connection_id, store_amount_minor, counted`,
    [
      c.storeId,
      c.id,
      c.supplierOrderId,
      c.kind,
      c.sourceKey,
      c.amount.amountMinor,
      c.amount.currency,
      c.storeCurrency,
      s?.amountMinor ?? null,
      s?.rate ?? null,
      s?.rateSource ?? null,
      s?.rateAsOf ?? null,
    ],
  );
  if (!r || !r.counted) return null;
  return { orderId: r.order_id, partKey: r.group_key /* the column's name */, connectionId: r.connection_id, amountMinor: Number(r.store_amount_minor) };
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
    name: 'credit_cancel',
    gives: ['*'],
    reads: { so: ['store_id', 'id', 'order_id', 'costs', 'payment_status'] },
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
