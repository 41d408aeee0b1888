import { preparedRows, type Queryable } from '../../platform/db';

// The profit report's reads: the kept sums (profit_sums, written by ./profit.ts and ./payments.ts), never the orders.

export type ProfitGroupBy = 'day' | 'product' | 'connection';

export interface ProfitSumRow {
  key: string;
  label: string;
  orders: string;
  parts: string;
  revenue_minor: string;
  landed_cost_minor: string;
  payment_fee_minor: string;
  incomplete_parts: string;
}

const SUMS = `coalesce(sum(s.orders), 0) AS orders, coalesce(sum(s.parts), 0) AS parts, coalesce(sum(s.revenue_minor), 0) AS revenue_minor,
              coalesce(sum(s.landed_cost_minor), 0) AS landed_cost_minor, coalesce(sum(s.payment_fee_minor), 0) AS payment_fee_minor, coalesce(sum(s.incomplete_parts), 0) AS incomplete_parts`;

/**
 * One statement: the store's currency, the totals over the range (the day rows: each order and fee counted once), how
 * many keys the range holds, and one page of keys after (or, `before`, before) `after` in key order, `limit` of them.
 * A connection's label is read for the page's rows only (supplier and mode).
 */
export async function profitSums(
  db: Queryable, storeId: string, q: { from: string; to: string; groupBy: ProfitGroupBy; after: string | null; before: boolean; limit: number },
): Promise<{ currency: string; totals: ProfitSumRow; totalCount: number; page: ProfitSumRow[] }> {
  const keyAfter = q.after === null ? '' : `AND s.key ${q.before ? '<' : '>'} $5`;
  const found = await preparedRows<{ currency: string; totals: ProfitSumRow; total_count: string; page: ProfitSumRow[] | null }>(
    db,
    `WITH page AS (
       SELECT s.key, max(s.label) AS label, ${SUMS} FROM profit_sums s
        WHERE s.store_id = $1 AND s.grouping = $4 AND s.day BETWEEN $2::date AND $3::date ${keyAfter}
        GROUP BY s.key ORDER BY s.key ${q.before ? 'DESC' : 'ASC'} LIMIT ${Number(q.limit)})
     SELECT trim(st.currency) AS currency,
            (SELECT row_to_json(t) FROM (SELECT '' AS key, '' AS label, ${SUMS} FROM profit_sums s WHERE s.store_id = $1 AND s.grouping = 'day' AND s.day BETWEEN $2::date AND $3::date) t) AS totals,
            (SELECT count(DISTINCT s.key) FROM profit_sums s WHERE s.store_id = $1 AND s.grouping = $4 AND s.day BETWEEN $2::date AND $3::date) AS total_count,
            (SELECT json_agg(json_build_object('key', p.key, 'label', CASE WHEN $4 = 'connection' THEN coalesce(c.supplier_key || ' (' || c.mode || ')', p.label) ELSE p.label END,
                      'orders', p.orders, 'parts', p.parts, 'revenue_minor', p.revenue_minor, 'landed_cost_minor', p.landed_cost_minor,
                      'payment_fee_minor', p.payment_fee_minor, 'incomplete_parts', p.incomplete_parts) ORDER BY p.key)
               FROM page p LEFT JOIN supplier_connections c ON $4 = 'connection' AND c.store_id = $1 AND c.id::text = p.key) AS page
       FROM stores st WHERE st.id = $1`,
    [storeId, q.from, q.to, q.groupBy, ...(q.after === null ? [] : [q.after])],
  );
  const r = found[0];
  return { currency: r.currency, totals: r.totals, totalCount: Number(r.total_count), page: r.page ?? [] };
}
