/** The From List searches of the node's resource locators (methods/listSearch.ts), as the editor calls them. */
import { listSearch, recordSearch } from '../../../nodes/StoreSuppliers/methods';
import { openShop, placeOrder, submit } from '../../support/orders';
import { loadOptionsContext, rl } from '../support/context';
import { credentialsOf, leakScanTest, setUp } from '../support/world';

// A cost limit of one cent: every submit pauses at once with costAboveLimit.
const s = setUp('methods', (w) => openShop(w.svc, w.sandbox, { page: 12, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } }));
const creds = () => credentialsOf(s.world.svc, s.shop.owner.key);
const inStore = () => loadOptionsContext({ credentials: creds(), parameters: { store: rl(s.shop.storeId, 'list') } });

test("stores: those the key reaches, searchable; connections: the chosen store's, none before a store is chosen", async () => {
  const all = loadOptionsContext({ credentials: creds(), parameters: {} });
  const stores = await listSearch.searchStores.call(all.ctx);
  expect(all.rec.last()).toMatchObject({ method: 'GET', path: '/api/stores' });
  expect(stores.results).toEqual([{ name: 'Test Store', value: s.shop.storeId }]);
  expect((await listSearch.searchStores.call(all.ctx, 'nothing like it')).results).toEqual([]);

  const picker = inStore();
  const conns = await listSearch.searchConnections.call(picker.ctx);
  expect(picker.rec.last()).toMatchObject({ method: 'GET', path: `/api/store-suppliers/${s.shop.storeId}` });
  expect(conns.results).toEqual([{ name: expect.stringMatching(/^sandbox \(live\)/), value: s.shop.connId }]);
  expect((await listSearch.searchConnections.call(picker.ctx, 'LIVE')).results).toHaveLength(1);
  expect(conns.results[0].name).toMatch(/^sandbox \(live\) – \S+$/);

  const none = loadOptionsContext({ credentials: creds(), parameters: {} });
  expect((await listSearch.searchConnections.call(none.ctx)).results).toEqual([]);
  expect(none.rec.requests).toHaveLength(0);
});

test('supplier orders (paused first, with the reason), product links, store orders, store products: one page of the newest through the one pager', async () => {
  const order = await placeOrder(s.world.svc, s.shop);
  const paused = (await submit(s.world.svc, s.shop, order.id, { payNow: true })).body.result;
  expect(paused).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit' });
  const picker = inStore();
  const supplierOrders = await recordSearch.searchSupplierOrders.call(picker.ctx);
  expect(supplierOrders.results[0]).toEqual({ name: `${paused.orderNumber} · sandbox · needs review: costAboveLimit`, value: paused._id });
  expect(picker.rec.requests.map((r) => [r.path, r.query])).toEqual([
    [`/api/store-suppliers/${s.shop.storeId}/orders`, { needsReview: 'true', pageSize: '100' }],
    [`/api/store-suppliers/${s.shop.storeId}/orders`, { pageSize: '100' }],
  ]);
  const links = await recordSearch.searchProductLinks.call(picker.ctx);
  expect(links.results.map((l) => l.name)).toEqual(expect.arrayContaining([expect.stringContaining(s.shop.products[0].supplierProductId)]));
  const storeOrders = await recordSearch.searchStoreOrders.call(picker.ctx, order.number);
  expect(storeOrders.results.map((o) => o.value)).toEqual([order.id]);
  const products = await recordSearch.searchStoreProducts.call(picker.ctx);
  expect(products.results.map((p) => p.value).sort()).toEqual(s.shop.products.map((p) => p.productId).sort());
  expect(picker.rec.last()).toMatchObject({ method: 'GET', path: `/api/store-products/${s.shop.storeId}`, query: { pageSize: '100' } });
});

leakScanTest(s);
