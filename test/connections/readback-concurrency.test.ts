/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * One slow supplier account does not hold the other read-backs: a worker runs several at once (READBACK_CONCURRENCY).
 * A soak run saw 13 read-backs wait two minutes behind supplier time-outs when a worker ran them one at a time.
 */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, readBacksDone, Shop } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
beforeAll(async () => {
  sandbox = await startSandbox();
  // Notifications reach the service (publicBaseUrl); the safety net stays out of the way.
  svc = await startService({
    label: 'readback-concurrency',
    sandbox,
    publicBaseUrl: true,
    env: { SUPPLIER_READBACK_INTERVAL_SECONDS: '3600', SUPPLIER_TIMEOUT_MS: '30000' },
  });
});
afterAll(async () => {
  await sandbox?.control('POST', '/faults', { accountLatencyMs: {} }).catch(() => undefined);
  await svc?.stop();
  await sandbox?.close();
});

const AUTOMATIC = { level: 'automatic', automaticPayment: true, allowUnpaidOrders: true };
const SLOW_MS = 12000;

async function confirmedPart(shop: Shop): Promise<{ orderId: string; supplierOrderId: string }> {
  const order = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  const so = await eventually(
    async () => {
      const o = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
      return o.supplierOrders[0]?.status === 'confirmed' ? o.supplierOrders[0] : undefined;
    },
    60000,
    'the automatic send',
  );
  await readBacksDone(svc, so.supplierOrderId);
  return { orderId: order.id, supplierOrderId: so.supplierOrderId };
}

const statusOf = async (shop: Shop, orderId: string) =>
  (await svc.call('GET', `/api/store-orders/${shop.storeId}/${orderId}`, { key: shop.owner.key })).body.result.supplierOrders[0].status;

test("three read-backs waiting on one slow supplier account do not hold another account's: its order is shipped first", async () => {
  const slow = await openShop(svc, sandbox, { automation: AUTOMATIC });
  const fast = await openShop(svc, sandbox, { automation: AUTOMATIC });
  const slowParts = [await confirmedPart(slow), await confirmedPart(slow), await confirmedPart(slow)];
  const fastPart = await confirmedPart(fast);

  await sandbox.control('POST', '/faults', { accountLatencyMs: { [slow.account.accountId]: SLOW_MS } });
  for (const p of slowParts) await sandbox.control('POST', `/orders/${p.supplierOrderId}/ship`, { carrier: 'SandboxPost', trackingNumber: 'SBX000000000111' });
  // The slow account's read-backs are taken (each now waits on its supplier) before the fast account's order ships.
  await eventually(
    async () => {
      const { rows } = await svc.db.query(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'readback.supplier-order' AND state = 'active' AND data->>'supplierOrderId' = ANY($1)`,
        [slowParts.map((p) => p.supplierOrderId)],
      );
      return rows[0].n >= 1 ? true : undefined;
    },
    20000,
    'a read-back of the slow account running',
  );
  await sandbox.control('POST', `/orders/${fastPart.supplierOrderId}/ship`, { carrier: 'SandboxPost', trackingNumber: 'SBX000000000222' });

  await eventually(async () => ((await statusOf(fast, fastPart.orderId)) === 'shipped' ? true : undefined), 60000, "the fast account's read-back");
  // Read one after one, the fast account's read-back would have waited behind all three slow ones.
  expect(await Promise.all(slowParts.map((p) => statusOf(slow, p.orderId)))).toEqual(['confirmed', 'confirmed', 'confirmed']);

  // And the slow ones end shipped too.
  await eventually(
    async () => ((await Promise.all(slowParts.map((p) => statusOf(slow, p.orderId)))).every((s) => s === 'shipped') ? true : undefined),
    90000,
    "the slow account's read-backs",
  );
}, 240000);

leakScanTest();
