/** The read-back safety net: an open supplier order is read back even when no notification ever comes. */
import { ConfigError, loadConfig } from '../../server/platform/config';
import { safetyNetTiming } from '../../server/dispatch/safety-net';
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, readBacksDone, received, Shop } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;

const INTERVAL_SECONDS = 4;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'safetynet', sandbox, publicBaseUrl: true, env: { SUPPLIER_READBACK_INTERVAL_SECONDS: String(INTERVAL_SECONDS) } });
  shop = await openShop(svc, sandbox, { page: 6, products: 1, automation: { level: 'automatic', automaticPayment: true, allowUnpaidOrders: true } });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const supplierOrder = (id: string) => svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);

/** A store order sent and paid automatically; answers its supplier order once confirmed. */
async function confirmedOrder() {
  const order = await placeOrder(svc, shop);
  await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key });
  return eventually(
    async () => {
      const o = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
      return o.supplierOrders[0]?.status === 'confirmed' ? o.supplierOrders[0] : undefined;
    },
    20000,
    'the automatic send',
  );
}

test('a shipment made at the supplier with its notifications switched off still reaches the service', async () => {
  const so = await confirmedOrder();
  await sandbox.control('POST', '/faults', { silentAccounts: [shop.account.accountId] });
  try {
    // Only the sweep may learn of the shipment: a read-back the confirmation's notifications queued must be done.
    await readBacksDone(svc, so.supplierOrderId);
    const sentBefore = (await received(sandbox)).all.notificationsSent;
    await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'SandboxPost', trackingNumber: 'SBX000000000777' });
    // Generous bound: the interval is 4 s; this only proves it comes without any notification.
    const shipped = await eventually(
      async () => {
        const s = await supplierOrder(so._id);
        return s.status === 'shipped' ? s : undefined;
      },
      60000,
      'the safety-net read-back',
    );
    expect(shipped.shipping).toMatchObject({ carrier: 'SandboxPost', trackingNumber: 'SBX000000000777' });
    expect(shipped.events.at(-1)).toMatchObject({ type: 'readBack', from: 'confirmed', to: 'shipped', actor: { kind: 'system' } });
    expect((await received(sandbox)).all.notificationsSent).toBe(sentBefore);
    // The sweep keeps when it asked, so an order the supplier cannot answer for is asked once an interval.
    const [row] = (await svc.db.query('SELECT read_back_asked_at FROM supplier_orders WHERE id = $1', [so._id])).rows;
    expect(row.read_back_asked_at).toBeInstanceOf(Date);
    // The store order's part carries the shipment too, as after a notification.
    const order = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${so.orderId}`, { key: shop.owner.key })).body.result;
    expect(order.fulfilmentGroups.find((g: any) => g.groupKey === so.fulfilmentGroupKey).shipment).toMatchObject({ trackingNumber: 'SBX000000000777' });
  } finally {
    await sandbox.control('POST', '/faults', { silentAccounts: [] });
  }
});

test('retryable is false, never null, on supplier orders that are not paused: in answers and in the OpenAPI document', async () => {
  const so = await confirmedOrder();
  expect(so.retryable).toBe(false);
  expect((await supplierOrder(so._id)).retryable).toBe(false);
  const list = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders`, { key: shop.owner.key })).body.result.items;
  expect(list.map((s: any) => s.retryable)).toEqual(list.map(() => false));
  // Stored as null while not paused: the answer, not the row, makes it a boolean.
  const [row] = (await svc.db.query('SELECT retryable FROM supplier_orders WHERE id = $1', [so._id])).rows;
  expect(row.retryable).toBeNull();
  const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
  const schema = doc.paths['/api/store-suppliers/{storeId}/orders/{supplierOrderId}'].get.responses['200'].content['application/json'].schema;
  const resolved = JSON.stringify(schema).includes('$ref') ? null : schema;
  const props = (resolved?.properties?.result ?? schema.properties.result).properties;
  expect(props.retryable.type).toBe('boolean');
});

test('the interval comes from SUPPLIER_READBACK_INTERVAL_SECONDS: 15 minutes by default, validated, and never exceeded by sweep plus jitter', () => {
  const env = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/x', APP_SECRET: 'x'.repeat(40) };
  expect(loadConfig(env, []).readBackIntervalSeconds).toBe(900);
  expect(loadConfig({ ...env, SUPPLIER_READBACK_INTERVAL_SECONDS: '60' }, []).readBackIntervalSeconds).toBe(60);
  for (const bad of ['0', '1', 'soon', '-5', '99999999']) {
    expect(() => loadConfig({ ...env, SUPPLIER_READBACK_INTERVAL_SECONDS: bad }, [])).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, SUPPLIER_READBACK_INTERVAL_SECONDS: bad }, [])).toThrow(/SUPPLIER_READBACK_INTERVAL_SECONDS/);
  }
  for (const interval of [2, 4, 60, 900, 86400]) {
    const t = safetyNetTiming(interval);
    expect(t.dueAfterSeconds + t.sweepSeconds + t.jitterSeconds).toBeLessThanOrEqual(interval);
    expect(t.sweepSeconds).toBeGreaterThanOrEqual(1);
    expect(t.sweepSeconds).toBeLessThanOrEqual(60);
  }
  expect(safetyNetTiming(900)).toEqual({ sweepSeconds: 60, jitterSeconds: 15, dueAfterSeconds: 825 });
});

leakScanTest();
