/**
 * Events the catalogue and the connections write (in the statement of the change, through the outbox step): an
 * import job finished, a link's sync failed, a connection's circuit opened and its health changed; each as its route
 * answers the resource. And no database trigger writes one.
 */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS, subscribe, verifiedEvents } from './support';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;
let receiver: Receiver & { url: string };
let secret: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({
    label: 'events-sources',
    sandbox,
    privateTargets: true,
    env: { ...FAST_EVENTS, CIRCUIT_FAILURE_THRESHOLD: '3', CIRCUIT_COOLDOWN_SECONDS: '600' },
  });
  shop = await openShop(svc, sandbox, { page: 4 });
  receiver = await Receiver.start();
  secret = (
    await subscribe(svc, shop.owner.key, shop.storeId, receiver.url, [
      'importJob.finished',
      'productLink.syncFailed',
      'connection.circuitOpened',
      'connection.healthChanged',
    ])
  ).secret;
}, 120000);
afterAll(async () => {
  await receiver.down();
  await svc.stop();
  await sandbox.close();
});

const events = async (type: string) => (await verifiedEvents(receiver.received, secret)).filter((e) => e.type === type);
const arrived = (type: string, n = 1) => receiver.until((r) => r.filter((x) => x.json?.type === type).length >= n, 30000, type);

test('a connection whose health check fails, then passes, reports each change of status once', async () => {
  const check = () => svc.call('POST', `/api/store-suppliers/${shop.storeId}/${shop.connId}/test`, { key: shop.owner.key });
  await sandbox.control('POST', '/faults', { unavailableAccounts: [shop.account.accountId] });
  expect((await check()).body.result.health.status).toBe('unhealthy');
  expect((await check()).body.result.health.status).toBe('unhealthy'); // the same status again: no event
  await sandbox.control('DELETE', '/faults');
  const healthy = (await check()).body.result;
  expect(healthy.health.status).toBe('healthy');
  await arrived('connection.healthChanged', 2);
  const got = await events('connection.healthChanged');
  expect(got.map((e) => e.data.health.status)).toEqual(['unhealthy', 'healthy']);
  expect(got[1].data).toEqual(healthy);
  expect(JSON.stringify(got)).not.toMatch(/credentials|sealed/);
  expect(got[1].data.hasCredentials).toBe(true);
  const kept = await svc.db.query(`SELECT snapshot->>'credentials_sealed' AS c FROM event_outbox WHERE resource_key = $1`, [`connection:${shop.connId}`]);
  expect(kept.rows.length).toBeGreaterThanOrEqual(2);
  expect(kept.rows.every((r) => r.c === 'sealed')).toBe(true);
});

test('a connection whose circuit opens reports it, with the time calls wait until', async () => {
  await sandbox.control('POST', '/faults', { failNext: 3 });
  for (let i = 0; i < 3; i++) await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key });
  await sandbox.control('DELETE', '/faults');
  await arrived('connection.circuitOpened');
  const [opened] = await events('connection.circuitOpened');
  expect(opened.data).toMatchObject({ id: shop.connId, isCircuitOpen: true });
  expect(Date.parse(opened.data.circuitOpenUntil)).toBeGreaterThan(Date.now());
  await svc.db.query('UPDATE supplier_connections SET circuit_open_until = NULL, consecutive_failures = 0 WHERE id = $1', [shop.connId]);
});

test('a link whose sync fails reports the new error once, not again for the same error', async () => {
  const link = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links`, { key: shop.owner.key })).body.result.items[0];
  const sync = () => svc.call('POST', `/api/store-suppliers/${shop.storeId}/links/${link.id}/sync`, { key: shop.owner.key });
  await sandbox.control('POST', '/faults', { unavailableAccounts: [shop.account.accountId] });
  const failed = await sync();
  await sync();
  await sandbox.control('DELETE', '/faults');
  await arrived('productLink.syncFailed');
  const stored = (await svc.db.query('SELECT last_sync_error FROM product_links WHERE id = $1', [link.id])).rows[0].last_sync_error;
  expect(stored).toMatch(/^unavailable: /);
  const got = await events('productLink.syncFailed');
  expect(got).toHaveLength(1);
  expect(got[0].data).toMatchObject({ id: link.id, lastSyncError: stored, productId: link.productId });
  expect(failed.status === 200 ? failed.body.result.lastSyncError : stored).toBe(stored);
});

test('an import job that finishes reports the job as GET answers it', async () => {
  const page = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=100&page=9')).body.items.slice(0, 51);
  const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/${shop.connId}/import`, {
    key: shop.owner.key,
    body: { products: page.map((p: any) => ({ supplierProductId: p.id })) },
  });
  expect(res.status).toBe(202);
  await arrived('importJob.finished');
  const [finished] = await events('importJob.finished');
  const got = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/imports/${res.body.result.id}`, { key: shop.owner.key })).body.result;
  expect(finished.data).toEqual(got);
  expect(got.status).toBe('completed');
});

test('no database trigger writes an event: a row changed behind the service records none, its own change records one', async () => {
  const writers = await svc.db.query(
    `SELECT t.tgname FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid WHERE NOT t.tgisinternal AND p.prosrc ~* 'insert\\s+into\\s+event_outbox'`,
  );
  expect(writers.rows.map((r) => r.tgname)).toEqual([]);
  const outbox = async () =>
    Number(
      (await svc.db.query(`SELECT count(*) FROM event_outbox WHERE resource_key = $1 AND type = 'connection.healthChanged'`, [`connection:${shop.connId}`]))
        .rows[0].count,
    );
  const before = await outbox();
  const unhealthy = JSON.stringify({ status: 'unhealthy', checkedAt: new Date().toISOString(), latencyMs: 1, message: 'changed behind the service' });
  await svc.db.query('UPDATE supplier_connections SET health = $2 WHERE id = $1', [shop.connId, unhealthy]);
  expect(await outbox()).toBe(before);
  // The service's own check finds it healthy, through the connections domain's one write of health: one event.
  const checked = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/${shop.connId}/test`, { key: shop.owner.key });
  expect(checked.body.result.health.status).toBe('healthy');
  expect(await outbox()).toBe(before + 1);
});

leakScanTest();
