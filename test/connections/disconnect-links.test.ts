/** Disconnecting removes the connection's product links; the products stay as the store's own. */
import { leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'unlink', sandbox });
  shop = await openShop(svc, sandbox, { page: 7, products: 2 });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const get = (path: string) => svc.call('GET', `/api/store-suppliers/${shop.storeId}${path}`, { key: shop.owner.key });

test('disconnect removes the links in the same step, says how many, and leaves the products unlinked', async () => {
  const links = (await get(`/links?connectionId=${shop.connId}`)).body.result.items;
  expect(links).toHaveLength(2);
  const impact = await get(`/${shop.connId}/impact`);
  expect(impact.body.result).toEqual({ linkedProducts: 2, openSupplierOrders: 0 });

  const gone = await svc.call('DELETE', `/api/store-suppliers/${shop.storeId}/${shop.connId}`, { key: shop.owner.key });
  expect(gone.status).toBe(200);
  expect(gone.body.result).toEqual({ id: shop.connId, disconnected: true, impact: { linkedProducts: 2, openSupplierOrders: 0 }, removedLinks: 2 });

  expect((await get(`/links?connectionId=${shop.connId}`)).body.result.items).toEqual([]);
  expect((await get('/links')).body.result.items).toEqual([]);
  for (const link of links) {
    const put = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${link.id}`, { key: shop.owner.key, body: { sync: { title: true } } });
    expect([put.status, put.body.error.code]).toEqual([404, 'notFound']);
    expect((await svc.call('POST', `/api/store-suppliers/${shop.storeId}/links/${link.id}/sync`, { key: shop.owner.key })).status).toBe(404);
  }
  const rows = await svc.db.query(
    'SELECT (SELECT count(*)::int FROM product_links WHERE connection_id = $1) AS links, (SELECT count(*)::int FROM product_link_variants WHERE link_id = ANY($2)) AS variants',
    [shop.connId, links.map((l: any) => l.id)],
  );
  expect(rows.rows[0]).toEqual({ links: 0, variants: 0 });
  // The imported products stay, with their variants, as the store's own.
  for (const p of shop.products) {
    const product = await svc.call('GET', `/api/store-products/${shop.storeId}/${p.productId}`, { key: shop.owner.key });
    expect(product.status).toBe(200);
    expect(product.body.result.variants.map((v: any) => v.id)).toContain(p.variantId);
  }
  // A second disconnect of the same connection finds nothing.
  expect((await svc.call('DELETE', `/api/store-suppliers/${shop.storeId}/${shop.connId}`, { key: shop.owner.key })).status).toBe(404);
});

leakScanTest();
