import { createStore, Developer, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
let connId: string;
let catalogue: any[];

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'import', sandbox });
  owner = await newDeveloper(svc, { plan: 'pro', credits: 2000 });
  storeId = await createStore(svc, owner.key);
  const acc = await sandbox.account();
  connId = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result.id;
  catalogue = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=100&page=3')).body.items;
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const path = (p: string) => `/api/store-suppliers/${storeId}/${connId}${p}`;
const credits = async () => (await svc.db.query('SELECT credits FROM accounts WHERE id = $1', [owner.accountId])).rows[0].credits as number;
const count = async (table: string) => (await svc.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE store_id = $1`, [storeId])).rows[0].n as number;
const rule = { multiplier: '2', markupMinor: 0, endingMinor: 99, minimumProfitMinor: 500 };

test('preview prices the products with the rule and names duplicates; nothing is written or charged', async () => {
  const p = catalogue[0];
  const before = { credits: await credits(), products: await count('store_products') };
  const res = await svc.call('POST', path('/import/preview'), {
    key: owner.key,
    body: { products: [{ supplierProductId: p.id }, { supplierProductId: 'SBX-P99999' }], priceRule: rule },
  });
  expect(res.status).toBe(200);
  const item = res.body.result.items[0];
  expect(item).toMatchObject({ supplierProductId: p.id, title: p.title, duplicateOf: [], currencyMatchesStore: true });
  for (const [i, v] of item.variants.entries()) {
    const cost = p.variants[i].costMinor;
    const raw = Math.max(cost * 2, cost + 500);
    const expected = raw % 100 <= 99 ? Math.floor(raw / 100) * 100 + 99 : raw;
    expect([v.supplierVariantId, v.costMinor, v.priceMinor]).toEqual([p.variants[i].id, cost, expected < raw ? expected + 100 : expected]);
  }
  expect(res.body.result.errors).toEqual([{ supplierProductId: 'SBX-P99999', code: 'supplierProductNotFound', message: expect.any(String) }]);
  expect({ credits: await credits(), products: await count('store_products') }).toEqual(before);
});

test('import of up to 50: products, variants and links created at once, priced by the rule, charged per product', async () => {
  const chosen = catalogue.slice(1, 4);
  const before = await credits();
  const res = await svc.call('POST', path('/import'), {
    key: owner.key,
    body: { products: chosen.map((p) => ({ supplierProductId: p.id })), priceRule: rule },
    headers: { 'X-Request-Id': 'import-3' },
  });
  expect(res.status).toBe(201);
  expect(res.body.result.errors).toEqual([]);
  expect(res.body.result.products).toHaveLength(3);
  expect(res.body.result.links).toHaveLength(3);
  for (const [i, p] of chosen.entries()) {
    const product = res.body.result.products[i];
    const link = res.body.result.links.find((l: any) => l.productId === product.id);
    expect(product.title).toBe(p.title);
    expect(product.variants.map((v: any) => v.sku)).toEqual(p.variants.map((v: any) => v.sku));
    expect(product.variants.map((v: any) => v.stock)).toEqual(p.variants.map((v: any) => (v.available ? v.stock : 0)));
    expect(link).toMatchObject({
      supplierKey: 'sandbox',
      supplierProductId: p.id,
      connectionId: connId,
      lastSyncError: null,
      priceRule: expect.objectContaining({ multiplier: '2', endingMinor: 99 }),
    });
    expect(link.variants.map((v: any) => [v.supplierVariantId, v.costMinor])).toEqual(p.variants.map((v: any) => [v.id, v.costMinor]));
    for (const v of product.variants) expect(v.priceMinor % 100).toBe(99);
  }
  expect(await credits()).toBe(before - 3 * 2);
  const ledger = await svc.db.query(`SELECT action, amount, api_key_id FROM credit_ledger WHERE request_id = 'import-3'`);
  expect(ledger.rows).toEqual([{ action: 'supplierProduct.import', amount: -6, api_key_id: owner.keyId }]);

  // The same products again: named as duplicates by preview, refused by import, and refunded.
  const preview = await svc.call('POST', path('/import/preview'), { key: owner.key, body: { products: [{ supplierProductId: chosen[0].id }] } });
  expect(preview.body.result.items[0].duplicateOf).toEqual([res.body.result.products[0].id]);
  const again = await svc.call('POST', path('/import'), {
    key: owner.key,
    body: { products: [{ supplierProductId: chosen[0].id }, { supplierProductId: catalogue[4].id }] },
  });
  expect(again.status).toBe(201);
  expect(again.body.result.products).toHaveLength(1);
  expect(again.body.result.errors).toEqual([{ supplierProductId: chosen[0].id, code: 'alreadyImported', message: expect.any(String) }]);
  expect(await credits()).toBe(before - 4 * 2);
});

test("an unknown product: 422 nothingImported with its own code and a message in the merchant's words; a mix answers 201 with what was made", async () => {
  const before = { credits: await credits(), products: await count('store_products') };
  const res = await svc.call('POST', path('/import'), { key: owner.key, body: { products: [{ supplierProductId: 'SBX-P99999' }] } });
  expect(res.status).toBe(422);
  expect(res.body.error).toEqual({
    code: 'nothingImported',
    message: "Nothing was imported: Sandbox Supplier has no product SBX-P99999. Check the id, or paste the product's link instead.",
    details: [
      {
        supplierProductId: 'SBX-P99999',
        code: 'supplierProductNotFound',
        message: "Sandbox Supplier has no product SBX-P99999. Check the id, or paste the product's link instead.",
      },
    ],
  });
  expect(res.text).not.toMatch(/\/v1\/|GET |HTTP \d/);
  expect({ credits: await credits(), products: await count('store_products') }).toEqual(before);

  const mixed = await svc.call('POST', path('/import'), {
    key: owner.key,
    body: { products: [{ supplierProductId: catalogue[30].id }, { supplierProductId: 'SBX-P99998' }] },
  });
  expect(mixed.status).toBe(201);
  expect(mixed.body.result.products).toHaveLength(1);
  expect(mixed.body.result.errors).toEqual([
    { supplierProductId: 'SBX-P99998', code: 'supplierProductNotFound', message: expect.stringContaining('has no product SBX-P99998') },
  ]);
  expect(mixed.text).not.toMatch(/\/v1\//);
  expect({ credits: await credits(), products: await count('store_products') }).toEqual({ credits: before.credits - 2, products: before.products + 1 });

  const preview = await svc.call('POST', path('/import/preview'), { key: owner.key, body: { products: [{ supplierProductId: 'SBX-P99999' }] } });
  expect(preview.body.result.errors[0].message).toBe(res.body.error.details[0].message);
});

test('too few credits for the whole import: 402 and nothing created', async () => {
  const poor = await newDeveloper(svc, { plan: 'pro' });
  const store = await createStore(svc, poor.key);
  const acc = await sandbox.account();
  const id = (
    await svc.call('POST', `/api/store-suppliers/${store}`, {
      key: poor.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result.id;
  await svc.db.query('UPDATE accounts SET credits = 3 WHERE id = $1', [poor.accountId]);
  const res = await svc.call('POST', `/api/store-suppliers/${store}/${id}/import`, {
    key: poor.key,
    body: { products: catalogue.slice(10, 12).map((p) => ({ supplierProductId: p.id })) },
  });
  expect(res.status).toBe(402);
  expect((await svc.db.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [store])).rows[0].n).toBe(0);
});

test('a product that cannot be imported leaves nothing half-written (variant SKU already used by the store)', async () => {
  const p = catalogue[20];
  await svc.call('POST', `/api/store-products/${storeId}`, {
    key: owner.key,
    body: { title: 'Mine', variants: [{ sku: p.variants[p.variants.length - 1].sku, title: 'x', priceMinor: 1, currency: 'USD', stock: 1 }] },
  });
  const products = await count('store_products');
  const res = await svc.call('POST', path('/import'), { key: owner.key, body: { products: [{ supplierProductId: p.id }] } });
  expect(res.status).toBe(422);
  expect(res.body.error).toMatchObject({ code: 'nothingImported', details: [{ supplierProductId: p.id, code: 'skuTaken', message: expect.any(String) }] });
  expect(await count('store_products')).toBe(products);
  expect((await svc.db.query('SELECT count(*)::int AS n FROM product_links WHERE supplier_product_id = $1', [p.id])).rows[0].n).toBe(0);
});

test('an import of 120 products runs as a job that reports progress until it completes', async () => {
  const all = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=100&page=5')).body.items.concat(
    (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=100&page=6')).body.items,
  );
  const chosen = all.slice(0, 120);
  const before = await credits();
  // Each supplier read takes 100 ms, so the job runs for seconds and its progress can be watched.
  await sandbox.control('POST', '/faults', { latencyMs: 100 });
  const res = await svc.call('POST', path('/import'), { key: owner.key, body: { products: chosen.map((p: any) => ({ supplierProductId: p.id })) } });
  expect(res.status).toBe(202);
  expect(res.body.result).toMatchObject({ total: 120, done: 0, failed: 0, errors: [], createdProductIds: [] });
  expect(['queued', 'running']).toContain(res.body.result.status);
  const jobId = res.body.result.id;
  let job: any;
  const seenDone: number[] = [];
  try {
    job = await eventually(
      async () => {
        const now = (await svc.call('GET', `/api/store-suppliers/${storeId}/imports/${jobId}`, { key: owner.key })).body.result;
        seenDone.push(now.done);
        return now.status === 'completed' ? now : undefined;
      },
      120000,
      'the import job to complete',
    );
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
  expect(job).toMatchObject({ status: 'completed', total: 120, done: 120, failed: 0, errors: [] });
  // Progress was reported on the way: counts in between, never going back.
  expect(seenDone.some((n) => n > 0 && n < 120)).toBe(true);
  expect(seenDone).toEqual([...seenDone].sort((a, b) => a - b));
  expect(new Set(job.createdProductIds).size).toBe(120);
  expect(job.finishedAt).not.toBeNull();
  const linked = await svc.db.query(
    'SELECT count(DISTINCT supplier_product_id)::int AS n FROM product_links WHERE store_id = $1 AND supplier_product_id = ANY($2)',
    [storeId, chosen.map((p: any) => p.id)],
  );
  expect(linked.rows[0].n).toBe(120);
  expect(await credits()).toBe(before - 120 * 2);
  // Record scope: an own key of the same account does not see a job it did not start.
  const other = await svc.call('POST', '/api/api-keys', { session: owner.session, body: { name: 'own', recordScope: 'own' } });
  const hidden = await svc.call('GET', `/api/store-suppliers/${storeId}/imports/${jobId}`, { key: other.body.result.key });
  expect(hidden.status).toBe(404);
  // The store's jobs, newest first, with their progress; an own-scope key lists none it did not start.
  const listed = await svc.call('GET', `/api/store-suppliers/${storeId}/imports?pageSize=1`, { key: owner.key });
  expect(listed.status).toBe(200);
  expect(listed.body.result.items[0]).toMatchObject({ id: jobId, status: 'completed', total: 120, done: 120, failed: 0 });
  expect(listed.body.result.pagination).toMatchObject({ totalCount: 1, hasMore: false, pageSize: 1 });
  const ownList = await svc.call('GET', `/api/store-suppliers/${storeId}/imports`, { key: other.body.result.key });
  expect(ownList.body.result).toMatchObject({ items: [], pagination: { totalCount: 0, hasMore: false } });
});

leakScanTest();
