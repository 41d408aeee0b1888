/**
 * Dispatch jobs name their store (`storeId` in the job data), so that every statement a job runs can filter on it.
 */
import { eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, submit } from '../support/orders';

let sandbox: Sandbox;
let api: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  // The API process queues the jobs and runs none: they wait on the queue, to be read.
  api = await startService({ label: 'job-store', sandbox, role: 'api', env: { DISPATCH_WAIT_MS: '0' } });
});
afterAll(async () => {
  await api?.stop();
  await sandbox?.close();
});

test("a dispatch job carries its part's record and its store", async () => {
  const shop = await openShop(api, sandbox);
  const orders = [await placeOrder(api, shop), await placeOrder(api, shop)];
  // Submitted by the store: the API process writes each part's supplier order and queues its job (answered 202, no wait).
  for (const o of orders) expect((await submit(api, shop, o.id, { payNow: true })).status).toBe(202);
  const queued = await eventually(
    async () => {
      const { rows } = await api.db.query(
        `SELECT j.data, s.id FROM pgboss.job j JOIN supplier_orders s ON s.id::text = j.data->>'supplierOrderId' WHERE j.name = 'dispatch.supplier-order' AND s.store_id = $1 AND j.state = 'created'`,
        [shop.storeId],
      );
      return rows.length === orders.length ? rows : undefined;
    },
    30000,
    'a job per part',
  );
  expect(queued.map((r) => r.data)).toEqual(queued.map((r) => ({ supplierOrderId: r.id, storeId: shop.storeId })));
});
