import { BenchService, developerKey, Figure, startBaselineServer, startBenchService } from './lib';
import { load, loadPair } from './load';

const PRODUCTS = 20000;

/** A Developer's store with `n` products of one variant each, seeded by SQL; answers its key and store. */
export async function seedProductStore(svc: BenchService, n: number): Promise<{ key: string; storeId: string }> {
  const { key, accountId } = await developerKey(svc);
  const store = await fetch(`${svc.baseUrl}/api/stores`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Bench', currency: 'USD' }),
  });
  const storeId = ((await store.json()) as { result: { id: string } }).result.id;
  await svc.db.query(
    `INSERT INTO store_products (id, store_id, title, description, status, created_by_account_id, created_at)
     SELECT gen_random_uuid(), $1, 'Product ' || g, '', 'active', $2, now() - g * interval '1 second' FROM generate_series(1, $3) g`,
    [storeId, accountId, n],
  );
  await svc.db.query(
    `INSERT INTO store_variants (id, product_id, store_id, sku, title, price_minor, currency, stock, position)
     SELECT gen_random_uuid(), p.id, p.store_id, 'SKU-' || p.id, 'Default', 1999, 'USD', 5, 0 FROM store_products p WHERE p.store_id = $1`,
    [storeId],
  );
  await svc.db.query('ANALYZE store_products; ANALYZE store_variants');
  return { key, storeId };
}

/** A page of 25 store products through the route table against a bare Koa route running one indexed query. */
export async function productsPage(databaseUrl: string): Promise<Figure[]> {
  // Role `api`: the request path's process alone, no workers polling beside it while its CPU is metered.
  const svc = await startBenchService(databaseUrl, {}, { args: ['--role', 'api'], profile: true });
  const bare = await startBaselineServer(databaseUrl, svc.appSecret, { profile: true });
  try {
    const { key, storeId } = await seedProductStore(svc, PRODUCTS);
    const bareUrl = `${bare.baseUrl}/store-products/${storeId}`;
    const listUrl = `${svc.baseUrl}/api/store-products/${storeId}?pageSize=25`;
    const page = (await (await fetch(listUrl, { headers: { 'X-API-Key': key } })).json()) as {
      result: { items: Array<{ id: string; variants: unknown[] }>; pagination: { totalCount: number } };
    };
    const rows = (await (await fetch(bareUrl, { headers: { 'X-API-Key': key } })).json()) as Array<{ id: string; total_count: string }>;
    if (page.result.pagination.totalCount !== PRODUCTS || Number(rows[0].total_count) !== PRODUCTS)
      throw new Error('totalCount differs from the products seeded');
    if (page.result.items.some((p, i) => p.id !== rows[i].id || p.variants.length !== 1)) throw new Error('the bare route answers other rows than the list');
    await load(bareUrl, { 'X-API-Key': key }, { seconds: 1 }); // warm-up
    await load(listUrl, { 'X-API-Key': key }, { seconds: 1 });
    const { baseline, subject } = await loadPair(
      { url: bareUrl, headers: { 'X-API-Key': key }, ...bare },
      { url: listUrl, headers: { 'X-API-Key': key }, ...svc },
    );
    if (subject.non2xx) throw new Error(`${subject.non2xx} non-2xx answers from the product list`);
    return [
      {
        name: `Page of 25 store products (store with ${PRODUCTS.toLocaleString('en')} products)`,
        subject,
        baseline,
        baselineLabel:
          'bare Koa route (bench/baseline-server.ts): one indexed key lookup, then one statement for the 26 rows, their variants and the kept count',
        ratio: subject.reqPerSec / baseline.reqPerSec,
        command: 'npm run bench -- products',
        cpu: { service: subject.cpu!, bare: baseline.cpu!, per: 'request' },
        notes:
          'The real route reads key, account and store access in one statement, then the page, its variants and the exact totalCount (store_product_counts) in one more; it adds the pipeline (validation, permission), signed cursors, the envelope and the request log.',
      },
    ];
  } finally {
    await bare.stop();
    await svc.stop();
  }
}
