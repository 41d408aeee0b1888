import {
  createKey,
  createStore,
  Developer,
  eventually,
  leakScanTest,
  newDeveloper,
  runCli,
  Sandbox,
  Service,
  startSandbox,
  startService,
} from '../support/harness';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
let connId: string;
let acc: { accountId: string; liveKey: string };

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'links', sandbox, publicBaseUrl: true });
  owner = await newDeveloper(svc, { plan: 'pro', credits: 1000 });
  storeId = await createStore(svc, owner.key);
  acc = await sandbox.account();
  connId = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result.id;
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const links = (p = '') => `/api/store-suppliers/${storeId}/links${p}`;

async function supplierProduct(id: string) {
  return (await sandbox.v1('sbx_live_demo', 'GET', `/products/${id}`)).body;
}

/** A supplier product with at least two available variants in stock. */
async function productWithVariants(page: number) {
  const items = (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=100&page=${page}`)).body.items;
  return items.find((p: any) => p.variants.length >= 2 && p.variants.every((v: any) => v.available && v.stock > 0));
}

async function storeProduct(skus: string[], key = owner.key) {
  const res = await svc.call('POST', `/api/store-products/${storeId}`, {
    key,
    body: { title: 'Own product', variants: skus.map((sku) => ({ sku, title: sku, priceMinor: 1000, currency: 'USD', stock: 1 })) },
  });
  return res.body.result;
}

async function importOne(id: string, body: Record<string, unknown> = {}) {
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: id }], ...body },
  });
  if (res.status !== 201 || res.body.result.errors.length) throw new Error(res.text);
  return { product: res.body.result.products[0], link: res.body.result.links[0] };
}

async function variantsOf(productId: string) {
  return (await svc.db.query('SELECT sku, price_minor::int AS price, stock FROM store_variants WHERE product_id = $1 ORDER BY position', [productId])).rows;
}

test('link an existing product: every store variant must map to a variant the supplier product has', async () => {
  const sp = await productWithVariants(2);
  const own = await storeProduct(['L-A', 'L-B']);
  const [a, b] = own.variants;
  const body = (variants: unknown) => ({ productId: own.id, connectionId: connId, supplierProductId: sp.id, variants });

  const missing = await svc.call('POST', links(), { key: owner.key, body: body([{ storeVariantId: a.id, supplierVariantId: sp.variants[0].id }]) });
  expect(missing.status).toBe(400);
  expect(missing.body.error.code).toBe('variantMappingInvalid');
  expect(missing.body.error.details).toEqual([expect.objectContaining({ variantId: b.id })]);

  const unknown = await svc.call('POST', links(), {
    key: owner.key,
    body: body([
      { storeVariantId: a.id, supplierVariantId: sp.variants[0].id },
      { storeVariantId: b.id, supplierVariantId: `${sp.id}-V99` },
    ]),
  });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.details).toEqual([expect.objectContaining({ variantId: `${sp.id}-V99` })]);
  expect((await svc.db.query('SELECT count(*)::int AS n FROM product_links WHERE product_id = $1', [own.id])).rows[0].n).toBe(0);

  const ok = await svc.call('POST', links(), {
    key: owner.key,
    body: {
      ...body([
        { storeVariantId: a.id, supplierVariantId: sp.variants[1].id },
        { storeVariantId: b.id, supplierVariantId: sp.variants[0].id },
      ]),
      priceRule: { markupMinor: 250 },
      sync: { title: true },
    },
  });
  expect(ok.status).toBe(201);
  expect(ok.body.result).toMatchObject({
    productId: own.id,
    supplierProductId: sp.id,
    sync: { cost: true, price: true, stock: true, title: true, availability: true },
    priceRule: expect.objectContaining({ markupMinor: 250, multiplier: '1' }),
    createdByKeyId: owner.keyId,
  });
  expect(ok.body.result.variants.map((v: any) => [v.storeVariantId, v.supplierVariantId, v.costMinor])).toEqual([
    [a.id, sp.variants[1].id, sp.variants[1].costMinor],
    [b.id, sp.variants[0].id, sp.variants[0].costMinor],
  ]);
  const twice = await svc.call('POST', links(), {
    key: owner.key,
    body: body([
      { storeVariantId: a.id, supplierVariantId: sp.variants[0].id },
      { storeVariantId: b.id, supplierVariantId: sp.variants[1].id },
    ]),
  });
  expect(twice.status).toBe(409);

  // Sync now applies the switches: title copied, prices from cost + 250, stock copied.
  const synced = await svc.call('POST', links(`/${ok.body.result.id}/sync`), { key: owner.key });
  expect(synced.status).toBe(200);
  expect(synced.body.result.lastSyncError).toBeNull();
  expect(await variantsOf(own.id)).toEqual([
    { sku: 'L-A', price: sp.variants[1].costMinor + 250, stock: sp.variants[1].stock },
    { sku: 'L-B', price: sp.variants[0].costMinor + 250, stock: sp.variants[0].stock },
  ]);
  expect((await svc.db.query('SELECT title FROM store_products WHERE id = $1', [own.id])).rows[0].title).toBe(sp.title);

  // Synced again with nothing changed at the supplier: the link is stamped, its variants are not written again (same row versions).
  const versions = async () =>
    (
      await svc.db.query(
        `SELECT (SELECT array_agg(xmin::text ORDER BY id) FROM store_variants WHERE product_id = $1) AS store,
                (SELECT array_agg(xmin::text ORDER BY store_variant_id) FROM product_link_variants WHERE link_id = $2) AS link,
                (SELECT last_sync_at FROM product_links WHERE id = $2) AS at`,
        [own.id, ok.body.result.id],
      )
    ).rows[0];
  const before = await versions();
  expect((await svc.call('POST', links(`/${ok.body.result.id}/sync`), { key: owner.key })).body.result.lastSyncError).toBeNull();
  const after = await versions();
  expect(after.at.getTime()).toBeGreaterThan(before.at.getTime());
  expect(after.store).toEqual(before.store);
  expect(after.link).toEqual(before.link);
  expect(await variantsOf(own.id)).toEqual([
    { sku: 'L-A', price: sp.variants[1].costMinor + 250, stock: sp.variants[1].stock },
    { sku: 'L-B', price: sp.variants[0].costMinor + 250, stock: sp.variants[0].stock },
  ]);
});

test('list pages by cursor; update changes mapping, rule and switches; delete keeps the product', async () => {
  const made = [];
  for (const page of [3, 4, 5]) made.push(await importOne((await productWithVariants(page)).id));
  const first = await svc.call('GET', links('?pageSize=2'), { key: owner.key });
  expect(first.body.result.items).toHaveLength(2);
  expect(first.body.result.pagination.hasMore).toBe(true);
  const next = await svc.call('GET', links(`?pageSize=2&cursor=${encodeURIComponent(first.body.result.pagination.nextCursor)}`), { key: owner.key });
  const all = [...first.body.result.items, ...next.body.result.items].map((l: any) => l.id);
  for (const m of made) expect(all).toContain(m.link.id);
  const byProduct = await svc.call('GET', links(`?productId=${made[0].product.id}`), { key: owner.key });
  expect(byProduct.body.result.items.map((l: any) => l.id)).toEqual([made[0].link.id]);

  const { link, product } = made[1];
  const sp = await supplierProduct(link.supplierProductId);
  const swapped = link.variants.map((v: any, i: number) => ({
    storeVariantId: v.storeVariantId,
    supplierVariantId: sp.variants[(i + 1) % sp.variants.length].id,
  }));
  const upd = await svc.call('PUT', links(`/${link.id}`), {
    key: owner.key,
    body: { variants: swapped, priceRule: { multiplier: '3' }, sync: { stock: false } },
  });
  expect(upd.status).toBe(200);
  expect(upd.body.result.variants.map((v: any) => v.supplierVariantId)).toEqual(swapped.map((v: any) => v.supplierVariantId));
  expect(upd.body.result.priceRule.multiplier).toBe('3');
  expect(upd.body.result.sync).toMatchObject({ stock: false, price: true });
  const bad = await svc.call('PUT', links(`/${link.id}`), { key: owner.key, body: { priceRule: { multiplier: '0' } } });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details[0].field).toBe('body/priceRule/multiplier');

  expect((await svc.call('DELETE', links(`/${link.id}`), { key: owner.key })).status).toBe(204);
  expect((await svc.call('GET', links(`/${link.id}/sync`), { key: owner.key })).status).toBe(405);
  expect((await svc.call('POST', links(`/${link.id}/sync`), { key: owner.key })).status).toBe(404);
  expect((await svc.call('GET', `/api/store-products/${storeId}/${product.id}`, { key: owner.key })).status).toBe(200);
  const impact = await svc.call('GET', `/api/store-suppliers/${storeId}/${connId}/impact`, { key: owner.key });
  expect(impact.body.result.linkedProducts).toBe(
    (await svc.db.query('SELECT count(*)::int AS n FROM product_links WHERE connection_id = $1', [connId])).rows[0].n,
  );
});

test('hourly sync: cost, price and stock changes at the supplier reach the store within the switches; a dropped variant goes to stock 0', async () => {
  const spA = await productWithVariants(6);
  const spB = await productWithVariants(7);
  const a = await importOne(spA.id, { priceRule: { multiplier: '2' } });
  const b = await importOne(spB.id, { priceRule: { multiplier: '2' }, sync: { price: false, stock: false } });
  // Made by a key that is then revoked: its links keep syncing.
  const temp = await createKey(svc, owner.session, 'temporary', 'account');
  const spC = await productWithVariants(8);
  const c = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, { key: temp.key, body: { products: [{ supplierProductId: spC.id }] } });
  await svc.call('DELETE', `/api/api-keys/${temp.id}`, { session: owner.session });

  await sandbox.control('POST', `/variants/${spA.variants[0].id}`, { costMinor: 4321, stock: 7 });
  await sandbox.control('POST', `/variants/${spA.variants[1].id}`, { available: false });
  await sandbox.control('POST', `/variants/${spB.variants[0].id}`, { costMinor: 1111, stock: 3 });
  await sandbox.control('POST', `/variants/${spC.variants[0].id}`, { stock: 2 });

  const t0 = (await svc.db.query('SELECT now() AS t')).rows[0].t;
  runCli(svc, 'sync-links');
  await eventually(
    async () => {
      const rows = await svc.db.query('SELECT count(*)::int AS n FROM product_links WHERE id = ANY($1) AND last_sync_at > $2', [
        [a.link.id, b.link.id, c.body.result.links[0].id],
        t0,
      ]);
      return rows.rows[0].n === 3 ? true : undefined;
    },
    30000,
    'the hourly sync of all three links',
  );

  const va = await variantsOf(a.product.id);
  expect(va[0]).toMatchObject({ price: 8642, stock: 7 });
  expect(va[1].stock).toBe(0);
  const vb = await variantsOf(b.product.id);
  expect(vb[0].price).toBe(b.product.variants[0].priceMinor);
  expect(vb[0].stock).toBe(b.product.variants[0].stock);
  const linkB = (await svc.call('GET', links(`?productId=${b.product.id}`), { key: owner.key })).body.result.items[0];
  expect(linkB.variants[0]).toMatchObject({ costMinor: 1111, stock: 3 });
  expect((await variantsOf(c.body.result.products[0].id))[0].stock).toBe(2);
});

test('a failing supplier marks its own links with lastSyncError and does not stop the others', async () => {
  const store2 = await createStore(svc, owner.key, 'Second');
  const acc2 = await sandbox.account();
  const conn2 = (
    await svc.call('POST', `/api/store-suppliers/${store2}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc2.liveKey } },
    })
  ).body.result.id;
  const sp = await productWithVariants(9);
  const imported = await svc.call('POST', `/api/store-suppliers/${store2}/${conn2}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: sp.id }] },
  });
  const failing = imported.body.result.links[0].id;
  const healthy = (await importOne((await productWithVariants(10)).id)).link.id;
  await svc.db.query('UPDATE product_links SET last_sync_error = NULL, last_sync_at = NULL WHERE id = ANY($1)', [[failing, healthy]]);
  // The supplier is down for the second connection's account only.
  await sandbox.control('POST', '/faults', { unavailableAccounts: [acc2.accountId] });
  try {
    runCli(svc, 'sync-links');
    const rows = await eventually(
      async () => {
        const r = await svc.db.query('SELECT id, last_sync_at, last_sync_error FROM product_links WHERE id = ANY($1)', [[failing, healthy]]);
        return r.rows.every((x: any) => x.last_sync_at) ? r.rows : undefined;
      },
      30000,
      'both links to be synced',
    );
    const byId = Object.fromEntries(rows.map((r: any) => [r.id, r]));
    expect(byId[failing].last_sync_error).toMatch(/^unavailable: /);
    expect(byId[healthy].last_sync_error).toBeNull();
    const shown = await svc.call('GET', `/api/store-suppliers/${store2}/links`, { key: owner.key });
    expect(shown.body.result.items[0].lastSyncError).toMatch(/^unavailable: /);
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
  // Once the supplier answers again, the next sync clears the error.
  const again = await svc.call('POST', `/api/store-suppliers/${store2}/links/${failing}/sync`, { key: owner.key });
  expect(again.body.result.lastSyncError).toBeNull();
});

test('a stock or price notification from the supplier is read back and applied through the same sync', async () => {
  const sp = await productWithVariants(11);
  const { product } = await importOne(sp.id, { priceRule: { multiplier: '1', markupMinor: 100 } });
  await sandbox.control('POST', `/variants/${sp.variants[0].id}`, { costMinor: 2000, stock: 42 });
  await eventually(
    async () => {
      const v = (await variantsOf(product.id))[0];
      return v.price === 2100 && v.stock === 42 ? v : undefined;
    },
    20000,
    'the read-back of the product notification',
  );
  const [conn] = (await svc.db.query('SELECT last_webhook_at FROM supplier_connections WHERE id = $1', [connId])).rows;
  expect(conn.last_webhook_at).not.toBeNull();
});

leakScanTest();
