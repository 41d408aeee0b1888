/**
 * Authentication 6: the operations that stay open on any plan succeed, with their effect, for a store whose
 * owner moved to the free plan: reading, turning a connection off, changing settings, testing or disconnecting
 * a connection, editing, syncing or removing product links, cancelling a supplier order, fulfilling a part
 * manually. (The gated ones are refused: test/platform/authorization-matrix.test.ts.)
 */
import { eventually, leakScanTest, operatorOf, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, received, Shop, submit } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;
let submitted: any;
let toFulfil: any;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'free-open', sandbox });
  // Everything made while on pro: a connection, two imported products (links), a supplier order sent, an order to take over.
  shop = await openShop(svc, sandbox, { page: 2 });
  const sent = (await submit(svc, shop, (await placeOrder(svc, shop)).id)).body.result;
  // Followed to its end: on a busy machine the submit may answer 202 before the job is done.
  submitted = await eventually(
    async () => {
      const so = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${sent._id}`, { key: shop.owner.key })).body.result;
      return so.status === 'submitted' ? so : undefined;
    },
    60000,
    'the supplier order to be submitted',
  );
  toFulfil = await placeOrder(svc, shop, { productIndex: 1 });
  await operatorOf(svc).setPlan(shop.owner.accountId, 'free');
  expect((await svc.call('GET', '/api/api-key/current', { key: shop.owner.key })).body.result.plan.name).toBe('free');
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const base = () => `/api/store-suppliers/${shop.storeId}`;
const call = (method: string, p: string, body?: unknown) => svc.call(method, base() + p, { key: shop.owner.key, body });

test('reading: connections, catalogue, balance, impact, supplier orders, one order, links, imports, store orders', async () => {
  for (const p of ['', '/catalogue', `/${shop.connId}/balance`, `/${shop.connId}/impact`, '/orders', `/orders/${submitted._id}`, '/links', '/imports']) {
    const res = await call('GET', p);
    expect([p, res.status]).toEqual([p, 200]);
  }
  expect((await svc.call('GET', `/api/store-orders/${shop.storeId}/${submitted.orderId}`, { key: shop.owner.key })).status).toBe(200);
  // Browsing the supplier's catalogue is not reading existing data: it stays gated.
  expect((await call('GET', `/${shop.connId}/products`)).body.error.code).toBe('planRequired');
});

test('changing settings and testing the connection', async () => {
  const settings = await call('PUT', `/${shop.connId}/settings`, { settings: {} });
  expect(settings.status).toBe(200);
  const tested = await call('POST', `/${shop.connId}/test`);
  expect(tested.status).toBe(200);
  expect(tested.body.result.health).toMatchObject({ status: 'healthy' });
});

test('editing, syncing and removing a product link', async () => {
  const links = (await call('GET', '/links')).body.result.items;
  const link = links.find((l: any) => l.supplierProductId === shop.products[1].supplierProductId);
  const edited = await call('PUT', `/links/${link.id}`, { sync: { title: true } });
  expect([edited.status, edited.body.result.sync.title]).toEqual([200, true]);
  const synced = await call('POST', `/links/${link.id}/sync`);
  expect(synced.status).toBe(200);
  expect(Date.parse(synced.body.result.lastSyncAt)).toBeGreaterThan(Date.parse(link.lastSyncAt ?? '1970-01-01'));
  const removed = await call('DELETE', `/links/${link.id}`);
  expect(removed.status).toBe(204);
  expect((await call('GET', '/links')).body.result.items.map((l: any) => l.id)).not.toContain(link.id);
});

test('cancelling a supplier order, and fulfilling a part manually', async () => {
  const cancelled = await call('POST', `/orders/${submitted._id}/cancel`);
  expect([cancelled.status, cancelled.body.result.status]).toEqual([200, 'cancelled']);
  expect((await received(sandbox, submitted.supplierOrderNumber)).orders[0].status).toBe('cancelled');
  const taken = await call('POST', `/orders/${toFulfil.id}/groups/${encodeURIComponent(partKeyOf(shop))}/fulfil-manually`);
  expect(taken.status).toBe(200);
  expect(taken.body.result.part).toMatchObject({ fulfilledByStore: true });
});

test('turning the connection off (turning it on again is gated), then disconnecting it', async () => {
  const off = await call('PUT', `/${shop.connId}/enabled`, { enabled: false });
  expect([off.status, off.body.result.enabled]).toEqual([200, false]);
  expect((await call('PUT', `/${shop.connId}/enabled`, { enabled: true })).body.error.code).toBe('planRequired');
  const gone = await call('DELETE', `/${shop.connId}`);
  expect(gone.status).toBe(200);
  expect((await call('GET', '')).body.result).toEqual([]);
});

leakScanTest();
