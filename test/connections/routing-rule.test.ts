/**
 * The routing rule: the store's (GET/PUT /api/store-suppliers/:storeId/routing) and a product link's own, which
 * overrides it. Set, read back, refused with a code when malformed, guarded by the store's permissions, and kept
 * in the database as the migration made it.
 */
import { Client } from 'pg';
import { leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop } from '../support/orders';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'routing-rule', sandbox });
  shop = await openShop(svc, sandbox, { products: 1 });
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
});

const routingUrl = () => `/api/store-suppliers/${shop.storeId}/routing`;
const linkOf = async () =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${shop.products[0].productId}`, { key: shop.owner.key })).body.result.items[0];

async function storedRows(): Promise<{ store: unknown[]; link: unknown[] }> {
  const db = new Client({ connectionString: svc.databaseUrl });
  await db.connect();
  try {
    const store = (await db.query('SELECT routing FROM store_supplier_routing WHERE store_id = $1', [shop.storeId])).rows.map((r) => r.routing);
    const link = (await db.query('SELECT routing FROM product_links WHERE store_id = $1', [shop.storeId])).rows.map((r) => r.routing);
    return { store, link };
  } finally {
    await db.end();
  }
}

test('a store that never set a rule routes to the primary; its links follow the store (routing null)', async () => {
  const res = await svc.call('GET', routingUrl(), { key: shop.owner.key });
  expect([res.status, res.body.result]).toEqual([200, { routing: { rule: 'primary' }, updatedAt: null }]);
  expect((await linkOf()).routing).toBeNull();
  expect(await storedRows()).toEqual({ store: [], link: [null] });
});

test('the store sets lowestLandedCost, then fastest with a cap: each read back as set, and stored', async () => {
  const cheapest = await svc.call('PUT', routingUrl(), { key: shop.owner.key, body: { routing: { rule: 'lowestLandedCost' } } });
  expect(cheapest.status).toBe(200);
  expect(cheapest.body.result).toEqual({ routing: { rule: 'lowestLandedCost' }, updatedAt: expect.any(String) });
  expect((await svc.call('GET', routingUrl(), { key: shop.owner.key })).body.result.routing).toEqual({ rule: 'lowestLandedCost' });

  const fastest = await svc.call('PUT', routingUrl(), { key: shop.owner.key, body: { routing: { rule: 'fastest', maxCostAboveCheapestPercent: 15 } } });
  expect([fastest.status, fastest.body.result.routing]).toEqual([200, { rule: 'fastest', maxCostAboveCheapestPercent: 15 }]);
  const read = (await svc.call('GET', routingUrl(), { key: shop.owner.key })).body.result;
  expect(read.routing).toEqual({ rule: 'fastest', maxCostAboveCheapestPercent: 15 });
  expect(Date.parse(read.updatedAt)).toBeGreaterThanOrEqual(Date.parse(cheapest.body.result.updatedAt));
  expect((await storedRows()).store).toEqual([{ rule: 'fastest', maxCostAboveCheapestPercent: 15 }]);
});

test('a malformed rule is 400 validationFailed naming the field, and the stored rule stays', async () => {
  const bad = [
    { routing: { rule: 'fastest' } },
    { routing: { rule: 'fastest', maxCostAboveCheapestPercent: -1 } },
    { routing: { rule: 'fastest', maxCostAboveCheapestPercent: 2.5 } },
    { routing: { rule: 'fastest', maxCostAboveCheapestPercent: 1001 } },
    { routing: { rule: 'primary', maxCostAboveCheapestPercent: 10 } },
    { routing: { rule: 'nearest' } },
    { routing: 'primary' },
    {},
  ];
  for (const body of bad) {
    const res = await svc.call('PUT', routingUrl(), { key: shop.owner.key, body });
    expect({ body, status: res.status, code: res.body.error?.code }).toEqual({ body, status: 400, code: 'validationFailed' });
    expect(res.body.error.details.some((d: any) => String(d.field).startsWith('body'))).toBe(true);
  }
  expect((await svc.call('GET', routingUrl(), { key: shop.owner.key })).body.result.routing).toEqual({ rule: 'fastest', maxCostAboveCheapestPercent: 15 });
});

test("a link overrides the store's rule, and null gives it back to the store; malformed is 400", async () => {
  const url = `/api/store-suppliers/${shop.storeId}/links/${(await linkOf()).id}`;
  const set = await svc.call('PUT', url, { key: shop.owner.key, body: { routing: { rule: 'lowestLandedCost' } } });
  expect([set.status, set.body.result.routing]).toEqual([200, { rule: 'lowestLandedCost' }]);
  expect((await linkOf()).routing).toEqual({ rule: 'lowestLandedCost' });
  // Another change to the link leaves its rule as it is.
  const other = await svc.call('PUT', url, { key: shop.owner.key, body: { sync: { title: false } } });
  expect([other.status, other.body.result.routing]).toEqual([200, { rule: 'lowestLandedCost' }]);
  const capped = await svc.call('PUT', url, { key: shop.owner.key, body: { routing: { rule: 'fastest', maxCostAboveCheapestPercent: 0 } } });
  expect(capped.body.result.routing).toEqual({ rule: 'fastest', maxCostAboveCheapestPercent: 0 });
  expect((await storedRows()).link).toEqual([{ rule: 'fastest', maxCostAboveCheapestPercent: 0 }]);
  const bad = await svc.call('PUT', url, { key: shop.owner.key, body: { routing: { rule: 'fastest' } } });
  expect([bad.status, bad.body.error.code]).toEqual([400, 'validationFailed']);
  const back = await svc.call('PUT', url, { key: shop.owner.key, body: { routing: null } });
  expect([back.status, back.body.result.routing]).toEqual([200, null]);
  expect((await storedRows()).link).toEqual([null]);
});

test('a link is created with its own rule', async () => {
  // The imported link goes, and the same product is linked again by hand with a rule of its own.
  const link = await linkOf();
  expect((await svc.call('DELETE', `/api/store-suppliers/${shop.storeId}/links/${link.id}`, { key: shop.owner.key })).status).toBe(204);
  const made = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/links`, {
    key: shop.owner.key,
    body: {
      productId: shop.products[0].productId,
      connectionId: shop.connId,
      supplierProductId: shop.products[0].supplierProductId,
      variants: [{ storeVariantId: shop.products[0].variantId, supplierVariantId: shop.products[0].supplierVariantId }],
      routing: { rule: 'fastest', maxCostAboveCheapestPercent: 20 },
    },
  });
  expect([made.status, made.body.result.routing]).toEqual([201, { rule: 'fastest', maxCostAboveCheapestPercent: 20 }]);
  expect((await linkOf()).routing).toEqual({ rule: 'fastest', maxCostAboveCheapestPercent: 20 });
});

test('staff with suppliers.view read the rule but may not change it (403), nor may another account (404 or 403)', async () => {
  const staff = await newDeveloper(svc, { plan: 'pro' });
  expect(
    (await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: staff.email, permissions: ['suppliers.view'] } })).status,
  ).toBe(200);
  const read = await svc.call('GET', routingUrl(), { key: staff.key });
  expect([read.status, read.body.result.routing]).toEqual([200, { rule: 'fastest', maxCostAboveCheapestPercent: 15 }]);
  const change = await svc.call('PUT', routingUrl(), { key: staff.key, body: { routing: { rule: 'primary' } } });
  expect([change.status, change.body.error.code]).toEqual([403, 'permissionDenied']);
  const stranger = await newDeveloper(svc, { plan: 'pro' });
  const theirs = await svc.call('GET', routingUrl(), { key: stranger.key });
  expect([403, 404]).toContain(theirs.status);
  expect((await storedRows()).store).toEqual([{ rule: 'fastest', maxCostAboveCheapestPercent: 15 }]);
});

leakScanTest();
