/** The dispatch benchmarks' set-up: shops with many order parts seeded as submit leaves them, jobs put on the queue, and the checks. */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { mapLimit } from '../server/platform/concurrency';
import { startBoss, type Boss } from '../server/platform/jobs';
import { createLogger } from '../server/platform/logger';
import { DISPATCH_BATCH_WINDOW_MS, dispatchJobData, singletonKeyOf, WORK_CHANNEL } from '../server/dispatch/queues';
import { BenchSandbox, BenchService, connectedStore, developerKey } from './lib';

export const command = 'npm run bench -- dispatch';

/** What each dispatch benchmark works with. */
export interface Ctx {
  svc: BenchService;
  sandbox: BenchSandbox;
  boss: Boss;
  key: string;
  /** The benchmark's own connection, under the administrator's role (not counted). */
  admin: Pool;
}

/** The longest one measurement runs: from the first send until every job is done, or this. */
export const WINDOW_MS = Number(process.env.BENCH_DISPATCH_WINDOW_MS ?? 60_000);

export const DESTINATION = {
  name: 'Ada Lovelace',
  line1: '12 Analytical Street',
  city: 'Springfield',
  postalCode: '62701',
  country: 'US',
  phone: '+1 555 010 0199',
  email: 'ada@example.test',
};

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
  parts: Array<{ id: string; orderId: string; partKey: string; number: string; supplierProductId: string }>;
  /** The one order submitted through the API first (untimed): checks the set-up and warms the dispatch path. */
  warmUpNumber: string;
  seedMs: number;
}

async function api(svc: BenchService, key: string, method: string, p: string, body?: unknown): Promise<any> {
  const res = await fetch(svc.baseUrl + p, {
    method,
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return (JSON.parse(text) as { result: any }).result;
}

/**
 * A store with a live sandbox connection (automation `manual`, no automatic payment: a dispatch creates the order
 * at the supplier and leaves it unpaid), 50 products imported over HTTP, and `parts` store orders with one
 * supplier part each, seeded by SQL as submit would leave them: supplier order `queued`, no job yet.
 */
export async function dispatchShop(
  svc: BenchService,
  sandbox: BenchSandbox,
  parts: number,
  opts: { products?: number; key?: string; automation?: Record<string, unknown>; confirmed?: boolean; only?: Set<string> } = {},
): Promise<DispatchShop> {
  const PRODUCTS = opts.products ?? 50;
  const key = opts.key ?? (await developerKey(svc)).key;
  const account = await sandbox.control<{ accountId: string; liveKey: string }>('POST', '/accounts', {
    balanceMinor: 1_000_000_000,
    testBalanceMinor: 1_000_000,
  });
  // Products that ship to the US with a first variant on sale; its stock raised so that no part runs out.
  const chosen: Array<{ id: string; variantId: string }> = [];
  for (let page = 1; chosen.length < PRODUCTS; page++) {
    const got = await sandbox.v1<{ items: Array<{ id: string; shipsTo: string[]; variants: Array<{ id: string; available: boolean }> }> }>(
      account.liveKey,
      'GET',
      `/products?page=${page}&pageSize=100`,
    );
    if (!got.items.length) throw new Error(`only ${chosen.length} products fit`);
    for (const p of got.items)
      if (p.shipsTo.includes('US') && p.variants[0]?.available && chosen.length < PRODUCTS && (!opts.only || opts.only.has(p.variants[0].id)))
        chosen.push({ id: p.id, variantId: p.variants[0].id });
  }
  for (const c of chosen) await sandbox.control('POST', `/variants/${encodeURIComponent(c.variantId)}`, { stock: 10_000_000 });

  const conn = await connectedStore(svc, sandbox, key, 'Bench dispatch', account);
  await api(svc, key, 'PUT', `/api/store-suppliers/${conn.storeId}/${conn.connectionId}/automation`, { level: 'manual', automaticPayment: false });

  const imported = await api(svc, key, 'POST', `/api/store-suppliers/${conn.storeId}/${conn.connectionId}/import`, {
    products: chosen.map((c) => ({ supplierProductId: c.id, variantIds: [c.variantId] })),
  });
  if (imported.errors.length || imported.products.length !== PRODUCTS) throw new Error(`import: ${JSON.stringify(imported.errors)}`);
  const partKey = `supplier:${conn.connectionId}`;

  // One order placed and submitted through the API: the template of the seeded rows, and a check that a part dispatches.
  const p0 = imported.products[0];
  const template = await api(svc, key, 'POST', `/api/store-orders/${conn.storeId}`, {
    items: [{ productId: p0.id, variantId: p0.variants[0].id, quantity: 1 }],
    destination: DESTINATION,
    paymentMethod: 'manual',
    contractModel: 'standard',
  });
  const submitted = await api(svc, key, 'POST', `/api/store-suppliers/${conn.storeId}/orders/${template.id}/groups/${encodeURIComponent(partKey)}/submit`, {});
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
    const [{ order_counter: base }] = (
      await c.query('UPDATE stores SET order_counter = order_counter + $2 WHERE id = $1 RETURNING order_counter - $2 AS order_counter', [conn.storeId, parts])
    ).rows;
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
      `INSERT INTO store_order_items (store_id, id, order_id, position, product_id, variant_id, sku, title, quantity, unit_price_minor, group_key, supplier_variant_id, link_cost_minor)
       SELECT t.store_id, p.item_id, p.order_id, 0, l.product_id, l.variant_id, l.sku, l.title, 1, l.price_minor, $1, l.supplier_variant_id, l.cost_minor
         FROM bench_parts p JOIN bench_links l ON l.k = p.k CROSS JOIN (SELECT store_id FROM store_orders WHERE id = $2) t`,
      [partKey, template.id],
    );
    await c.query(
      `INSERT INTO fulfilment_groups (store_id, order_id, group_key, connection_id, status, shipment, fulfilled_by_store)
       SELECT t.store_id, order_id, $1, $2, 'pending', NULL, false FROM bench_parts CROSS JOIN (SELECT store_id FROM store_orders WHERE id = $3) t`,
      [partKey, conn.connectionId, template.id],
    );
    // As ensure() writes them on submit: status queued, attempt 1, its number, unpaid, not pay-now. Left out for
    // orders that are to be confirmed during the run (their supplier orders come from the confirmation).
    if (opts.confirmed !== false)
      await c.query(
        `INSERT INTO supplier_orders (id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, supplier_order_number, payment_status, pay_now, destination, created_by_account_id, created_by_key_id, created_at, updated_at)
       SELECT p.so_id, t.store_id, p.order_id, $2, $3, 'sandbox', p.number, t.contract_model, 'queued', 'ss-' || left(replace(p.so_id::text, '-', ''), 20) || '-1', 'unpaid', false, t.destination, t.created_by_account_id, t.created_by_key_id, p.at, p.at
         FROM bench_parts p CROSS JOIN (SELECT * FROM store_orders WHERE id = $1) t`,
        [template.id, partKey, conn.connectionId],
      );
    if (opts.confirmed !== false)
      await c.query(
        `INSERT INTO supplier_order_events (store_id, supplier_order_id, at, actor_kind, actor_id, type, from_status, to_status, details)
       SELECT t.store_id, p.so_id, p.at, 'key', t.created_by_key_id::text, 'created', NULL, 'queued', '{"trigger":"submit"}' FROM bench_parts p CROSS JOIN (SELECT * FROM store_orders WHERE id = $1) t`,
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
      parts: rows.rows.map((r) => ({ id: r.id, orderId: r.order_id, partKey, number: r.number, supplierProductId: r.supplier_product_id })),
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

/** The service's dispatch runner options at their defaults (dispatchRunnerOptions in server/dispatch/index.ts). */
export const RUNNER_OPTIONS = {
  concurrency: 400,
  groupConcurrency: { default: 4, tiers: { sandbox: 20, 'sandbox-signin': 20, cj: 2 } },
  pollMs: 2000,
  heartbeatSeconds: 10,
  batchWindowMs: DISPATCH_BATCH_WINDOW_MS,
};

export type Part = DispatchShop['parts'][number] & { connectionId: string; storeId: string };
export const partsOf = (shops: DispatchShop[]): Part[] =>
  shops.flatMap((s) => s.parts.map((p) => ({ ...p, connectionId: s.connectionId, storeId: s.storeId })));

/** Puts one dispatch job per part on `queue` (as the service's queue does: singleton key, the connection as group) and wakes the runners. */
export async function queueParts(boss: Boss, db: Pool, queue: string, parts: Part[]): Promise<void> {
  for (let i = 0; i < parts.length; i += 500) {
    await boss.insert(
      queue,
      parts
        .slice(i, i + 500)
        .map((p) => ({ data: dispatchJobData(p), singletonKey: singletonKeyOf(p), group: { id: p.connectionId, tier: 'sandbox' } })) as never,
    );
    await db.query(`SELECT pg_notify('${WORK_CHANNEL}', '')`);
  }
}

/** Polls `done()` every 100 ms from now until it reaches `total` or the window closes; answers the rate. */
export async function drain(done: () => Promise<number>, total: number, windowMs = WINDOW_MS): Promise<{ done: number; ms: number; perSecond: number }> {
  const t0 = performance.now();
  let n = 0;
  while ((n = await done()) < total && performance.now() - t0 < windowMs) await new Promise((r) => setTimeout(r, 100));
  const ms = performance.now() - t0;
  return { done: n, ms, perSecond: n / (ms / 1000) };
}

/** How many parts of these shops left `queued`, the warm-up submits (one per shop, sent before any run) not counted. */
export const sentOf = (db: Pool, shopsOrStoreIds: Array<DispatchShop | string>) => {
  const storeIds = shopsOrStoreIds.map((s) => (typeof s === 'string' ? s : s.storeId));
  const warmUps = shopsOrStoreIds.flatMap((s) => (typeof s === 'string' ? [] : [s.warmUpNumber]));
  return async () =>
    (
      await db.query(`SELECT count(*)::int AS n FROM supplier_orders WHERE store_id = ANY($1) AND status <> 'queued' AND supplier_order_number <> ALL($2)`, [
        storeIds,
        warmUps,
      ])
    ).rows[0].n as number;
};

/** Every part of these shops that left `queued` is submitted with exactly one order at the sandbox. Answers how many. */
export async function checkOnce(db: Pool, sandbox: BenchSandbox, shops: DispatchShop[], warmUps = true): Promise<number> {
  const { rows } = await db.query(`SELECT supplier_order_number AS number, status FROM supplier_orders WHERE store_id = ANY($1) AND status <> 'queued'`, [
    shops.map((s) => s.storeId),
  ]);
  const got = await sandbox.control<{ ordersByNumber: Record<string, number> }>('GET', '/received');
  const wrong = rows.filter(
    (r) => (got.ordersByNumber[r.number] ?? 0) !== (r.status === 'submitted' || r.status === 'confirmed' ? 1 : 0) && !(warmUps && r.status === 'needsReview'),
  );
  if (wrong.length) throw new Error(`${wrong.length} supplier orders not ordered exactly once, e.g. ${JSON.stringify(wrong.slice(0, 3))}`);
  return rows.length;
}

export async function shops(
  svc: BenchService,
  sandbox: BenchSandbox,
  n: number,
  parts: number,
  opts: Parameters<typeof dispatchShop>[3] = {},
): Promise<DispatchShop[]> {
  const key = opts.key ?? (await developerKey(svc)).key;
  const out: DispatchShop[] = [];
  for (let i = 0; i < n; i++) out.push(await dispatchShop(svc, sandbox, parts, { products: 5, ...opts, key }));
  return out;
}

/** The supplier's floor: per part, its 3 calls in sequence straight against the sandbox, `concurrency` parts at a time. */
export async function supplierFloor(sandbox: BenchSandbox, shop: DispatchShop, parts: number, concurrency: number): Promise<number> {
  const variantOf = new Map<string, string>();
  for (const id of shop.supplierProductIds)
    variantOf.set(id, (await sandbox.v1<{ variants: Array<{ id: string }> }>(shop.liveKey, 'GET', `/products/${encodeURIComponent(id)}`)).variants[0].id);
  const t0 = performance.now();
  await mapLimit(
    Array.from({ length: parts }, (_, i) => ({ pid: shop.supplierProductIds[i % shop.supplierProductIds.length], number: `floor-${crypto.randomUUID()}` })),
    concurrency,
    async (p) => {
      await sandbox.v1(shop.liveKey, 'GET', `/products/${encodeURIComponent(p.pid)}`);
      await sandbox.v1(shop.liveKey, 'GET', `/orders?orderNumber=${encodeURIComponent(p.number)}`);
      await sandbox.v1(shop.liveKey, 'POST', '/orders', {
        orderNumber: p.number,
        items: [{ variantId: variantOf.get(p.pid)!, quantity: 1 }],
        destination: DESTINATION,
      });
    },
  );
  return parts / ((performance.now() - t0) / 1000);
}
