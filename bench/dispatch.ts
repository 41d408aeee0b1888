import { performance } from 'node:perf_hooks';
import { Pool as PgPool } from 'pg';
import type { Pool } from 'pg';
import { mapLimit } from '../server/platform/concurrency';
import type { Boss } from '../server/platform/jobs';
import { DISPATCH_QUEUE, singletonKeyOf } from '../server/dispatch/service';
import { QUEUES } from '../server/workers';
import { BenchSandbox, BenchService, connectedStore, developerKey, Figure, startBenchSandbox, startBenchService } from './lib';

const PARTS = 10_000;
/** IMPORT_INLINE_LIMIT: one inline import; the parts are spread round-robin over these products. */
const PRODUCTS = 50;
/** The dispatch worker of server/workers.ts, as shipped (role `all` runs it in the service process). */
import { DISPATCH_WORK_OPTIONS } from '../server/workers';
import { startBoss } from '../server/platform/jobs';
import { createLogger } from '../server/platform/logger';
export { DISPATCH_WORK_OPTIONS };
/** Jobs put on the queue at once by the benchmark, for the subject and the baseline alike. */
const SEND_CONCURRENCY = 8;
/** The longest one measurement runs: from the first send until every job is done, or this. */
export const WINDOW_MS = Number(process.env.BENCH_DISPATCH_WINDOW_MS ?? 35_000);

export const DESTINATION = { name: 'Ada Lovelace', line1: '12 Analytical Street', city: 'Springfield', postalCode: '62701', country: 'US', phone: '+1 555 010 0199', email: 'ada@example.test' };

/**
 * A pg-boss of the benchmark's own on the service's database, made like a worker process's (supervised,
 * with the same intervals, so its workers fetch a backlog the same way); no schedules.
 */
export async function benchBoss(databaseUrl: string): Promise<Boss> {
  return startBoss(databaseUrl, [], createLogger('silent'), { supervise: true, schedule: false, superviseSeconds: 30 });
}

export interface DispatchShop {
  storeId: string;
  connectionId: string;
  liveKey: string;
  accountId: string;
  /** Supplier product ids of the linked products, in the order the parts use them round-robin. */
  supplierProductIds: string[];
  /** The seeded supplier orders, status `queued`. */
  parts: Array<{ id: string; orderId: string; groupKey: string; number: string; supplierProductId: string }>;
  /** The one order submitted through the API first (untimed): checks the set-up and warms the dispatch path. */
  warmUpNumber: string;
  seedMs: number;
}

async function api(svc: BenchService, key: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(svc.baseUrl + p, { method, headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return (JSON.parse(text) as { result: any }).result;
}

/**
 * A store with a live sandbox connection (automation `manual`, no automatic payment: a dispatch creates the order
 * at the supplier and leaves it unpaid), 50 products imported over HTTP, and `parts` store orders with one
 * supplier part each, seeded by SQL as submit would leave them: supplier order `queued`, no job yet.
 */
export async function dispatchShop(svc: BenchService, sandbox: BenchSandbox, parts: number): Promise<DispatchShop> {
  const { key } = await developerKey(svc.baseUrl);
  const account = await sandbox.control<{ accountId: string; liveKey: string }>('POST', '/accounts', { balanceMinor: 1_000_000_000, testBalanceMinor: 1_000_000 });
  // Products that ship to the US with a first variant on sale; its stock raised so that no part runs out.
  const chosen: Array<{ id: string; variantId: string }> = [];
  for (let page = 1; chosen.length < PRODUCTS; page++) {
    const got = await sandbox.v1<{ items: Array<{ id: string; shipsTo: string[]; variants: Array<{ id: string; available: boolean }> }> }>(account.liveKey, 'GET', `/products?page=${page}&pageSize=100`);
    if (!got.items.length) throw new Error(`only ${chosen.length} products fit`);
    for (const p of got.items) if (p.shipsTo.includes('US') && p.variants[0]?.available && chosen.length < PRODUCTS) chosen.push({ id: p.id, variantId: p.variants[0].id });
  }
  for (const c of chosen) await sandbox.control('POST', `/variants/${encodeURIComponent(c.variantId)}`, { stock: 10_000_000 });

  const conn = await connectedStore(svc, sandbox, key, 'Bench dispatch', account);
  await api(svc, key, 'PUT', `/api/store-suppliers/${conn.storeId}/${conn.connectionId}/automation`, { level: 'manual', automaticPayment: false });
  const imported = await api(svc, key, 'POST', `/api/store-suppliers/${conn.storeId}/${conn.connectionId}/import`, {
    products: chosen.map((c) => ({ supplierProductId: c.id, variantIds: [c.variantId] })),
  });
  if (imported.errors.length || imported.products.length !== PRODUCTS) throw new Error(`import: ${JSON.stringify(imported.errors)}`);
  const groupKey = `supplier:${conn.connectionId}`;

  // One order placed and submitted through the API: the template of the seeded rows, and a check that a part dispatches.
  const p0 = imported.products[0];
  const template = await api(svc, key, 'POST', `/api/store-orders/${conn.storeId}`, {
    items: [{ productId: p0.id, variantId: p0.variants[0].id, quantity: 1 }],
    destination: DESTINATION,
    paymentMethod: 'manual',
    contractModel: 'standard',
  });
  const submitted = await api(svc, key, 'POST', `/api/store-suppliers/${conn.storeId}/orders/${template.id}/groups/${encodeURIComponent(groupKey)}/submit`, {});
  if (submitted.status !== 'submitted') throw new Error(`the warm-up submit left the supplier order ${submitted.status}: ${submitted.reviewMessage ?? ''}`);

  const started = performance.now();
  const c = await svc.db.connect();
  try {
    await c.query('BEGIN');
    // Every linked variant of the store (the real links the import made), numbered for the round-robin.
    await c.query(
      `CREATE TEMP TABLE bench_links ON COMMIT DROP AS
       SELECT (row_number() OVER (ORDER BY l.supplier_product_id) - 1)::int AS k, l.supplier_product_id, sv.product_id, sv.id AS variant_id, sv.sku, sv.title, sv.price_minor,
              lv.supplier_variant_id, lv.cost_minor
         FROM product_links l JOIN product_link_variants lv ON lv.link_id = l.id JOIN store_variants sv ON sv.id = lv.store_variant_id
        WHERE l.store_id = $1`,
      [conn.storeId],
    );
    const links = Number((await c.query('SELECT count(*) AS n FROM bench_links')).rows[0].n);
    if (links !== PRODUCTS) throw new Error(`${links} linked variants, expected ${PRODUCTS}`);
    const [{ order_counter: base }] = (await c.query('UPDATE stores SET order_counter = order_counter + $2 WHERE id = $1 RETURNING order_counter - $2 AS order_counter', [conn.storeId, parts])).rows;
    await c.query(
      `CREATE TEMP TABLE bench_parts ON COMMIT DROP AS
       SELECT g, gen_random_uuid() AS order_id, gen_random_uuid() AS item_id, gen_random_uuid() AS so_id, ($2::int + g)::text AS number,
              now() - make_interval(secs => ($1::int - g) * 0.01) AS at, (g - 1) % $3::int AS k
         FROM generate_series(1, $1::int) g`,
      [parts, base, PRODUCTS],
    );
    // Columns copied from the order the API made, so the seeded ones differ only in ids, number, item and time.
    await c.query(
      `INSERT INTO store_orders (id, store_id, number, status, payment_method, payment_status, contract_model, currency, total_minor, destination, needs_attention, created_by_account_id, created_by_key_id, confirmed_at, created_at, updated_at)
       SELECT p.order_id, t.store_id, p.number, 'pending', t.payment_method, t.payment_status, t.contract_model, t.currency, l.price_minor, t.destination, false, t.created_by_account_id, t.created_by_key_id, NULL, p.at, p.at
         FROM bench_parts p JOIN bench_links l ON l.k = p.k CROSS JOIN (SELECT * FROM store_orders WHERE id = $1) t`,
      [template.id],
    );
    await c.query(
      `INSERT INTO store_order_items (id, order_id, position, product_id, variant_id, sku, title, quantity, unit_price_minor, group_key, supplier_variant_id, link_cost_minor)
       SELECT p.item_id, p.order_id, 0, l.product_id, l.variant_id, l.sku, l.title, 1, l.price_minor, $1, l.supplier_variant_id, l.cost_minor
         FROM bench_parts p JOIN bench_links l ON l.k = p.k`,
      [groupKey],
    );
    await c.query(`INSERT INTO fulfilment_groups (order_id, group_key, connection_id, status, shipment, fulfilled_by_store) SELECT order_id, $1, $2, 'pending', NULL, false FROM bench_parts`, [groupKey, conn.connectionId]);
    // As ensure() writes them on submit: status queued, attempt 1, its number, unpaid, not pay-now.
    await c.query(
      `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number, payment_status, pay_now, destination, created_by_account_id, created_by_key_id, created_at, updated_at)
       SELECT p.so_id, t.store_id, p.order_id, $2, $3, 'sandbox', p.number, t.contract_model, 'queued', 'ss-' || left(replace(p.so_id::text, '-', ''), 20) || '-1', 'unpaid', false, t.destination, t.created_by_account_id, t.created_by_key_id, p.at, p.at
         FROM bench_parts p CROSS JOIN (SELECT * FROM store_orders WHERE id = $1) t`,
      [template.id, groupKey, conn.connectionId],
    );
    await c.query(
      `INSERT INTO supplier_order_events (supplier_order_id, at, actor_kind, actor_id, type, from_status, to_status, details)
       SELECT p.so_id, p.at, 'key', t.created_by_key_id::text, 'created', NULL, 'queued', '{"trigger":"submit"}' FROM bench_parts p CROSS JOIN (SELECT * FROM store_orders WHERE id = $1) t`,
      [template.id],
    );
    const rows = await c.query(
      `SELECT p.so_id AS id, p.order_id, 'ss-' || left(replace(p.so_id::text, '-', ''), 20) || '-1' AS number, l.supplier_product_id FROM bench_parts p JOIN bench_links l ON l.k = p.k ORDER BY p.g`,
    );
    await c.query('COMMIT');
    await c.query('ANALYZE store_orders; ANALYZE store_order_items; ANALYZE fulfilment_groups; ANALYZE supplier_orders; ANALYZE supplier_order_events');
    return {
      storeId: conn.storeId,
      connectionId: conn.connectionId,
      liveKey: account.liveKey,
      accountId: account.accountId,
      supplierProductIds: chosen.map((x) => x.id),
      parts: rows.rows.map((r) => ({ id: r.id, orderId: r.order_id, groupKey, number: r.number, supplierProductId: r.supplier_product_id })),
      warmUpNumber: submitted.supplierOrderNumber,
      seedMs: performance.now() - started,
    };
  } catch (err) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}

export interface Drain {
  total: number;
  /** Jobs sent before the window closed. */
  sent: number;
  sendMs: number;
  /** Done when the last send returned. */
  doneAtSendEnd: number;
  done: number;
  ms: number;
}

/**
 * Sends one job per item on `queue` (SEND_CONCURRENCY sends in flight, as requestWork() sends them) and polls
 * `done()` every 100 ms until every item is done or `windowMs` has passed since the first send; sending stops at
 * the window's end too. Refuses a send pg-boss did not take.
 */
export async function sendAndDrain(boss: Boss, queue: string, jobs: Array<{ data: object; singletonKey: string }>, done: () => Promise<number>, windowMs: number, label: string): Promise<Drain> {
  const started = performance.now();
  const open = () => performance.now() - started < windowMs;
  let sent = 0;
  let sendMs = 0;
  let doneAtSendEnd = -1;
  let sendError: unknown = null;
  const sending = mapLimit(jobs, SEND_CONCURRENCY, async (j) => {
    if (!open()) return;
    const id = await boss.send(queue, j.data, { singletonKey: j.singletonKey });
    if (!id) throw new Error(`pg-boss refused a job on ${queue} (singleton key ${j.singletonKey})`);
    sent++;
  }).then(
    () => {
      sendMs = performance.now() - started;
    },
    (err) => {
      sendError = err;
    },
  );
  let finished = false;
  void sending.then(() => (finished = true));
  let logged = started;
  let n = 0;
  for (;;) {
    const wasFinished = finished;
    n = await done();
    if (sendError) throw sendError;
    if (wasFinished && doneAtSendEnd < 0) doneAtSendEnd = n;
    if (process.env.BENCH_VERBOSE && performance.now() - logged > 2000) {
      logged = performance.now();
      process.stderr.write(`bench:   ${label} ${((logged - started) / 1000).toFixed(1)} s: ${sent} sent, ${n} done\n`);
    }
    if (n >= jobs.length || !open()) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const ms = performance.now() - started;
  await sending;
  if (sendError) throw sendError;
  return { total: jobs.length, sent, sendMs: sendMs || ms, doneAtSendEnd: doneAtSendEnd < 0 ? n : doneAtSendEnd, done: n, ms };
}

/** Median time from a job's start to its completion (pg-boss's own timestamps), over the completed jobs of `queue` with these singleton keys. */
export async function medianJobMs(db: Pool, queue: string, keys: string[]): Promise<{ ms: number; jobs: number }> {
  const r = await db.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM completed_on - started_on)) * 1000 AS ms, count(*)::int AS n
       FROM pgboss.job WHERE name = $1 AND state = 'completed' AND singleton_key = ANY($2)`,
    [queue, keys],
  );
  return { ms: Number(r.rows[0].ms), jobs: r.rows[0].n };
}

/** Items per second overall, while jobs were still being sent, and after the last send. */
export function rates(d: Drain): { overall: number; sending: number; after: number | null } {
  const afterMs = d.ms - d.sendMs;
  return { overall: d.done / (d.ms / 1000), sending: d.doneAtSendEnd / (d.sendMs / 1000), after: afterMs > 500 ? (d.done - d.doneAtSendEnd) / (afterMs / 1000) : null };
}

export function describe(d: Drain, what: string): string {
  const r = rates(d);
  const f = (x: number) => x.toLocaleString('en', { maximumFractionDigits: 1 });
  const sent = d.sent < d.total ? `${d.sent.toLocaleString('en')} of ${d.total.toLocaleString('en')} sent` : `all sent`;
  return `${d.done.toLocaleString('en')} of ${d.total.toLocaleString('en')} ${what} done in ${(d.ms / 1000).toFixed(1)} s (${sent} in ${(d.sendMs / 1000).toFixed(1)} s; ${f(r.sending)}/s while jobs were being sent${r.after === null ? '' : `, ${f(r.after)}/s after the last send`})`;
}

/** Parts of the store no longer `queued` (the warm-up order excluded). */
export async function dispatchedParts(db: Pool, shop: DispatchShop): Promise<number> {
  const r = await db.query(`SELECT count(*)::int AS n FROM supplier_orders WHERE store_id = $1 AND status = 'queued'`, [shop.storeId]);
  return shop.parts.length - (r.rows[0].n as number);
}

/**
 * Run once the service has stopped (its graceful stop lets running jobs finish): every part that left `queued`
 * is `submitted` and the sandbox holds exactly one order for its number; every part still queued has none there.
 * Throws otherwise. Answers how many were dispatched.
 */
export async function checkDispatched(databaseUrl: string, sandbox: BenchSandbox, shop: DispatchShop): Promise<number> {
  const db = new PgPool({ connectionString: databaseUrl, max: 1 });
  try {
    const rows = (await db.query(`SELECT supplier_order_number AS number, status, review_message FROM supplier_orders WHERE id = ANY($1)`, [shop.parts.map((p) => p.id)])).rows as Array<{ number: string; status: string; review_message: string | null }>;
    const received = await sandbox.control<{ ordersByNumber: Record<string, number> }>('GET', '/received');
    const bad = rows.filter((r) => r.status !== 'submitted' && r.status !== 'queued');
    if (bad.length) throw new Error(`${bad.length} parts neither submitted nor queued, e.g. ${bad[0].status}: ${bad[0].review_message ?? ''}`);
    const wrong = rows.filter((r) => (received.ordersByNumber[r.number] ?? 0) !== (r.status === 'submitted' ? 1 : 0));
    if (wrong.length) {
      throw new Error(
        `the sandbox did not receive exactly one order per dispatched supplier order number (and none for a queued one): ${wrong.length} of ${rows.length} wrong, e.g. ` +
          wrong.slice(0, 3).map((r) => `${r.number} (${r.status}): ${received.ordersByNumber[r.number] ?? 0}`).join(', '),
      );
    }
    return rows.filter((r) => r.status === 'submitted').length;
  } finally {
    await db.end();
  }
}

/**
 * Dispatch of 10,000 queued order parts by the service's dispatch worker (one `dispatch.supplier-order` job each,
 * sent by the benchmark) against 10,000 no-op jobs drained by a worker of the same concurrency in the bench process.
 */
export async function dispatchBench(databaseUrl: string): Promise<Figure[]> {
  const sandbox = await startBenchSandbox();
  const svc = await startBenchService(databaseUrl, {}, { sandboxUrl: sandbox.baseUrl });
  let running = true;
  let boss: Boss | null = null;
  try {
    const shop = await dispatchShop(svc, sandbox, PARTS);
    boss = await benchBoss(svc.databaseUrl);
    const spec = QUEUES.find((q) => q.name === DISPATCH_QUEUE)!;

    // Baseline: a throw-away queue with the dispatch queue's options and a do-nothing worker with its work options.
    const { name: _name, ...queueOptions } = spec;
    const noop = 'bench.noop';
    await boss.createQueue(noop, queueOptions as never);
    await boss.work(noop, DISPATCH_WORK_OPTIONS, async () => undefined);
    const noopDone = (prefix: string) => async () =>
      (await svc.db.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'completed' AND singleton_key LIKE $2`, [noop, `${prefix}%`])).rows[0].n as number;
    // Warm-up, untimed.
    await sendAndDrain(boss, noop, Array.from({ length: 20 }, (_, i) => ({ data: { i }, singletonKey: `warm:${i}` })), noopDone('warm:'), 10_000, 'warm-up');
    const noopJobs = Array.from({ length: PARTS }, (_, i) => ({ data: { i }, singletonKey: `bench:${i}` }));
    const base = await sendAndDrain(boss, noop, noopJobs, noopDone('bench:'), WINDOW_MS, 'no-op');
    await boss.offWork(noop, { wait: true });
    const noopJob = await medianJobMs(svc.db, noop, noopJobs.map((j) => j.singletonKey));

    // Subject: one dispatch job per queued part, as requestWork() sends it.
    const subj = await sendAndDrain(
      boss,
      DISPATCH_QUEUE,
      shop.parts.map((p) => ({ data: { supplierOrderId: p.id }, singletonKey: singletonKeyOf(p) })),
      () => dispatchedParts(svc.db, shop),
      WINDOW_MS,
      'dispatch',
    );
    await boss.stop({ graceful: false });
    boss = null;
    const dispatchJob = await medianJobMs(svc.db, DISPATCH_QUEUE, shop.parts.map(singletonKeyOf));
    running = false;
    await svc.stop();
    const dispatched = await checkDispatched(svc.databaseUrl, sandbox, shop);

    const rs = rates(subj);
    const rb = rates(base);
    const f1 = (x: number) => x.toLocaleString('en', { maximumFractionDigits: 1 });
    const drainNote = (d: Drain, what: string, after: number | null) =>
      d.done >= d.total
        ? `all ${d.total.toLocaleString('en')} ${what} done ${(d.ms / 1000).toFixed(1)} s after the first send`
        : `${(d.total - d.done).toLocaleString('en')} ${what} still waiting when the ${WINDOW_MS / 1000} s window closed${after ? ` (about ${Math.round((d.total - d.done) / after / 60)} min more at the rate after the last send)` : ''}`;
    const command = 'npm run bench -- dispatch';
    const baselineLabel = `${PARTS.toLocaleString('en')} no-op pg-boss jobs, the dispatch queue's options and worker options, worker in the bench process`;
    const figures: Figure[] = [
      {
        name: `Dispatch of ${PARTS.toLocaleString('en')} order parts to the sandbox supplier, while their jobs are being sent (dispatch worker as shipped, 4 at a time)`,
        subject: { value: Math.round(rs.sending), unit: `parts/s (${subj.doneAtSendEnd.toLocaleString('en')} in the ${(subj.sendMs / 1000).toFixed(1)} s of sending)` },
        baseline: { value: Math.round(rb.sending), unit: `jobs/s (${base.doneAtSendEnd.toLocaleString('en')} in the ${(base.sendMs / 1000).toFixed(1)} s of sending)` },
        baselineLabel,
        ratio: rs.sending / rb.sending,
        command,
        notes:
          `Ratio = parts dispatched per second ÷ no-op jobs completed per second, both counted from the first send to the last (the workers are woken by every send); 1 would mean dispatching costs no more than the job queue itself. ` +
          `Until none was left: ${drainNote(subj, 'parts', rs.after)}; baseline ${drainNote(base, 'no-op jobs', rb.after)}. Whole runs: subject ${describe(subj, 'parts')}; baseline ${describe(base, 'no-op jobs')}. ` +
          `Each part: one store order with one item of a product imported over HTTP (50 products, round-robin; stock raised at the sandbox so none runs out), its supplier order seeded by SQL as submit leaves it, \`queued\` (${(shop.seedMs / 1000).toFixed(1)} s); ` +
          `then one \`dispatch.supplier-order\` job per part (singleton key as requestWork() sends it) sent by the benchmark with its own pg-boss, ${SEND_CONCURRENCY} sends in flight; done = no longer \`queued\` (polled every 100 ms). ` +
          `Automation \`manual\`, no automatic payment: a dispatch reads the product, looks the number up and creates the order at the supplier (3 supplier calls); it stays unpaid (\`submitted\`). ` +
          `Checked after the service stopped (gracefully, running jobs finished): the ${dispatched.toLocaleString('en')} dispatched parts are \`submitted\` with exactly one sandbox order per supplier order number, the others none. ` +
          `Service role \`all\`, dispatch worker as in server/workers.ts (localConcurrency 4, batch 1, notify on, burst fetching while a backlog waits); no added supplier latency. ` +
          `One job from start to completion (pg-boss timestamps, median): dispatch ${Math.round(dispatchJob.ms)} ms over ${dispatchJob.jobs.toLocaleString('en')} jobs, no-op ${noopJob.ms.toFixed(1)} ms over ${noopJob.jobs.toLocaleString('en')}.`,
      },
    ];
    if (rs.after !== null && rb.after !== null) {
      figures.push({
        name: `Dispatch of the backlog left once the last job was sent (same run, ${(subj.total - subj.doneAtSendEnd).toLocaleString('en')} parts / ${(base.total - base.doneAtSendEnd).toLocaleString('en')} no-op jobs waiting)`,
        subject: { value: Number(f1(rs.after)), unit: `parts/s (${(subj.done - subj.doneAtSendEnd).toLocaleString('en')} in ${((subj.ms - subj.sendMs) / 1000).toFixed(1)} s)` },
        baseline: { value: Number(f1(rb.after)), unit: `jobs/s (${(base.done - base.doneAtSendEnd).toLocaleString('en')} in ${((base.ms - base.sendMs) / 1000).toFixed(1)} s)` },
        baselineLabel,
        ratio: rs.after / rb.after,
        command,
        notes:
          `Ratio as above, counted from the last send until none was left or the window closed. ` +
          `The workers fetch continuously while a backlog waits (\`burstWhenReadyExceeds\`), so both drain at what the work costs rather than one job per poll interval.`,
      });
    }
    return figures;
  } finally {
    if (boss) await boss.stop({ graceful: false }).catch(() => undefined);
    if (running) await svc.stop();
    await sandbox.close();
  }
}
