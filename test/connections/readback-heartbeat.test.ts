/**
 * A read-back held by a worker that is killed is not lost for long: the read-back queues have a heartbeat, so the job
 * is failed and retried once it lapses (seconds), not after pg-boss's 15-minute expiry while the next read-back of the
 * same order waits behind it.
 */
import { createDatabase, eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, readBacksDone } from '../support/orders';

let sandbox: Sandbox;
const started: Service[] = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const s of started.reverse()) await s.stop('SIGKILL').catch(() => undefined);
  await sandbox?.close();
});

const AUTOMATIC = { level: 'automatic', automaticPayment: true, allowUnpaidOrders: true };

async function start(databaseUrl: string, role: 'api' | 'worker', env: Record<string, string> = {}): Promise<Service | 'crashed'> {
  try {
    const svc = await startService({
      label: 'readback-heartbeat',
      sandbox,
      databaseUrl,
      role,
      env: { JOB_SUPERVISE_SECONDS: '1', SUPPLIER_READBACK_INTERVAL_SECONDS: '3', ...env },
    });
    started.push(svc);
    return svc;
  } catch (err) {
    // A worker may reach its crash point before it says it started.
    if (env.FAILPOINTS && /exited/.test(String(err))) return 'crashed';
    throw err;
  }
}

test('a worker killed in the middle of a read-back: the next worker reads the order back within a minute, and it is shipped', async () => {
  const databaseUrl = await createDatabase('readback-heartbeat');
  const api = (await start(databaseUrl, 'api')) as Service;
  const shop = await openShop(api, sandbox, { automation: AUTOMATIC });
  const order = await placeOrder(api, shop);
  expect((await api.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);

  // A healthy worker sends and pays the part, and reads back what its notifications asked for; then it stops.
  const first = (await start(databaseUrl, 'worker')) as Service;
  const so = await eventually(
    async () => {
      const o = (await api.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
      return o.supplierOrders[0]?.status === 'confirmed' ? o.supplierOrders[0] : undefined;
    },
    60000,
    'the automatic send',
  );
  await readBacksDone(api, so.supplierOrderId);
  expect(await first.stop()).toBe(0);

  // Shipped at the supplier; the safety net's next read-back is taken by a worker that dies holding it.
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'SandboxPost', trackingNumber: 'SBX000000000888' });
  const doomed = await start(databaseUrl, 'worker', { FAILPOINTS: 'dispatch.readBack' });
  if (doomed !== 'crashed')
    await eventually(
      async () => (doomed.proc.exitCode !== null || doomed.proc.signalCode !== null ? true : undefined),
      60000,
      'the worker dying in a read-back',
    );
  const { rows: held } = await api.db.query(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'readback.supplier-order' AND state = 'active' AND data->>'supplierOrderId' = $1`,
    [so.supplierOrderId],
  );
  expect(held[0].n).toBe(1);

  // The next worker: the held read-back's heartbeat lapses (10 s), it is retried (after 30 s) and reads the shipment.
  await start(databaseUrl, 'worker');
  const shipped = await eventually(
    async () => {
      const s = (await api.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${so._id}`, { key: shop.owner.key })).body.result;
      return s.status === 'shipped' ? s : undefined;
    },
    100000,
    'the order read back as shipped',
  );
  expect(shipped.shipping).toMatchObject({ trackingNumber: 'SBX000000000888' });
}, 300000);

leakScanTest();
