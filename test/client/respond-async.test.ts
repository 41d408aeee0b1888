/** A 202 (the dispatch job is still working) is returned, never thrown; `respondAsync` sends `Prefer: respond-async`. */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, received } from '../support/orders';
import { clientFor } from './support';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  // The service answers as soon as the job is queued, whatever the header: every dispatch answer here is a 202.
  svc = await startService({ label: 'client_async', sandbox, env: { DISPATCH_WAIT_MS: '0' } });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

test('submit answered 202 returns the queued supplier order; it is sent later by the job', async () => {
  const shop = await openShop(svc, sandbox, { page: 15 });
  const { store, sent } = clientFor(svc, shop.owner.key);
  const order = await placeOrder(svc, shop);
  const so = await store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop), {}, { respondAsync: true });
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 202 });
  expect(sent.at(-1)!.headers.get('prefer')).toBe('respond-async');
  expect(so).toMatchObject({ orderId: order.id, status: 'queued' });
  const later = await eventually(
    async () => {
      const s = await store.suppliers.orders.get(shop.storeId, so._id);
      return s.status === 'submitted' ? s : undefined;
    },
    30000,
    'the job to send the order',
  );
  expect((await received(sandbox)).count(later.supplierOrderNumber)).toBe(1);
});

test('a 202 is returned even for an order the job will pause: the pause is seen by reading it again', async () => {
  const shop = await openShop(svc, sandbox, { page: 16, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } });
  const { store, sent } = clientFor(svc, shop.owner.key);
  const order = await placeOrder(svc, shop);
  const so = await store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop));
  expect(sent.at(-1)).toMatchObject({ status: 202 });
  expect(sent.at(-1)!.headers.get('prefer')).toBeNull();
  expect(so.status).toBe('queued');
  const paused = await eventually(
    async () => {
      const s = await store.suppliers.orders.get(shop.storeId, so._id);
      return s.status === 'needsReview' ? s : undefined;
    },
    30000,
    'the job to pause the order',
  );
  expect(paused.reviewReason).toBe('costAboveLimit');

  const retried = await store.suppliers.orders.retry(shop.storeId, so._id, {}, { respondAsync: true });
  expect(sent.at(-1)).toMatchObject({ status: 202 });
  expect(retried._id).toBe(so._id);
});

leakScanTest();
