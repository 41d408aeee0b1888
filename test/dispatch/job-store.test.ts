/**
 * Dispatch jobs name their store (`storeId` in the job data), so that every statement a job runs can filter on it.
 * Jobs queued before that (data without `storeId`, still waiting when the new code starts) run as before: their
 * store is read from the record, and each part is still ordered and paid exactly once at the supplier.
 */
import { createDatabase, eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, received, submit } from '../support/orders';

let sandbox: Sandbox;
const started: Service[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const s of started.reverse()) await s.stop().catch(() => undefined);
  await sandbox?.close();
});

const jobsOf = (svc: Service, storeId: string) =>
  svc.db.query(
    `SELECT j.data FROM pgboss.job j JOIN supplier_orders s ON s.id::text = j.data->>'supplierOrderId' WHERE j.name = 'dispatch.supplier-order' AND s.store_id = $1 AND j.state = 'created'`,
    [storeId],
  );

test('a dispatch job carries its store; one queued without it (before the change) still dispatches exactly once', async () => {
  const databaseUrl = await createDatabase('job-store');
  // The API process queues the jobs and runs none: they wait until a worker starts.
  const api = await startService({ label: 'job-store', sandbox, databaseUrl, role: 'api', env: { DISPATCH_WAIT_MS: '0' } });
  started.push(api);
  const shop = await openShop(api, sandbox);
  const orders = [await placeOrder(api, shop), await placeOrder(api, shop)];
  // Submitted by the store: the API process writes each part's supplier order and queues its job (answered 202, no wait).
  for (const o of orders) expect((await submit(api, shop, o.id, { payNow: true })).status).toBe(202);

  const queued = await eventually(async () => {
    const { rows } = await jobsOf(api, shop.storeId);
    return rows.length === orders.length ? rows : undefined;
  }, 30000, 'a job per part');
  expect(queued.map((r) => r.data.storeId)).toEqual([shop.storeId, shop.storeId]);

  // As jobs queued by the code before this change: no store in their data.
  const { rowCount } = await api.db.query(
    `UPDATE pgboss.job j SET data = j.data - 'storeId' FROM supplier_orders s WHERE s.id::text = j.data->>'supplierOrderId' AND j.name = 'dispatch.supplier-order' AND s.store_id = $1 AND j.state = 'created'`,
    [shop.storeId],
  );
  expect(rowCount).toBe(orders.length);
  expect((await jobsOf(api, shop.storeId)).rows.every((r) => !('storeId' in r.data))).toBe(true);

  started.push(await startService({ label: 'job-store-worker', sandbox, databaseUrl, role: 'worker', env: { DISPATCH_SWEEP_SECONDS: '1', DISPATCH_SWEEP_STALE_SECONDS: '3' } }));
  const rows = await eventually(async () => {
    const { rows } = await api.db.query(`SELECT status, payment_status, step_due, supplier_order_number FROM supplier_orders WHERE store_id = $1`, [shop.storeId]);
    return rows.length === orders.length && rows.every((r) => r.status === 'confirmed' && r.payment_status === 'paid' && !r.step_due) ? rows : undefined;
  }, 60000, 'every part ordered and paid');
  const r = await received(sandbox);
  for (const row of rows) {
    expect(r.count(row.supplier_order_number)).toBe(1);
    expect(r.all.payments.filter((p: { orderNumber: string }) => p.orderNumber === row.supplier_order_number)).toHaveLength(1);
  }
}, 180000);
