import { preparedRows, type Queryable } from '../../platform/db';
import { DAY_KEY } from './profit';

// The profit report's reads: the kept sums (profit_sums, folded by ./profit.ts) and the deltas not folded yet (profit_deltas, appended by
// ./profit.ts and ./payments.ts), never the orders.

export type ProfitGroupBy = 'day' | 'product' | 'connection';

export interface ProfitSumRow {
  key: string;
  label: string;
  orders: string;
  parts: string;
  revenue_minor: string;
  landed_cost_minor: string;
  payment_fee_minor: string;
  supplier_credit_minor: string;
  refund_minor: string;
  incomplete_parts: string;
}

const SUMS = `coalesce(sum(s.orders), 0) AS orders, coalesce(sum(s.parts), 0) AS parts, coalesce(sum(s.revenue_minor), 0) AS revenue_minor,
              coalesce(sum(s.landed_cost_minor), 0) AS landed_cost_minor, coalesce(sum(s.payment_fee_minor), 0) AS payment_fee_minor,
              coalesce(sum(s.supplier_credit_minor), 0) AS supplier_credit_minor, coalesce(sum(s.refund_minor), 0) AS refund_minor,
              coalesce(sum(s.incomplete_parts), 0) AS incomplete_parts`;
const FIGURES = ['orders', 'parts', 'revenue_minor', 'landed_cost_minor', 'payment_fee_minor', 'supplier_credit_minor', 'refund_minor', 'incomplete_parts'];

/** Each grouping's key and label of a delta `d` (./profit.ts GROUPINGS). */
const KEY_OF: Record<ProfitGroupBy, { key: string; label: string }> = {
  day: { key: DAY_KEY('d'), label: 'd.day::text' },
  product: { key: 'd.product_key', label: 'd.product_label' },
  connection: { key: 'd.connection_id::text', label: "''" },
};

/** The pending deltas' sums over the range: by key of `groupBy` (`byKey`), or all together (the day rows' totals); an order counted once per key. */
function pending(groupBy: ProfitGroupBy, byKey: boolean): string {
  const { key, label } = KEY_OF[byKey ? groupBy : 'day'];
  const grouping = byKey ? '$4' : `'day'`;
  return `SELECT ${byKey ? `${key} AS key, coalesce(max(${label}) FILTER (WHERE ${label} <> ''), '') AS label,` : ''}
              count(DISTINCT d.order_id) FILTER (WHERE d.entered AND NOT EXISTS (
                SELECT 1 FROM profit_order_keys k WHERE k.store_id = $1 AND k.order_id = d.order_id AND k.grouping = ${grouping} AND k.key = ${key})) AS orders,
              sum(d.parts) AS parts, sum(d.revenue_minor) AS revenue_minor, sum(d.landed_cost_minor) AS landed_cost_minor,
              sum(d.payment_fee_minor) AS payment_fee_minor, sum(d.supplier_credit_minor) AS supplier_credit_minor, sum(d.refund_minor) AS refund_minor, sum(d.incomplete_parts) AS incomplete_parts
         FROM profit_deltas d WHERE d.store_id = $1 AND d.day BETWEEN $2::date AND $3::date AND ${key} IS NOT NULL${byKey ? ' GROUP BY 1' : ''}`;
}

/**
 * One statement: the store's currency, the totals over the range (the day rows: each order and fee counted once), how
 * many keys the range holds, and one page of keys after (or, `before`, before) `after` in key order, `limit` of them.
 * Each is the kept sums plus the deltas not folded yet (./profit.ts), read in the same snapshot, so a fold that
 * commits meanwhile is counted once: in the sums or in the deltas. An order a pending delta enters is counted for a
 * key unless profit_order_keys already holds it. The kept sums are read as before the deltas (their page through the
 * index); the deltas, few between two folds, are added beside them. A connection's label is read for the page's rows only.
 */
export async function profitSums(
  db: Queryable,
  storeId: string,
  q: { from: string; to: string; groupBy: ProfitGroupBy; after: string | null; before: boolean; limit: number },
): Promise<{ currency: string; totals: ProfitSumRow; totalCount: number; page: ProfitSumRow[] }> {
  const keyAfter = (k: string) => (q.after === null ? '' : `AND ${k} ${q.before ? '<' : '>'} $5`);
  const order = q.before ? 'DESC' : 'ASC';
  const range = `s.store_id = $1 AND s.day BETWEEN $2::date AND $3::date`;
  const found = await preparedRows<{ currency: string; totals: ProfitSumRow; pending_totals: ProfitSumRow; total_count: string; page: ProfitSumRow[] | null }>(
    db,
    `WITH pending AS (${pending(q.groupBy, true)}),
     kept AS (
       SELECT s.key, max(s.label) AS label, ${SUMS} FROM profit_sums s
        WHERE ${range} AND s.grouping = $4 ${keyAfter('s.key')}
        GROUP BY s.key ORDER BY s.key ${order} LIMIT ${Number(q.limit)}),
     page AS (
       SELECT coalesce(a.key, b.key) AS key, CASE WHEN coalesce(b.label, '') <> '' THEN b.label ELSE coalesce(a.label, '') END AS label,
              ${FIGURES.map((f) => `coalesce(a.${f}, 0) + coalesce(b.${f}, 0) AS ${f}`).join(', ')}
         FROM kept a FULL JOIN (SELECT key, label, ${FIGURES.join(', ')} FROM pending WHERE true ${keyAfter('key')}) b ON b.key = a.key
        ORDER BY 1 ${order} LIMIT ${Number(q.limit)})
     SELECT trim(st.currency) AS currency,
            (SELECT row_to_json(t) FROM (SELECT '' AS key, '' AS label, ${SUMS} FROM profit_sums s WHERE ${range} AND s.grouping = 'day') t) AS totals,
            (SELECT row_to_json(t) FROM (${pending(q.groupBy, false)}) t) AS pending_totals,
            (SELECT count(DISTINCT s.key) FROM profit_sums s WHERE ${range} AND s.grouping = $4)
              + (SELECT count(*) FROM pending p WHERE NOT EXISTS (SELECT 1 FROM profit_sums s WHERE ${range} AND s.grouping = $4 AND s.key = p.key)) AS total_count,
            (SELECT json_agg(json_build_object('key', p.key, 'label', CASE WHEN $4 = 'connection' THEN coalesce(c.supplier_key || ' (' || c.mode || ')', p.label) ELSE p.label END,
                      'orders', p.orders, 'parts', p.parts, 'revenue_minor', p.revenue_minor, 'landed_cost_minor', p.landed_cost_minor,
                      'payment_fee_minor', p.payment_fee_minor, 'supplier_credit_minor', p.supplier_credit_minor, 'refund_minor', p.refund_minor, 'incomplete_parts', p.incomplete_parts) ORDER BY p.key)
               FROM page p LEFT JOIN supplier_connections c ON $4 = 'connection' AND c.store_id = $1 AND c.id::text = p.key) AS page
       FROM stores st WHERE st.id = $1`,
    [storeId, q.from, q.to, q.groupBy, ...(q.after === null ? [] : [q.after])],
  );
  const r = found[0];
  const totals = Object.fromEntries(
    Object.entries(r.totals).map(([k, v]) => [
      k,
      FIGURES.includes(k) ? String(Number(v) + Number((r.pending_totals as unknown as Record<string, unknown>)[k] ?? 0)) : v,
    ]),
  ) as unknown as ProfitSumRow;
  return { currency: r.currency, totals, totalCount: Number(r.total_count), page: r.page ?? [] };
}
