import { developerKey, Figure, load, startBenchService } from './lib';

const PRODUCTS = 20000;

/** A page of 25 store products through the route table against a bare Koa route running one indexed query. */
export async function productsPage(databaseUrl: string): Promise<Figure[]> {
  const svc = await startBenchService(databaseUrl);
  try {
    const { key, accountId } = await developerKey(svc.baseUrl);
    const store = await fetch(`${svc.baseUrl}/api/stores`, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Bench', currency: 'USD' }) });
    const storeId = ((await store.json()) as { result: { id: string } }).result.id;
    await svc.db.query(
      `INSERT INTO store_products (id, store_id, title, description, status, created_by_account_id, created_at)
       SELECT gen_random_uuid(), $1, 'Product ' || g, '', 'active', $2, now() - g * interval '1 second' FROM generate_series(1, $3) g`,
      [storeId, accountId, PRODUCTS],
    );
    await svc.db.query(
      `INSERT INTO store_variants (id, product_id, store_id, sku, title, price_minor, currency, stock, position)
       SELECT gen_random_uuid(), p.id, p.store_id, 'SKU-' || p.id, 'Default', 1999, 'USD', 5, 0 FROM store_products p WHERE p.store_id = $1`,
      [storeId],
    );
    await svc.db.query('ANALYZE store_products; ANALYZE store_variants');
    const baseline = await load(`${svc.baseUrl}/bench/baseline/store-products/${storeId}`);
    const subject = await load(`${svc.baseUrl}/api/store-products/${storeId}?pageSize=25`, { 'X-API-Key': key });
    if (subject.non2xx) throw new Error(`${subject.non2xx} non-2xx answers from the product list`);
    return [
      {
        name: `Page of 25 store products (store with ${PRODUCTS.toLocaleString('en')} products)`,
        subject,
        baseline,
        baselineLabel: 'bare Koa route, one indexed query on store_products (same server)',
        ratio: subject.reqPerSec / baseline.reqPerSec,
        command: 'npm run bench -- products',
        notes: 'The real route adds key auth, store access, validation, the variants query, an exact totalCount and signed cursors.',
      },
    ];
  } finally {
    await svc.stop();
  }
}
