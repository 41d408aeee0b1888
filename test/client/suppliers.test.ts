/** The client's connections, products, imports and links groups and the key check, against the real service and sandbox supplier. */
import { createStore, Developer, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { ApiError, clientFor, expectNoKey, isImportJob, NotFoundError, PlanRequiredError, rejectionOf, ValidationFailedError } from './support';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
let acc: { accountId: string; liveKey: string; testKey: string };
let connId: string;
let importedProductId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'client_suppliers', sandbox, publicBaseUrl: true });
  owner = await newDeveloper(svc, { plan: 'pro', credits: 10000 });
  storeId = await createStore(svc, owner.key);
  acc = await sandbox.account(123_456);
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

/** Products of the sandbox catalogue page that ship to the US and are in stock. */
async function goodProducts(page: number, n: number) {
  const items = (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=100&page=${page}`)).body.items;
  return items.filter((p: any) => p.shipsTo.includes('US') && p.variants.every((v: any) => v.available && v.stock > 0)).slice(0, n);
}

test('apiKey.current describes the calling key and its account', async () => {
  const { store, sent } = clientFor(svc, owner.key);
  const me = await store.apiKey.current();
  expect(me.owner.accountId).toBe(owner.accountId);
  expect(me.plan).toEqual({ name: 'pro', includesDropshipping: true });
  expect(me.key.id).toBe(owner.keyId);
  expect(sent).toHaveLength(1);
  expect(sent[0]).toMatchObject({ method: 'GET', status: 200 });
  expect(sent[0].url.pathname).toBe('/api/api-key/current');
  expect(sent[0].headers.get('x-api-key')).toBe(owner.key);
});

test('connections: catalogue, connect, list, test, balance, impact, settings, automation, routing, setEnabled, replaceCredentials', async () => {
  const { store, sent } = clientFor(svc, owner.key);
  const catalogue = await store.suppliers.connections.catalogue(storeId);
  expect(catalogue.map((s) => s.key)).toEqual(expect.arrayContaining(['sandbox', 'sandbox-signin']));

  const conn = await store.suppliers.connections.connect(storeId, { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } });
  connId = conn.id;
  expect(conn).toMatchObject({ supplierKey: 'sandbox', mode: 'live', enabled: true, hasCredentials: true });
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 201, body: { supplierKey: 'sandbox', mode: 'live' } });

  const list = await store.suppliers.connections.list(storeId);
  expect(list.map((c) => c.id)).toEqual([connId]);
  expect(JSON.stringify(list)).not.toContain(acc.liveKey);

  const tested = await store.suppliers.connections.test(storeId, connId);
  expect(tested.health).toMatchObject({ status: 'healthy' });

  const balance = await store.suppliers.connections.balance(storeId, connId);
  expect(balance).toEqual({ amountMinor: 123_456, currency: 'USD' });

  const impact = await store.suppliers.connections.impact(storeId, connId);
  expect(impact).toEqual({ linkedProducts: 0, openSupplierOrders: 0 });

  const settings = await store.suppliers.connections.settings(storeId, connId, { settings: { shippingSpeed: 'express' } });
  expect(settings.settings).toMatchObject({ shippingSpeed: 'express' });

  const automation = await store.suppliers.connections.automation(storeId, connId, { level: 'manual', excludedCountries: ['BR'] });
  expect(automation.automation).toMatchObject({ level: 'manual', excludedCountries: ['BR'] });

  // The store's routing rule: primary until set, then as set; a malformed one is refused with its code.
  expect(await store.suppliers.connections.routing(storeId)).toEqual({ routing: { rule: 'primary' }, updatedAt: null });
  const routed = await store.suppliers.connections.changeRouting(storeId, { routing: { rule: 'fastest', maxCostAboveCheapestPercent: 12 } });
  expect(routed.routing).toEqual({ rule: 'fastest', maxCostAboveCheapestPercent: 12 });
  expect(sent.at(-1)).toMatchObject({ method: 'PUT', status: 200, body: { routing: { rule: 'fastest', maxCostAboveCheapestPercent: 12 } } });
  expect((await store.suppliers.connections.routing(storeId)).routing).toEqual({ rule: 'fastest', maxCostAboveCheapestPercent: 12 });
  const noCap = await rejectionOf<ApiError>(store.suppliers.connections.changeRouting(storeId, { routing: { rule: 'fastest' } } as never));
  expect({ status: noCap.status, code: noCap.code }).toEqual({ status: 400, code: 'validationFailed' });

  expect((await store.suppliers.connections.setEnabled(storeId, connId, false)).enabled).toBe(false);
  expect((await store.suppliers.connections.setEnabled(storeId, connId, true)).enabled).toBe(true);
  expect(sent.at(-1)).toMatchObject({ method: 'PUT', body: { enabled: true } });

  const replaced = await store.suppliers.connections.replaceCredentials(storeId, connId, { credentials: { apiKey: acc.liveKey } });
  expect(replaced).toMatchObject({ id: connId, hasCredentials: true });
  const refused = await rejectionOf<ApiError>(
    store.suppliers.connections.replaceCredentials(storeId, connId, { credentials: { apiKey: 'sbx_live_not_a_key' } }),
  );
  expect(refused).toBeInstanceOf(ApiError);
  expect({ status: refused.status, code: refused.code }).toEqual({ status: 400, code: 'credentialsRejected' });
});

test('connections: startSignIn answers the address to send the merchant to, at the service (the console opens it)', async () => {
  const { store } = clientFor(svc, owner.key);
  const started = await store.suppliers.connections.startSignIn(storeId, { supplierKey: 'sandbox-signin', mode: 'live' });
  expect(started.authorizationUrl).toMatch(new RegExp(`^${svc.baseUrl}/console#connect/${storeId}/[0-9a-f-]{36}$`));
  expect(typeof started.state).toBe('string');
  expect(Date.parse(started.expiresAt)).toBeGreaterThan(Date.now());
});

test('products: search pages through the catalogue, get answers variants, resolveUrl finds the id', async () => {
  const { store } = clientFor(svc, owner.key);
  const page = await store.suppliers.products.search(storeId, connId, { pageSize: 5 });
  expect(page.items).toHaveLength(5);
  expect(page.pagination.hasMore).toBe(true);
  const next = await store.suppliers.products.search(storeId, connId, { pageSize: 5, cursor: page.pagination.nextCursor ?? undefined });
  expect(next.items.map((p: any) => p.id)).not.toContain(page.items[0].id);

  const one = await store.suppliers.products.get(storeId, connId, page.items[0].id);
  expect(one.id).toBe(page.items[0].id);
  expect(one.variants.length).toBeGreaterThan(0);

  const resolved = await store.suppliers.products.resolveUrl(storeId, connId, `https://shop.sandbox-supplier.test/p/${page.items[1].id}?ref=mail`);
  expect(resolved.supplierProductId).toBe(page.items[1].id);
});

test('imports: preview prices without charging, run imports, a large run answers a job that get reads', async () => {
  const { store } = clientFor(svc, owner.key);
  const [p] = await goodProducts(4, 1);
  const preview = await store.suppliers.imports.preview(storeId, connId, { products: [{ supplierProductId: p.id }] });
  expect(preview.items.map((i) => i.supplierProductId)).toEqual([p.id]);
  expect(preview.errors).toEqual([]);

  const done = await store.suppliers.imports.run(storeId, connId, { products: [{ supplierProductId: p.id }] });
  expect(isImportJob(done)).toBe(false);
  if (isImportJob(done)) throw new Error('unexpected job');
  expect(done.products).toHaveLength(1);
  importedProductId = done.products[0].id;
  expect(done.errors).toEqual([]);
  const stored = await svc.db.query('SELECT count(*)::int AS n FROM product_links WHERE store_id = $1', [storeId]);
  expect(stored.rows[0].n).toBe(1);

  const many = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=60&page=9')).body.items.slice(0, 51);
  const job = await store.suppliers.imports.run(storeId, connId, { products: many.map((x: any) => ({ supplierProductId: x.id })) });
  if (!isImportJob(job)) throw new Error('a large import answers a job');
  const read = await store.suppliers.imports.get(storeId, job.id);
  expect(read).toMatchObject({ id: job.id, total: 51 });
  const listed = await store.suppliers.imports.list(storeId, { pageSize: 100 });
  expect(listed.items.map((j) => j.id)).toContain(job.id);
});

test('links: create, list, update, sync, delete', async () => {
  const { store } = clientFor(svc, owner.key);
  const [p] = await goodProducts(6, 1);
  const own = await svc.call('POST', `/api/store-products/${storeId}`, {
    key: owner.key,
    body: { title: 'Own product', variants: [{ sku: 'OWN-1', title: 'One', priceMinor: 1000, currency: 'USD', stock: 1 }] },
  });
  expect(own.status).toBe(201);
  const link = await store.suppliers.links.create(storeId, {
    productId: own.body.result.id,
    connectionId: connId,
    supplierProductId: p.id,
    variants: [{ storeVariantId: own.body.result.variants[0].id, supplierVariantId: p.variants[0].id }],
  });
  expect(link).toMatchObject({ productId: own.body.result.id, supplierProductId: p.id });

  const listed = await store.suppliers.links.list(storeId, { productId: own.body.result.id });
  expect(listed.items.map((l) => l.id)).toEqual([link.id]);

  const updated = await store.suppliers.links.update(storeId, link.id, { sync: { price: false } });
  expect(updated.sync.price).toBe(false);
  // The link's own routing rule overrides the store's; null gives it back.
  expect(link.routing).toBeNull();
  expect((await store.suppliers.links.update(storeId, link.id, { routing: { rule: 'lowestLandedCost' } })).routing).toEqual({ rule: 'lowestLandedCost' });
  expect((await store.suppliers.links.update(storeId, link.id, { routing: null })).routing).toBeNull();

  const synced = await store.suppliers.links.sync(storeId, link.id);
  expect(synced.id).toBe(link.id);
  expect(synced.lastSyncAt).toBeTruthy();

  await expect(store.suppliers.links.delete(storeId, link.id)).resolves.toBeUndefined();
  const after = await store.suppliers.links.list(storeId, { productId: own.body.result.id });
  expect(after.items).toEqual([]);
});

test('refusals are ApiErrors a program can branch on: validationFailed, notFound, planRequired', async () => {
  const { store } = clientFor(svc, owner.key);
  const invalid = await rejectionOf<ValidationFailedError>(
    store.suppliers.connections.connect(storeId, { supplierKey: 'sandbox', mode: 'bogus' as 'live', credentials: {} }),
  );
  expect(invalid).toBeInstanceOf(ValidationFailedError);
  expect({ status: invalid.status, code: invalid.code }).toEqual({ status: 400, code: 'validationFailed' });
  expect(invalid.details.length).toBeGreaterThan(0);
  expect(invalid.requestId).toMatch(/.+/);

  const missing = await rejectionOf<NotFoundError>(store.suppliers.orders.get(storeId, '00000000-0000-4000-8000-000000000000'));
  expect(missing).toBeInstanceOf(NotFoundError);
  expect(missing).toMatchObject({ status: 404, code: 'notFound' });

  const free = await newDeveloper(svc, { credits: 100 });
  const freeStore = await createStore(svc, free.key);
  const gated = await rejectionOf<PlanRequiredError>(
    clientFor(svc, free.key).store.suppliers.connections.connect(freeStore, { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } }),
  );
  expect(gated).toBeInstanceOf(PlanRequiredError);
  expect(gated).toMatchObject({ status: 403, code: 'planRequired' });
  for (const err of [invalid, missing, gated]) expectNoKey(err, owner.key);
  expectNoKey(gated, free.key);
});

test('disconnect removes the connection; the store keeps its imported products', async () => {
  const { store } = clientFor(svc, owner.key);
  const out = await store.suppliers.connections.disconnect(storeId, connId);
  expect(out).toMatchObject({ id: connId, disconnected: true });
  expect(await store.suppliers.connections.list(storeId)).toEqual([]);
  const kept = await svc.call('GET', `/api/store-products/${storeId}/${importedProductId}`, { key: owner.key });
  expect(kept.status).toBe(200);
});

leakScanTest();
