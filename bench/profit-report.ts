import type { Pool } from 'pg';
import { emptyUse, metered } from './cpu';
import type { Figure } from './lib';
import { load } from './load';

// The profit report's figure of `npm run bench -- orders-list` (issue 41, item 4): the report reads kept sums
// (profit_sums); against it, the same totals summed by one SQL statement over the rows (landed_costs + store_orders).

const STAGE_RANK = `array_position(ARRAY['confirmation', 'accepted', 'paid'], l.stage)`;
const DIRECT_RUNS = 20;

/**
 * The measured store's landed costs as dispatch records them (confirmation and accepted for every part the supplier
 * took, paid 7 cents more for the paid ones), and its kept sums as the recording statements would have left them,
 * filled in one INSERT … SELECT … GROUP BY (the seed's orders carry no items: revenue is the order's total, one part each).
 */
export async function seedProfit(pg: Pool, storeId: string): Promise<void> {
  await pg.query(
    `INSERT INTO landed_costs (store_id, supplier_order_id, stage, order_id, connection_id, currency, items_minor, shipping_minor, total_minor, store_currency, store_total_minor, rate, rate_source, rate_as_of, recorded_at)
     SELECT s.store_id, s.id, st.stage, s.order_id, s.connection_id, 'USD', (s.costs->>'itemsMinor')::bigint, 499, (s.costs->>'totalMinor')::bigint + st.more, 'USD',
            (s.costs->>'totalMinor')::bigint + st.more, '1', 'identity', s.created_at::date, s.created_at
       FROM supplier_orders s CROSS JOIN (VALUES ('confirmation', 0), ('accepted', 0), ('paid', 7)) AS st(stage, more)
      WHERE s.store_id = $1 AND s.costs IS NOT NULL AND (st.stage <> 'paid' OR s.payment_status = 'paid')`,
    [storeId],
  );
  await pg.query(
    `INSERT INTO profit_sums (store_id, grouping, key, day, label, orders, parts, revenue_minor, landed_cost_minor, incomplete_parts)
     SELECT o.store_id, g.grouping, g.key, d.day, g.label, count(DISTINCT o.id), count(*), sum(o.total_minor), sum(l.store_total_minor), 0
       FROM (SELECT DISTINCT ON (l.supplier_order_id) l.order_id, l.connection_id, l.store_total_minor FROM landed_costs l WHERE l.store_id = $1 ORDER BY l.supplier_order_id, ${STAGE_RANK} DESC) l
       JOIN store_orders o ON o.store_id = $1 AND o.id = l.order_id
      CROSS JOIN LATERAL (SELECT (o.created_at AT TIME ZONE 'UTC')::date AS day) d
      CROSS JOIN LATERAL (VALUES ('day', d.day::text, d.day::text), ('connection', l.connection_id::text, '')) AS g(grouping, key, label)
      GROUP BY 1, 2, 3, 4, 5`,
    [storeId],
  );
  await pg.query('VACUUM ANALYZE landed_costs, profit_sums');
}

/** The same totals from the rows: the latest stage per part, its order's total, the fees; one statement. */
const DIRECT = `SELECT count(DISTINCT o.id) AS orders, count(*) AS parts, coalesce(sum(o.total_minor), 0) AS revenue_minor, coalesce(sum(l.store_total_minor), 0) AS landed_cost_minor,
         (SELECT coalesce(sum(e.fee_minor), 0) FROM payment_events e JOIN store_orders fo ON fo.store_id = e.store_id AND fo.id = e.order_id
           WHERE e.store_id = $1 AND fo.created_at >= $2::date AND fo.created_at < $3::date + 1) AS payment_fee_minor
    FROM (SELECT DISTINCT ON (l.supplier_order_id) l.order_id, l.store_total_minor FROM landed_costs l WHERE l.store_id = $1 ORDER BY l.supplier_order_id, ${STAGE_RANK} DESC) l
    JOIN store_orders o ON o.store_id = $1 AND o.id = l.order_id
   WHERE o.created_at >= $2::date AND o.created_at < $3::date + 1`;

/**
 * The report over the last year (groupBy=day, a page of 25 days) under load, its service's and database's CPU per
 * request, against the database's CPU per run of the one statement; the totals must agree first.
 */
export async function profitReportFigure(pg: Pool, svc: { baseUrl: string; pid?: number }, key: string, storeId: string, command: string): Promise<Figure> {
  const to = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const url = `${svc.baseUrl}/api/store-suppliers/${storeId}/reports/profit?from=${from}&to=${to}&groupBy=day&pageSize=25`;
  const headers = { 'X-API-Key': key };
  const answer = await fetch(url, { headers });
  const body = (await answer.json()) as { result: { totals: Record<string, number>; items: unknown[] } };
  if (answer.status !== 200) throw new Error(`the profit report answered ${answer.status}: ${JSON.stringify(body)}`);
  const [direct] = (await pg.query(DIRECT, [storeId, from, to])).rows;
  const want = {
    orders: Number(direct.orders),
    parts: Number(direct.parts),
    revenueMinor: Number(direct.revenue_minor),
    landedCostMinor: Number(direct.landed_cost_minor),
    paymentFeeMinor: Number(direct.payment_fee_minor),
  };
  const got = body.result.totals;
  if (Object.entries(want).some(([k, v]) => got[k] !== v) || !want.parts)
    throw new Error(`the report's totals ${JSON.stringify(got)} are not the rows' ${JSON.stringify(want)}`);

  await load(url, headers, { seconds: 1 }); // warm-up
  for (let i = 0; i < 3; i++) await pg.query(DIRECT, [storeId, from, to]);
  const report = emptyUse();
  const loaded = await metered(svc.pid, report, () => load(url, headers, { seconds: 4 }));
  if (loaded.non2xx || loaded.errors || !loaded.total)
    throw new Error(`profit report under load: ${loaded.non2xx} non-2xx, ${loaded.errors} errors of ${loaded.total}`);
  const rows = emptyUse();
  await metered(undefined, rows, async () => {
    for (let i = 0; i < DIRECT_RUNS; i++) await pg.query(DIRECT, [storeId, from, to]);
    return { total: DIRECT_RUNS };
  });
  const reportUs = (report.processUs + (report.databaseUs ?? 0)) / report.requests;
  const directUs = (rows.databaseUs ?? 0) / rows.requests;
  return {
    name: `Profit report, a year by day, page of 25 (the store of ${want.parts.toLocaleString('en')} parts with landed costs, of ${want.orders.toLocaleString('en')} orders)`,
    subject: { value: Math.round(reportUs), unit: 'µs CPU per request (service + database)' },
    baseline: { value: Math.round(directUs), unit: `µs database CPU per statement (${DIRECT_RUNS} runs)` },
    baselineLabel:
      'one SQL statement summing the same totals over the rows: the latest landed_costs stage per part (DISTINCT ON), joined to store_orders for the day and revenue, and payment_events for fees',
    ratio: directUs ? reportUs / directUs : Number.NaN,
    command,
    notes:
      `Ratio = the report's CPU per request (its service process and the database, /proc/<pid>/stat over a 4 s load of ${loaded.total} requests) ÷ the database CPU of one run of the statement ` +
      `(below 1 the kept sums are cheaper, though the report also pays for HTTP, authentication, validation and the envelope). The report answered the same totals as the statement first. ` +
      `Seeded for the measured store only: landed_costs (confirmation and accepted for every part the supplier took, paid 7 cents more for paid ones) and profit_sums (by day and connection) ` +
      `from one INSERT … SELECT … GROUP BY, as the recording statements keep them; revenue is the order's total (the seed's orders carry no items).`,
  };
}
