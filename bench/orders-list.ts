import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { developerKey, Figure, startBaselineServer, startBenchService } from './lib';
import { Load, load, loadPair, median } from './load';
import { profitReportFigure, seedProfit } from './profit-report';

const TOTAL = Number(process.env.BENCH_ORDERS_TOTAL ?? 1_000_000);
const STORES = 1_000;
/** Supplier orders (and store orders) of the largest store, the one measured; the rest are spread over the other 999. */
const LARGEST = 100_000;
const BATCH = 100_000;
const COUNT_RUNS = 300;

/** The status of row g (g % 100): 10 % needsReview, the rest spread over the other statuses. */
const STATUS_OF = `CASE
    WHEN g % 100 < 10 THEN 'needsReview' WHEN g % 100 < 12 THEN 'queued' WHEN g % 100 < 14 THEN 'failed'
    WHEN g % 100 < 24 THEN 'submitted' WHEN g % 100 < 34 THEN 'confirmed' WHEN g % 100 < 44 THEN 'processing'
    WHEN g % 100 < 64 THEN 'shipped' WHEN g % 100 < 94 THEN 'delivered' ELSE 'cancelled' END`;
/** Store number of row g: the first LARGEST rows are store 1's, the others round-robin over stores 2..STORES. */
const STORE_OF = `CASE WHEN g <= ${LARGEST} THEN 1 ELSE 2 + (g - ${LARGEST + 1}) % ${STORES - 1} END`;
/** Creation times spread over a year (deterministic, distinct to the microsecond). */
const CREATED_OF = `now() - make_interval(secs => ((g::bigint * 7919) % 31536000) + (g % 997) / 1000.0)`;
const DESTINATION = JSON.stringify({ name: 'Ada Lovelace', line1: '12 Analytical Street', city: 'Springfield', postalCode: '62701', country: 'US' });

function checked(what: string, l: Load): Load {
  if (l.non2xx || l.errors) throw new Error(`${what}: ${l.non2xx} non-2xx answers and ${l.errors} errors/time-outs out of ${l.total}`);
  if (!l.total) throw new Error(`${what}: no request answered`);
  return l;
}

/**
 * The supplier order list (page of 25, needsReview=true) of the largest of 1,000 stores holding 1,000,000 supplier
 * orders, against a bare Koa route running the same indexed page query; and the list's totalCount (summed from
 * supplier_order_counts) against counting the rows.
 */
export async function ordersListBench(databaseUrl: string): Promise<Figure[]> {
  // HTTP only: the seeded queued orders (of connections without credentials) must not be dispatched, and paused, by a worker's sweeper while the list is measured.
  const svc = await startBenchService(databaseUrl, {}, { args: ['--role', 'api'], profile: true });
  const pg = new Pool({ connectionString: databaseUrl, max: 1 });
  const bareServer = await startBaselineServer(databaseUrl, svc.appSecret, { profile: true });
  try {
    const { key, accountId } = await developerKey(svc);
    const seedStarted = performance.now();
    await seed(pg, accountId);
    const seedMs = performance.now() - seedStarted;
    const storeId: string = (await pg.query(`SELECT md5('bench-store-1')::uuid AS id`)).rows[0].id;
    await seedProfit(pg, storeId);
    const expected = LARGEST / 10;

    // One of each by hand first: same rows in the same order, and the real route's totalCount right.
    const listUrl = `${svc.baseUrl}/api/store-suppliers/${storeId}/orders?needsReview=true&pageSize=25`;
    const baseUrl = `${bareServer.baseUrl}/supplier-orders/${storeId}`;
    const real = await fetch(listUrl, { headers: { 'X-API-Key': key } });
    const realBody = (await real.json()) as { result: { items: Array<{ _id: string; status: string }>; pagination: { totalCount: number; hasMore: boolean } } };
    if (real.status !== 200) throw new Error(`the list answered ${real.status}: ${JSON.stringify(realBody)}`);
    const bare = ((await (await fetch(baseUrl, { headers: { 'X-API-Key': key } })).json()) as Array<{ id: string }>).slice(0, 25);
    const page = realBody.result;
    if (page.items.length !== 25 || page.items.some((i) => i.status !== 'needsReview') || !page.pagination.hasMore)
      throw new Error(`unexpected page: ${page.items.length} items, hasMore ${page.pagination.hasMore}`);
    if (page.pagination.totalCount !== expected) throw new Error(`totalCount ${page.pagination.totalCount}, expected ${expected}`);
    if (bare.length !== 25 || new Set(bare.map((r) => r.id)).size !== 25 || !page.items.every((i) => bare.some((r) => r.id === i._id)))
      throw new Error('the bare route answers other rows than the list');

    await load(baseUrl, { 'X-API-Key': key }, { seconds: 1 }); // warm-up
    await load(listUrl, { 'X-API-Key': key }, { seconds: 1 });
    const pair = await loadPair({ url: baseUrl, headers: { 'X-API-Key': key }, ...bareServer }, { url: listUrl, headers: { 'X-API-Key': key }, ...svc });
    const baseline = checked('bare supplier order page', pair.baseline);
    const subject = checked('supplier order list', pair.subject);

    // totalCount: the query SupplierOrderReads.count runs for needsReview=true, against counting the rows.
    const countSql = 'SELECT coalesce(sum(n), 0)::bigint AS n FROM supplier_order_counts WHERE store_id = $1 AND status = $2';
    const countArgs = [storeId, 'needsReview'];
    const directSql = `SELECT count(*) AS n FROM supplier_orders WHERE store_id = $1 AND status = 'needsReview'`;
    const directArgs = [storeId];
    for (const [sql, args] of [
      [countSql, countArgs],
      [directSql, directArgs],
    ] as const) {
      const n = Number((await pg.query(sql, [...args])).rows[0].n);
      if (n !== expected) throw new Error(`${sql} answered ${n}, expected ${expected}`);
    }
    const timed = async (sql: string, args: readonly unknown[]) => {
      const t = performance.now();
      await pg.query(sql, [...args]);
      return performance.now() - t;
    };
    for (let i = 0; i < 30; i++) {
      await timed(countSql, countArgs);
      await timed(directSql, directArgs);
    }
    const counts: number[] = [];
    const directs: number[] = [];
    // Interleaved, so both see the same machine.
    for (let i = 0; i < COUNT_RUNS; i++) {
      counts.push(await timed(countSql, countArgs));
      directs.push(await timed(directSql, directArgs));
    }
    const execMs = async (sql: string, args: readonly unknown[]) => {
      const plan = (await pg.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, [...args])).rows[0]['QUERY PLAN'][0];
      return { ms: plan['Execution Time'] as number, node: describePlan(plan.Plan) };
    };
    const countPlan = await execMs(countSql, countArgs);
    const directPlan = await execMs(directSql, directArgs);
    const countMs = median(counts);
    const directMs = median(directs);
    const f = (x: number) => x.toFixed(3);

    const command = 'npm run bench -- orders-list';
    const profit = await profitReportFigure(pg, svc, key, storeId, command);
    const sizes = `${TOTAL.toLocaleString('en')} supplier orders in ${STORES.toLocaleString('en')} stores, the measured store holding ${LARGEST.toLocaleString('en')} (${expected.toLocaleString('en')} needsReview)`;
    return [
      {
        name: `Page of 25 supplier orders, needsReview=true (${sizes})`,
        subject,
        baseline,
        baselineLabel:
          'bare Koa route (bench/baseline-server.ts): one indexed key lookup, then one statement for the keyset page (LIMIT 26), its events and the kept count',
        ratio: subject.reqPerSec / baseline.reqPerSec,
        command,
        cpu: { service: subject.cpu!, bare: baseline.cpu!, per: 'request' },
        notes:
          `Ratio = list requests per second ÷ bare-route requests per second. The real route reads key, account and store access in one statement, then the page, its events and the exact totalCount (supplier_order_counts) in one more, ` +
          `mapped without entity hydration; it adds the pipeline (validation, permission), signed cursors, the envelope and the request log. ` +
          `Seeded by SQL in ${(seedMs / 1000).toFixed(1)} s (generate_series, ${TOTAL / BATCH} batches of ${BATCH.toLocaleString('en')}): one Developer signed up through the API owns ${STORES.toLocaleString('en')} stores inserted with its id, one sandbox connection each, ` +
          `one store order per supplier order (the foreign key), statuses by row number (10 % needsReview, 2 % queued, 2 % failed, the rest submitted to cancelled), created_at spread over a year; two events per needsReview order of the measured store. ` +
          `For the seed the per-row counts trigger (supplier_order_counts_ins_del) was disabled and supplier_order_counts filled with one INSERT … SELECT … GROUP BY, then the trigger enabled again; ` +
          `the unique constraints, foreign keys and secondary indexes of store_orders and supplier_orders were dropped and made again afterwards from their own definitions (pg_get_constraintdef / pg_indexes), so every foreign key was checked over all rows when re-added; ` +
          `then VACUUM ANALYZE (so index-only scans see the visibility map, as after autovacuum).`,
      },
      {
        name: `totalCount of the needsReview list on the largest store (${LARGEST.toLocaleString('en')} supplier orders, ${expected.toLocaleString('en')} needsReview)`,
        subject: { value: Number(f(countMs)), unit: `ms (median of ${COUNT_RUNS})` },
        baseline: { value: Number(f(directMs)), unit: `ms (median of ${COUNT_RUNS})` },
        baselineLabel: `SELECT count(*) FROM supplier_orders WHERE store_id = $1 AND status = 'needsReview'`,
        ratio: countMs / directMs,
        command,
        notes:
          `Ratio = the count SupplierOrderReads.count runs (sum over supplier_order_counts) ÷ counting the rows; below 1 the kept counts are faster. ` +
          `Both run ${COUNT_RUNS} times, interleaved, after 30 untimed each, from the benchmark process over one pg connection (round trip included). ` +
          `Server-side execution time (EXPLAIN ANALYZE, one run): counts ${f(countPlan.ms)} ms (${countPlan.node}); count(*) ${f(directPlan.ms)} ms (${directPlan.node}).`,
      },
      profit,
    ];
  } finally {
    await pg.end();
    await bareServer.stop();
    await svc.stop();
  }
}

function describePlan(plan: { 'Node Type': string; 'Index Name'?: string; Plans?: unknown[] }): string {
  const nodes: string[] = [];
  const walk = (p: { 'Node Type': string; 'Index Name'?: string; Plans?: unknown[] }) => {
    nodes.push(p['Index Name'] ? `${p['Node Type']} on ${p['Index Name']}` : p['Node Type']);
    for (const c of (p.Plans ?? []) as Array<typeof p>) walk(c);
  };
  walk(plan);
  return nodes.join(' → ');
}

export async function seed(pg: Pool, accountId: string): Promise<void> {
  const t0 = performance.now();
  const step = (what: string) =>
    process.env.BENCH_VERBOSE && process.stderr.write(`bench:   seed ${what} at ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  await pg.query(
    `INSERT INTO stores (id, owner_account_id, name, currency, created_at)
     SELECT md5('bench-store-' || g)::uuid, $1, 'Bench store ' || g, 'USD', now() - make_interval(days => g) FROM generate_series(1, $2::int) g`,
    [accountId, STORES],
  );
  await pg.query(
    `INSERT INTO supplier_connections (id, store_id, supplier_key, mode, enabled, credentials_sealed, account_label, settings, automation, created_by_account_id)
     SELECT md5('bench-conn-' || g)::uuid, md5('bench-store-' || g)::uuid, 'sandbox', 'live', true, NULL, 'bench', '{}',
            '{"level":"manual","automaticPayment":false,"costLimit":null,"excludedCountries":[],"allowUnpaidOrders":false}', $1
       FROM generate_series(1, $2::int) g`,
    [accountId, STORES],
  );
  // Per-row work is what makes a million-row insert slow: the counts trigger, three foreign-key checks and seven
  // secondary indexes per supplier order. For the seed the trigger is switched off (its table is filled in one pass
  // below), and the foreign keys, unique constraints and secondary indexes of the two tables are dropped and then
  // made again from their own definitions: Postgres builds each index by one sort and checks each foreign key by one
  // join over all rows.
  const rebuild = await dropForSeed(pg, ['store_orders', 'supplier_orders']);
  step(`dropped ${rebuild.length} indexes and constraints`);
  await pg.query('ALTER TABLE supplier_orders DISABLE TRIGGER supplier_order_counts_ins_del');
  try {
    for (let from = 1; from <= TOTAL; from += BATCH) {
      const args = [from, Math.min(TOTAL, from + BATCH - 1), accountId, DESTINATION];
      await pg.query(
        `INSERT INTO store_orders (id, store_id, number, status, payment_method, payment_status, contract_model, currency, total_minor, destination, needs_attention, created_by_account_id, confirmed_at, created_at, updated_at)
         SELECT md5('bench-order-' || g)::uuid, md5('bench-store-' || (${STORE_OF}))::uuid, (1000 + g)::text,
                CASE WHEN st IN ('needsReview', 'queued', 'failed') THEN 'confirmed' WHEN st IN ('shipped', 'delivered', 'cancelled') THEN st ELSE 'processing' END,
                'manual', 'none', 'standard', 'USD', 1999 + g % 5000, $4::jsonb, st IN ('needsReview', 'failed'), $3, at, at, at
           FROM (SELECT g, ${STATUS_OF} AS st, ${CREATED_OF} AS at FROM generate_series($1::int, $2::int) g) r`,
        args,
      );
      step(`store orders ${from}`);
      await pg.query(
        `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, review_reason, review_message, retryable,
                                      supplier_order_number, supplier_order_id, supplier_status, costs, payment_status, shipping, destination, created_by_account_id, created_at, updated_at)
         SELECT so, md5('bench-store-' || s)::uuid, md5('bench-order-' || g)::uuid, 'supplier:' || md5('bench-conn-' || s)::uuid, md5('bench-conn-' || s)::uuid, 'sandbox', (1000 + g)::text, 'standard', st,
                CASE WHEN st = 'needsReview' THEN (ARRAY['costChanged', 'variantUnavailable', 'insufficientBalance'])[1 + g % 3] END,
                CASE WHEN st = 'needsReview' THEN 'Paused by the benchmark seed.' END,
                CASE WHEN st = 'needsReview' THEN false END,
                'ss-' || left(replace(so::text, '-', ''), 20) || '-1',
                CASE WHEN st NOT IN ('queued', 'needsReview', 'failed') THEN 'SBX-O' || upper(left(md5('bench-sbx-' || g), 12)) END,
                CASE WHEN st NOT IN ('queued', 'needsReview', 'failed') THEN st END,
                CASE WHEN st NOT IN ('queued', 'needsReview', 'failed') THEN jsonb_build_object('itemsMinor', 1000 + g % 4000, 'shippingMinor', 499, 'totalMinor', 1499 + g % 4000, 'currency', 'USD') END,
                CASE WHEN st IN ('confirmed', 'processing', 'shipped', 'delivered') THEN 'paid' WHEN st = 'cancelled' THEN 'refunded' ELSE 'unpaid' END,
                CASE WHEN st IN ('shipped', 'delivered') THEN jsonb_build_object('carrier', 'SandboxPost', 'trackingNumber', 'SBX' || g, 'shippedAt', at) END,
                $4::jsonb, $3, at, at
           FROM (SELECT g, ${STORE_OF} AS s, ${STATUS_OF} AS st, ${CREATED_OF} AS at, md5('bench-so-' || g)::uuid AS so FROM generate_series($1::int, $2::int) g) r`,
        args,
      );
      step(`supplier orders ${from}`);
    }
    // Counted from the rows themselves, whatever was counted on the way.
    await pg.query('DELETE FROM supplier_order_counts');
    await pg.query(
      `INSERT INTO supplier_order_counts (store_id, connection_id, status, contract_model, n)
       SELECT store_id, connection_id, status, contract_model, count(*) FROM supplier_orders GROUP BY 1, 2, 3, 4`,
    );
    step('counts');
  } finally {
    await pg.query('ALTER TABLE supplier_orders ENABLE TRIGGER supplier_order_counts_ins_del');
    await pg.query(`SET maintenance_work_mem = '256MB'`);
    for (const sql of rebuild) await pg.query(sql);
    await pg.query('RESET maintenance_work_mem');
    step('indexes and constraints made again');
  }
  await pg.query(`UPDATE stores SET order_counter = 1000 + $2::int WHERE owner_account_id = $1`, [accountId, TOTAL]);
  // The measured store's paused orders carry the events a pause leaves: created, then paused.
  await pg.query(
    `INSERT INTO supplier_order_events (store_id, supplier_order_id, at, actor_kind, actor_id, type, from_status, to_status, details)
     SELECT s.store_id, s.id, s.created_at, 'system', NULL, e.type, e.from_status, e.to_status, e.details::jsonb
       FROM supplier_orders s
       CROSS JOIN (VALUES ('created', NULL, 'queued', '{"trigger":"submit"}'), ('paused', 'queued', 'needsReview', '{"reason":"costChanged"}')) AS e(type, from_status, to_status, details)
      WHERE s.store_id = md5('bench-store-1')::uuid AND s.status = 'needsReview'`,
  );
  step('events');
  await pg.query('VACUUM ANALYZE stores, supplier_connections, store_orders, supplier_orders, supplier_order_counts, supplier_order_events');
  step('vacuum');
}

/**
 * Drops the unique constraints, foreign keys and secondary indexes of `tables` (primary keys stay) and answers the
 * statements that make them again, in order: indexes and unique constraints first, foreign keys last.
 */
async function dropForSeed(pg: Pool, tables: string[]): Promise<string[]> {
  const again: string[] = [];
  const fks: string[] = [];
  for (const table of tables) {
    const constraints: Array<{ conname: string; contype: string; def: string }> = (
      await pg.query(
        `SELECT conname, contype, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('u', 'f') ORDER BY contype DESC, conname`,
        [table],
      )
    ).rows;
    const indexes: Array<{ indexname: string; indexdef: string }> = (
      await pg.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1 AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE conrelid = $1::regclass) ORDER BY indexname`,
        [table],
      )
    ).rows;
    for (const c of constraints) {
      await pg.query(`ALTER TABLE ${table} DROP CONSTRAINT ${c.conname}`);
      (c.contype === 'f' ? fks : again).push(`ALTER TABLE ${table} ADD CONSTRAINT ${c.conname} ${c.def}`);
    }
    for (const i of indexes) {
      await pg.query(`DROP INDEX ${i.indexname}`);
      again.push(i.indexdef);
    }
  }
  return [...again, ...fks];
}
