import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { mapLimit } from '../server/platform/concurrency';
import { DEFAULT_PRICE_RULE } from '../server/catalogue/price-rule';
import { connectedStore, developerKey, Figure, runCli, startBenchSandbox, startBenchService } from './lib';
import { emptyUse, metered } from './cpu';
import { median } from './load';

const LINKS = 10_000;
const DISTINCT_PRODUCTS = 1_000;
/** PRODUCT_CONCURRENCY in server/catalogue/sync.ts: supplier products read at once by one connection's sync. */
const SYNC_CONCURRENCY = 8;
const TIMEOUT_MS = 120_000;
/** The import switches of a link made with the defaults (DEFAULT_SYNC in server/catalogue/types.ts). */
const SYNC_SWITCHES = { cost: true, price: true, stock: true, title: false, availability: true };

interface SandboxProduct {
  id: string;
  title: string;
  description: string;
  variants: Array<{ id: string; sku: string; title: string; costMinor: number; stock: number; available: boolean }>;
}

/**
 * The hourly link sync of one connection with 10,000 links, queued with `cli.js sync-links` and timed until every
 * link is synced, against the supplier reads it needs done straight against the sandbox at the sync's concurrency.
 */
export async function syncBench(databaseUrl: string): Promise<Figure[]> {
  const sandbox = await startBenchSandbox();
  // The hourly cron is moved out of the way so it cannot start a second sync during the measurement.
  const svc = await startBenchService(databaseUrl, { LINK_SYNC_CRON: '0 0 1 1 *' }, { sandboxUrl: sandbox.baseUrl, profile: true });
  try {
    const { key, accountId } = await developerKey(svc);
    const conn = await connectedStore(svc, sandbox, key, 'Bench sync');
    const products: SandboxProduct[] = [];
    for (let page = 1; products.length < DISTINCT_PRODUCTS; page++) {
      const got = await sandbox.v1<{ items: SandboxProduct[] }>(conn.liveKey, 'GET', `/products?page=${page}&pageSize=100`);
      if (!got.items.length) throw new Error(`the sandbox has only ${products.length} products`);
      products.push(...got.items);
    }
    products.length = DISTINCT_PRODUCTS;

    const seedStarted = performance.now();
    await seed(svc.db, { storeId: conn.storeId, connectionId: conn.connectionId, accountId }, products);
    const seedMs = performance.now() - seedStarted;

    // Baseline: each distinct product read once, SYNC_CONCURRENCY at a time, as the sync reads them.
    const readAll = async () => {
      const started = performance.now();
      await mapLimit(products, SYNC_CONCURRENCY, (p) => sandbox.v1(conn.liveKey, 'GET', `/products/${encodeURIComponent(p.id)}`));
      return performance.now() - started;
    };
    await readAll(); // warm-up
    const reads = [await readAll(), await readAll(), await readAll()];
    const baselineMs = median(reads);

    // Subject: from the operator command to the last link synced (the database's clock decides "later").
    const t0: Date = (await svc.db.query('SELECT clock_timestamp() AS t')).rows[0].t;
    const started = performance.now();
    let cliMs = 0;
    // The service's CPU (and the database's) from the command to the last link, per link synced.
    const cpu = emptyUse(svc.profileDir);
    await metered(svc.pid, cpu, async () => {
      await runCli(svc, 'sync-links');
      cliMs = performance.now() - started;
      for (;;) {
        const synced = (await svc.db.query('SELECT count(*)::int AS n FROM product_links WHERE store_id = $1 AND last_sync_at > $2', [conn.storeId, t0]))
          .rows[0].n;
        if (synced >= LINKS) return { total: synced };
        if (performance.now() - started > TIMEOUT_MS) throw new Error(`only ${synced} of ${LINKS} links synced after ${TIMEOUT_MS / 1000} s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    const syncMs = performance.now() - started;
    // Once running: from the moment a worker took the connection's sync job to the last link written, on the database's clock.
    const span = (
      await svc.db.query(
        `SELECT extract(epoch FROM j.started_on - $2::timestamptz) AS pick_up, extract(epoch FROM (SELECT max(last_sync_at) FROM product_links WHERE store_id = $1) - j.started_on) AS work
           FROM pgboss.job j WHERE j.name = 'catalog.sync-connection' AND j.started_on > $2 ORDER BY j.started_on LIMIT 1`,
        [conn.storeId, t0],
      )
    ).rows[0];
    const pickUpS = Number(span.pick_up);
    const workS = Number(span.work);
    const failed = (
      await svc.db.query('SELECT count(*)::int AS n, min(last_sync_error) AS e FROM product_links WHERE store_id = $1 AND last_sync_error IS NOT NULL', [
        conn.storeId,
      ])
    ).rows[0];
    if (failed.n) throw new Error(`${failed.n} links failed to sync, e.g. ${failed.e}`);

    const subject = LINKS / workS;
    const baseline = LINKS / (baselineMs / 1000);
    return [
      {
        name: `Hourly link sync of ${LINKS.toLocaleString('en')} links (${DISTINCT_PRODUCTS.toLocaleString('en')} supplier products, one connection)`,
        subject: { value: Math.round(subject), unit: `links/s (${workS.toFixed(2)} s once running)` },
        baseline: { value: Math.round(baseline), unit: `links/s (${(baselineMs / 1000).toFixed(2)} s, median of 3)` },
        baselineLabel: `the ${DISTINCT_PRODUCTS.toLocaleString('en')} supplier reads the sync needs, straight from the sandbox, ${SYNC_CONCURRENCY} at a time`,
        ratio: subject / baseline,
        command: 'npm run bench -- sync',
        cpu: { service: cpu, per: 'link' },
        notes:
          `Ratio = links synced per second once running ÷ the supplier's floor (the same reads with nothing else); 1 would mean the sync costs no more than reading the supplier, below 1 is the service's own work. ` +
          `Seeded by SQL in ${(seedMs / 1000).toFixed(1)} s as imported links with the default sync switches: ${LINKS.toLocaleString('en')} store products with all their variants, each supplier product linked from ${LINKS / DISTINCT_PRODUCTS} store products ` +
          `(one connection; the sync reads each supplier product once, 8 at a time, and applies each batch of 100 products to all their links in set-based statements, one transaction per batch, reading the next batch while one is written). No added supplier latency. ` +
          `Once running = from the worker taking the connection's sync job (pg-boss started_on) to the last link's last_sync_at, on the database's clock. End to end, from \`node dist/server/cli.js sync-links\` (its own start and pg-boss connection took ${(cliMs / 1000).toFixed(1)} s) through the fan-out job and the queue's pick-up (${pickUpS.toFixed(1)} s after the start) to the last link: ${(syncMs / 1000).toFixed(1)} s (${Math.round(LINKS / (syncMs / 1000)).toLocaleString('en')} links/s); role \`all\`.`,
      },
    ];
  } finally {
    await svc.stop();
    await sandbox.close();
  }
}

/** 10,000 imported-like links, spread round-robin over the products: store products, variants, links and variant mappings. */
async function seed(db: import('pg').Pool, ids: { storeId: string; connectionId: string; accountId: string }, products: SandboxProduct[]): Promise<void> {
  const sp = { id: [] as string[], title: [] as string[], description: [] as string[], age: [] as number[] };
  const sv = {
    id: [] as string[],
    product: [] as string[],
    sku: [] as string[],
    title: [] as string[],
    price: [] as number[],
    stock: [] as number[],
    position: [] as number[],
  };
  const pl = { id: [] as string[], product: [] as string[], supplierProduct: [] as string[] };
  const lv = {
    link: [] as string[],
    storeVariant: [] as string[],
    supplierVariant: [] as string[],
    cost: [] as number[],
    stock: [] as number[],
    available: [] as boolean[],
  };
  for (let i = 0; i < LINKS; i++) {
    const p = products[i % products.length];
    const copy = Math.floor(i / products.length);
    const productId = crypto.randomUUID();
    const linkId = crypto.randomUUID();
    sp.id.push(productId);
    sp.title.push(p.title);
    sp.description.push(p.description);
    sp.age.push(LINKS - i);
    pl.id.push(linkId);
    pl.product.push(productId);
    pl.supplierProduct.push(p.id);
    p.variants.forEach((v, position) => {
      const variantId = crypto.randomUUID();
      const stock = v.available ? v.stock : 0;
      sv.id.push(variantId);
      sv.product.push(productId);
      sv.sku.push(`${v.sku}-${copy}`);
      sv.title.push(v.title);
      sv.price.push(v.costMinor * 2);
      sv.stock.push(stock);
      sv.position.push(position);
      lv.link.push(linkId);
      lv.storeVariant.push(variantId);
      lv.supplierVariant.push(v.id);
      lv.cost.push(v.costMinor);
      lv.stock.push(v.stock);
      lv.available.push(v.available);
    });
  }
  await db.query(
    `INSERT INTO store_products (id, store_id, title, description, status, created_by_account_id, created_at, updated_at)
     SELECT u.id, $1, u.title, u.description, 'active', $2, now() - u.age * interval '1 second', now() - u.age * interval '1 second'
       FROM unnest($3::uuid[], $4::text[], $5::text[], $6::int[]) AS u(id, title, description, age)`,
    [ids.storeId, ids.accountId, sp.id, sp.title, sp.description, sp.age],
  );
  await db.query(
    `INSERT INTO store_variants (id, product_id, store_id, sku, title, price_minor, currency, stock, position)
     SELECT u.id, u.product_id, $1, u.sku, u.title, u.price, 'USD', u.stock, u.position
       FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::bigint[], $7::int[], $8::int[]) AS u(id, product_id, sku, title, price, stock, position)`,
    [ids.storeId, sv.id, sv.product, sv.sku, sv.title, sv.price, sv.stock, sv.position],
  );
  await db.query(
    `INSERT INTO product_links (id, store_id, product_id, connection_id, supplier_key, supplier_product_id, price_rule, sync, last_sync_at, created_by_account_id, created_at, updated_at)
     SELECT u.id, $1, u.product_id, $2, 'sandbox', u.supplier_product_id, $3::jsonb, $4::jsonb, now() - interval '1 hour', $5, sp.created_at, sp.created_at
       FROM unnest($6::uuid[], $7::uuid[], $8::text[]) AS u(id, product_id, supplier_product_id) JOIN store_products sp ON sp.id = u.product_id`,
    [
      ids.storeId,
      ids.connectionId,
      JSON.stringify({ ...DEFAULT_PRICE_RULE, multiplier: '2' }),
      JSON.stringify(SYNC_SWITCHES),
      ids.accountId,
      pl.id,
      pl.product,
      pl.supplierProduct,
    ],
  );
  await db.query(
    `INSERT INTO product_link_variants (store_id, link_id, store_variant_id, supplier_variant_id, cost_minor, currency, stock, available)
     SELECT $7, u.link_id, u.store_variant_id, u.supplier_variant_id, u.cost, 'USD', u.stock, u.available
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[], $5::int[], $6::bool[]) AS u(link_id, store_variant_id, supplier_variant_id, cost, stock, available)`,
    [lv.link, lv.storeVariant, lv.supplierVariant, lv.cost, lv.stock, lv.available, ids.storeId],
  );
  await db.query('ANALYZE store_products; ANALYZE store_variants; ANALYZE product_links; ANALYZE product_link_variants');
}
