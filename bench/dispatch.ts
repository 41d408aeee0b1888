import crypto from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { mapLimit } from '../server/platform/concurrency';
import type { Boss } from '../server/platform/jobs';
import { JobRunner } from '../server/platform/job-runner';
import { DISPATCH_QUEUE, DISPATCH_QUEUES, singletonKeyOf, WORK_CHANNEL } from '../server/dispatch/queues';
import { BenchSandbox, BenchService, connectedStore, developerKey, Figure, load, startBenchSandbox, startBenchService } from './lib';

import { startBoss } from '../server/platform/jobs';
import { createLogger } from '../server/platform/logger';

/** The longest one measurement runs: from the first send until every job is done, or this. */
export const WINDOW_MS = Number(process.env.BENCH_DISPATCH_WINDOW_MS ?? 60_000);

export const DESTINATION = { name: 'Ada Lovelace', line1: '12 Analytical Street', city: 'Springfield', postalCode: '62701', country: 'US', phone: '+1 555 010 0199', email: 'ada@example.test' };

/**
 * A pg-boss of the benchmark's own on the service's database, made like a worker process's (supervised,
 * with the same intervals, so its workers fetch a backlog the same way); no schedules.
 */
export async function benchBoss(databaseUrl: string): Promise<Boss> {
  return startBoss(databaseUrl, [], createLogger('silent'), { supervise: true, schedule: false, superviseSeconds: 30 });
}

export interface DispatchShop {
  key: string;
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
export async function dispatchShop(svc: BenchService, sandbox: BenchSandbox, parts: number, opts: { products?: number; key?: string; automation?: Record<string, unknown>; confirmed?: boolean } = {}): Promise<DispatchShop> {
  const PRODUCTS = opts.products ?? 50;
  const key = opts.key ?? (await developerKey(svc)).key;
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

  if (opts.automation) await api(svc, key, 'PUT', `/api/store-suppliers/${conn.storeId}/${conn.connectionId}/automation`, opts.automation);

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
    // As ensure() writes them on submit: status queued, attempt 1, its number, unpaid, not pay-now. Left out for
    // orders that are to be confirmed during the run (their supplier orders come from the confirmation).
    if (opts.confirmed !== false) await c.query(
      `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number, payment_status, pay_now, destination, created_by_account_id, created_by_key_id, created_at, updated_at)
       SELECT p.so_id, t.store_id, p.order_id, $2, $3, 'sandbox', p.number, t.contract_model, 'queued', 'ss-' || left(replace(p.so_id::text, '-', ''), 20) || '-1', 'unpaid', false, t.destination, t.created_by_account_id, t.created_by_key_id, p.at, p.at
         FROM bench_parts p CROSS JOIN (SELECT * FROM store_orders WHERE id = $1) t`,
      [template.id, groupKey, conn.connectionId],
    );
    if (opts.confirmed !== false) await c.query(
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
      key,
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

// ---------------------------------------------------------------- the figures

/** The service's dispatch runner options at their defaults (server/workers.ts dispatchRunnerOptions). */
const RUNNER_OPTIONS = { concurrency: 400, groupConcurrency: { default: 4, tiers: { sandbox: 20, 'sandbox-signin': 20, cj: 2 } }, pollMs: 2000, heartbeatSeconds: 10 };

type Part = DispatchShop['parts'][number] & { connectionId: string };
export const partsOf = (shops: DispatchShop[]): Part[] => shops.flatMap((s) => s.parts.map((p) => ({ ...p, connectionId: s.connectionId })));

/** Puts one dispatch job per part on `queue` (as the service's queue does: singleton key, the connection as group) and wakes the runners. */
export async function queueParts(boss: Boss, db: Pool, queue: string, parts: Part[]): Promise<void> {
  for (let i = 0; i < parts.length; i += 500) {
    await boss.insert(
      queue,
      parts.slice(i, i + 500).map((p) => ({ data: { supplierOrderId: p.id }, singletonKey: singletonKeyOf(p), group: { id: p.connectionId, tier: 'sandbox' } })) as never,
    );
    await db.query(`SELECT pg_notify('${WORK_CHANNEL}', '')`);
  }
}

/** Polls `done()` every 100 ms from now until it reaches `total` or the window closes; answers the rate. */
export async function drain(done: () => Promise<number>, total: number): Promise<{ done: number; ms: number; perSecond: number }> {
  const t0 = performance.now();
  let n = 0;
  while ((n = await done()) < total && performance.now() - t0 < WINDOW_MS) await new Promise((r) => setTimeout(r, 100));
  const ms = performance.now() - t0;
  return { done: n, ms, perSecond: n / (ms / 1000) };
}

export const sentOf = (db: Pool, storeIds: string[]) => async () =>
  (await db.query(`SELECT count(*)::int AS n FROM supplier_orders WHERE store_id = ANY($1) AND status <> 'queued'`, [storeIds])).rows[0].n as number;

/** Every part of these shops that left `queued` is submitted with exactly one order at the sandbox. Answers how many. */
export async function checkOnce(db: Pool, sandbox: BenchSandbox, shops: DispatchShop[], warmUps = true): Promise<number> {
  const { rows } = await db.query(`SELECT supplier_order_number AS number, status FROM supplier_orders WHERE store_id = ANY($1) AND status <> 'queued'`, [shops.map((s) => s.storeId)]);
  const got = await sandbox.control<{ ordersByNumber: Record<string, number> }>('GET', '/received');
  const wrong = rows.filter((r) => (got.ordersByNumber[r.number] ?? 0) !== (r.status === 'submitted' || r.status === 'confirmed' ? 1 : 0) && !(warmUps && r.status === 'needsReview'));
  if (wrong.length) throw new Error(`${wrong.length} supplier orders not ordered exactly once, e.g. ${JSON.stringify(wrong.slice(0, 3))}`);
  return rows.length;
}

export async function shops(svc: BenchService, sandbox: BenchSandbox, n: number, parts: number, opts: Parameters<typeof dispatchShop>[3] = {}): Promise<DispatchShop[]> {
  const key = opts.key ?? (await developerKey(svc)).key;
  const out: DispatchShop[] = [];
  for (let i = 0; i < n; i++) out.push(await dispatchShop(svc, sandbox, parts, { products: 5, ...opts, key }));
  return out;
}

/** The supplier's floor: per part, its 3 calls in sequence straight against the sandbox, `concurrency` parts at a time. */
async function supplierFloor(sandbox: BenchSandbox, shop: DispatchShop, parts: number, concurrency: number): Promise<number> {
  const variantOf = new Map<string, string>();
  for (const id of shop.supplierProductIds) variantOf.set(id, (await sandbox.v1<{ variants: Array<{ id: string }> }>(shop.liveKey, 'GET', `/products/${encodeURIComponent(id)}`)).variants[0].id);
  const t0 = performance.now();
  await mapLimit(
    Array.from({ length: parts }, (_, i) => ({ pid: shop.supplierProductIds[i % shop.supplierProductIds.length], number: `floor-${crypto.randomUUID()}` })),
    concurrency,
    async (p) => {
      await sandbox.v1(shop.liveKey, 'GET', `/products/${encodeURIComponent(p.pid)}`);
      await sandbox.v1(shop.liveKey, 'GET', `/orders?orderNumber=${encodeURIComponent(p.number)}`);
      await sandbox.v1(shop.liveKey, 'POST', '/orders', { orderNumber: p.number, items: [{ variantId: variantOf.get(p.pid)!, quantity: 1 }], destination: DESTINATION });
    },
  );
  return parts / ((performance.now() - t0) / 1000);
}

const f1 = (x: number) => Number(x.toFixed(1));
/** `BENCH_DISPATCH_FIGURES=1,3` runs only those of the four (for a quick look; a full run writes them all). */
const only = new Set((process.env.BENCH_DISPATCH_FIGURES ?? '1,2,3,4').split(',').map((x) => Number(x.trim())));

interface Ctx {
  svc: BenchService;
  sandbox: BenchSandbox;
  boss: Boss;
  key: string;
}
const command = 'npm run bench -- dispatch';

/** 1. 10,000 parts over 10 connections, no added latency, against 10,000 no-op jobs through the same runner. */
async function throughput({ svc, sandbox, boss, key }: Ctx): Promise<Figure[]> {
  const many = await shops(svc, sandbox, 10, 1000, { key, products: 10 });
  const noop = 'bench.noop';
  await boss.createQueue(noop, DISPATCH_QUEUES[0] as never);
  let noopDone = 0;
  const runner = new JobRunner<unknown>(boss, noop, RUNNER_OPTIONS, async () => undefined, createLogger('silent'), async () => void noopDone++);
  runner.start();
  const noopParts = partsOf(many).map((p) => ({ ...p, id: crypto.randomUUID(), orderId: crypto.randomUUID() }));
  await queueParts(boss, svc.db, noop, noopParts);
  runner.poke();
  const base = await drain(async () => noopDone, noopParts.length);
  await runner.stop(5000);
  await queueParts(boss, svc.db, DISPATCH_QUEUE, partsOf(many));
  const subj = await drain(sentOf(svc.db, many.map((s) => s.storeId)), 10_000);
  const checked = await checkOnce(svc.db, sandbox, many);
  return [
    {
      name: 'Dispatch of 10,000 order parts (10 stores × 1,000), no added supplier latency',
      subject: { value: Math.round(subj.perSecond), unit: `parts/s (${subj.done.toLocaleString('en')} in ${(subj.ms / 1000).toFixed(1)} s)` },
      baseline: { value: Math.round(base.perSecond), unit: `jobs/s (${base.done.toLocaleString('en')} in ${(base.ms / 1000).toFixed(1)} s)` },
      baselineLabel: "10,000 no-op jobs on a queue with the dispatch queue's options, through the same runner and options (400 slots, 20 per connection), in the bench process",
      ratio: subj.perSecond / base.perSecond,
      command,
      notes:
        `Goal ≥ 0.5. Each part: pre-checks with one product read, look-up by number, create at the sandbox (3 supplier calls), one statement to record it; automation manual, no payment. ` +
        `Jobs are put on the queue in one go by the benchmark (groups = connections), then counted as they leave \`queued\` (polled every 100 ms). Checked afterwards: ${checked.toLocaleString('en')} parts sent, each exactly once at the sandbox. ` +
        `Service role \`all\` (HTTP and worker in one process); the sandbox supplier and the no-op runner share the bench process; all on the same ${os.cpus().length} cores.`,
    },
  ];
}

/** 2. 2,000 parts over 20 connections, 50 ms and 500 ms per supplier call, against the supplier's own floor. */
async function underLatency({ svc, sandbox, boss, key }: Ctx): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const latency of [50, 500]) {
    const twenty = await shops(svc, sandbox, 20, 100, { key });
    await sandbox.control('POST', '/faults', { latencyMs: latency });
    const floor = await supplierFloor(sandbox, twenty[0], latency >= 500 ? 800 : 2000, 400);
    await queueParts(boss, svc.db, DISPATCH_QUEUE, partsOf(twenty));
    const run = await drain(sentOf(svc.db, twenty.map((s) => s.storeId)), 2000);
    await sandbox.control('DELETE', '/faults');
    const sent = await checkOnce(svc.db, sandbox, twenty);
    figures.push({
      name: `Dispatch of 2,000 order parts over 20 connections, ${latency} ms per supplier call`,
      subject: { value: f1(run.perSecond), unit: `parts/s (${run.done.toLocaleString('en')} in ${(run.ms / 1000).toFixed(1)} s)` },
      baseline: { value: f1(floor), unit: 'parts/s' },
      baselineLabel: "the same 3 calls per part straight against the sandbox, 400 parts at a time (the service's slots: 20 connections × 20)",
      ratio: run.perSecond / floor,
      command,
      notes: `Goal ≥ ${latency >= 500 ? 100 : 200} parts/s. The sandbox adds ${latency} ms before every call; each connection may run 20 dispatch jobs at once (the sandbox's declared limit), the process 400. ${sent.toLocaleString('en')} parts sent, each exactly once.`,
    });
  }
  return figures;
}

/** 3. Fairness: A's supplier times out on every call while B's answers at once. */
async function fairness({ svc, sandbox, boss, key }: Ctx): Promise<Figure[]> {
  const [bAlone] = await shops(svc, sandbox, 1, 1000, { key });
  await queueParts(boss, svc.db, DISPATCH_QUEUE, partsOf([bAlone]));
  const alone = await drain(sentOf(svc.db, [bAlone.storeId]), 1000);
  const [a, b] = await shops(svc, sandbox, 2, 1000, { key });
  await sandbox.control('POST', '/faults', { accountLatencyMs: { [a.accountId]: 60_000 } });
  await queueParts(boss, svc.db, DISPATCH_QUEUE, [...partsOf([a]), ...partsOf([b])]);
  const beside = await drain(sentOf(svc.db, [b.storeId]), 1000);
  await sandbox.control('DELETE', '/faults');
  return [
    {
      name: "Fairness: connection B's 1,000 parts while connection A's supplier times out on every call (1,000 parts)",
      subject: { value: f1(beside.perSecond), unit: `parts/s of B (${beside.done.toLocaleString('en')} in ${(beside.ms / 1000).toFixed(1)} s)` },
      baseline: { value: f1(alone.perSecond), unit: `parts/s (${alone.done.toLocaleString('en')} in ${(alone.ms / 1000).toFixed(1)} s)` },
      baselineLabel: "B's 1,000 parts alone, same run",
      ratio: beside.perSecond / alone.perSecond,
      command,
      notes:
        "Goal ≥ 0.8. A's calls wait until the service's supplier time-out (SUPPLIER_TIMEOUT_MS=3000 in this run); A holds at most its 20 slots, and once its circuit opens its parts pause at the pre-checks. " +
        "With B at no latency both connections are bound by the same two cores, so A's 1,000 pauses (each a read, the pre-checks and a write) take their share of the CPU beside B's dispatches.",
    },
  ];
}

/** 4. Store actions under load: confirm orders while 1,000 parts wait on a supplier that takes 1.5 s a call. */
async function confirmUnderLoad({ svc, sandbox, boss, key }: Ctx): Promise<Figure[]> {
  const automatic = { level: 'automatic', automaticPayment: false, allowUnpaidOrders: true };
  const [busy] = await shops(svc, sandbox, 1, 1000, { key, automation: automatic });
  const [toConfirm] = await shops(svc, sandbox, 1, 3000, { key, automation: automatic, confirmed: false });
  const [idle] = await shops(svc, sandbox, 1, 3000, { key, automation: automatic, confirmed: false });
  const confirmLoad = (shop: DispatchShop) => {
    let i = 0;
    return load(svc.baseUrl, {}, {
      connections: 10,
      seconds: 5,
      requests: [{ method: 'POST', headers: { 'X-API-Key': key }, setupRequest: (req) => ({ ...req, path: `/api/store-orders/${shop.storeId}/${shop.parts[i++ % shop.parts.length].orderId}/confirm` }) }],
    });
  };
  const calm = await confirmLoad(idle);
  await sandbox.control('POST', '/faults', { accountLatencyMs: { [busy.accountId]: 1500, [toConfirm.accountId]: 1500 } });
  await queueParts(boss, svc.db, DISPATCH_QUEUE, partsOf([busy]));
  await new Promise((r) => setTimeout(r, 2000));
  const loaded = await confirmLoad(toConfirm);
  await sandbox.control('DELETE', '/faults');
  return [
    {
      name: 'Confirm a store order while its supplier takes 1.5 s a call and 1,000 parts wait (p99)',
      subject: { value: loaded.p99, unit: `ms p99 (${loaded.reqPerSec} req/s, p50 ${loaded.p50} ms, ${loaded.non2xx} non-2xx)` },
      baseline: { value: calm.p99, unit: `ms p99 (${calm.reqPerSec} req/s, p50 ${calm.p50} ms)` },
      baselineLabel: 'the same confirmations with an idle supplier and no backlog, same run',
      ratio: loaded.p99 / Math.max(1, calm.p99),
      command,
      notes: 'Goal: p99 ≤ 100 ms. 10 connections for 5 s, each request confirming a different order whose supplier part is sent automatically; the confirmation answers once its own transaction commits (the dispatch follows from a published event).',
    },
  ];
}

const FIGURES = [throughput, underLatency, fairness, confirmUnderLoad];

/** The dispatch engine's figures (docs/benchmarks.md): throughput against the queue itself, under supplier latency, fairness, and store actions under load. */
export async function dispatchBench(databaseUrl: string): Promise<Figure[]> {
  const sandbox = await startBenchSandbox();
  const svc = await startBenchService(databaseUrl, { SUPPLIER_TIMEOUT_MS: '3000' }, { sandboxUrl: sandbox.baseUrl });
  const boss = await startBoss(svc.databaseUrl, [], createLogger('silent'), { supervise: false, schedule: false, superviseSeconds: 30 });
  try {
    const ctx: Ctx = { svc, sandbox, boss, key: (await developerKey(svc)).key };
    const figures: Figure[] = [];
    for (const [i, figure] of FIGURES.entries()) if (only.has(i + 1)) figures.push(...(await figure(ctx)));
    return figures;
  } finally {
    await boss.stop({ graceful: false }).catch(() => undefined);
    await svc.stop();
    await sandbox.close();
  }
}
