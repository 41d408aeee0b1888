/**
 * Alternates go through the checks the link's own connection does (issue 40, item 5a), attacked over real HTTP with
 * the sandbox supplier: an own-scope key cannot name another member's connection as a backup, and a store whose
 * owner's plan lacks dropshipping cannot add backups (reading the supplier is behind the plan gate, as creating the
 * link is).
 */
import { createKey, leakScanTest, newDeveloper, operatorOf, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'alternates_scope', sandbox });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const STAFF_PERMISSIONS = ['suppliers.view', 'suppliers.manage', 'suppliers.import', 'products.view', 'products.manage'];

/** A staff member's own-scope key, its own test-mode connection, and the shop's first product imported through it (a link in the key's records). */
async function staffLink(shop: Shop) {
  const staff = await newDeveloper(svc);
  expect(
    (await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: staff.email, permissions: STAFF_PERMISSIONS } })).status,
  ).toBe(200);
  const own = await createKey(svc, staff.session, 'own records', 'own');
  const conn = await svc.call('POST', `/api/store-suppliers/${shop.storeId}`, {
    key: own.key,
    body: { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: shop.account.testKey } },
  });
  expect(conn.status).toBe(201);
  // A product the shop has not imported (a supplier product is linked once per store).
  const items = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=50&page=4')).body.items;
  const p = items.find((x: any) => x.variants[0].available);
  const imported = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/${conn.body.result.id}/import`, {
    key: own.key,
    body: { products: [{ supplierProductId: p.id, variantIds: [p.variants[0].id] }] },
  });
  expect(imported.status).toBe(201);
  const product = imported.body.result.products[0];
  const links = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${product.id}`, { key: own.key });
  return {
    supplierProductId: p.id as string,
    supplierVariantId: p.variants[0].id as string,
    key: own.key,
    connId: conn.body.result.id as string,
    productId: product.id as string,
    variantId: product.variants[0].id as string,
    linkId: links.body.result.items[0].id as string,
  };
}

const alternatesOf = async (linkId: string) => (await svc.db.query('SELECT connection_id FROM product_link_alternates WHERE link_id = $1', [linkId])).rows;

test("attack: an own-scope key naming another member's connection as an alternate is refused; nothing is saved", async () => {
  const shop = await openShop(svc, sandbox);
  const mine = await staffLink(shop);
  const backup = [
    { storeVariantId: mine.variantId, connectionId: shop.connId, supplierProductId: mine.supplierProductId, supplierVariantId: mine.supplierVariantId },
  ];
  // The owner's connection is outside the key's records: the key cannot use it as the link's own either.
  const primary = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/products`, { key: mine.key });
  expect([primary.status, primary.body.error?.code]).toEqual([404, 'notFound']);
  const res = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${mine.linkId}`, { key: mine.key, body: { alternates: backup } });
  expect([res.status, res.body.error?.code, res.body.error?.details?.[0]?.field]).toEqual([422, 'alternateInvalid', 'body/alternates/0/connectionId']);
  expect(await alternatesOf(mine.linkId)).toEqual([]);
  // The same alternate set by the owner's account-scope key is fine: the refusal is the key's scope, not the variant.
  const ok = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${mine.linkId}`, { key: shop.owner.key, body: { alternates: backup } });
  expect(ok.status).toBe(200);
});

test("attack: a store whose owner's plan lacks dropshipping cannot add alternates (403 planRequired); other changes and removing them still work", async () => {
  const shop = await openShop(svc, sandbox);
  const p = shop.products[0];
  const spare = await svc.call('POST', `/api/store-suppliers/${shop.storeId}`, {
    key: shop.owner.key,
    body: { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: shop.account.testKey } },
  });
  expect(spare.status).toBe(201);
  const links = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${p.productId}`, { key: shop.owner.key });
  const linkId = links.body.result.items[0].id;
  await operatorOf(svc).setPlan(shop.owner.accountId, 'free');
  const backup = [
    { storeVariantId: p.variantId, connectionId: spare.body.result.id, supplierProductId: p.supplierProductId, supplierVariantId: p.supplierVariantId },
  ];
  const res = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, { key: shop.owner.key, body: { alternates: backup } });
  expect([res.status, res.body.error?.code]).toEqual([403, 'planRequired']);
  expect(await alternatesOf(linkId)).toEqual([]);
  const remap = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, {
    key: shop.owner.key,
    body: { variants: [{ storeVariantId: p.variantId, supplierVariantId: p.supplierVariantId }] },
  });
  expect([remap.status, remap.body.error?.code]).toEqual([403, 'planRequired']);
  const sync = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, { key: shop.owner.key, body: { sync: { title: false } } });
  expect(sync.status).toBe(200);
  const none = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, { key: shop.owner.key, body: { alternates: [] } });
  expect(none.status).toBe(200);
});

leakScanTest();
