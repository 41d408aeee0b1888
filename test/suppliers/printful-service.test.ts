/**
 * The service with the Printful adapter, against the local Printful-format server: the webhook address registered and
 * read back, webhooks prompting read-backs (packages, delivery, returns), replays and forgeries refused, and Printful's
 * retry schedule (on the fake's sped-up clock) ending once the service answers 2xx, after refusals (400) or while it
 * cannot decide (503).
 */
import { Pool } from 'pg';
import { Secrets } from '../../server/platform/crypto';
import { RunningFakePrintful, startFakePrintful } from '../fakes/printful';
import { eventually, leakScanTest, notificationAddress, Service, startService } from '../support/harness';
import { soAction, submit } from '../support/orders';
import { openPrintfulShop, PRINTFUL_US, PrintfulShop, printfulControl, printfulOrdersAt } from '../support/printful';

/* eslint-disable @typescript-eslint/no-explicit-any */

const APP_SECRET = 'printful-service-test-secret-'.padEnd(48, 'p');
/** A "minute" of Printful's retry schedule lasts 50 ms: retries after 0.05, 0.2, 0.8, 3.2, 12.8 and 51.2 s. */
const MINUTE_MS = 50;
let fake: RunningFakePrintful;
let svc: Service;

beforeAll(async () => {
  fake = await startFakePrintful({ retryMinuteMs: MINUTE_MS, requestsPerMinute: 100_000, hangMs: 3000 });
  svc = await startService({
    label: 'printful-service',
    publicBaseUrl: true,
    appSecret: APP_SECRET,
    env: { PRINTFUL_API_BASE_URL: fake.baseUrl, SUPPLIER_TIMEOUT_MS: '2500' },
  });
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
});

const control = (method: string, path: string, body?: unknown) => printfulControl(fake, method, path, body);
const getSo = async (shop: PrintfulShop, soId: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${soId}`, { key: shop.owner.key })).body.result;
const deliveries = async (pred: (d: any) => boolean = () => true) => (await control('GET', '/webhooks')).deliveries.filter(pred);
const connectionOf = async (shop: PrintfulShop) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result.find((c: any) => c.id === shop.connId);
const fakeOrder = async (number: string) => (await printfulOrdersAt(fake, number))[0];

async function until(shop: PrintfulShop, soId: string, check: (so: any) => boolean, what: string): Promise<any> {
  return eventually(
    async () => {
      const so = await getSo(shop, soId);
      return check(so) ? so : undefined;
    },
    20000,
    what,
  );
}

/** An order of every product of the shop, one line each, sent to Printful as a draft. */
async function sendOrder(shop: PrintfulShop): Promise<{ orderId: string; so: any }> {
  const items = shop.products.map((p) => ({ productId: p.productId, variantId: p.variantId, quantity: 1 }));
  const order = await svc.call('POST', `/api/store-orders/${shop.storeId}`, {
    key: shop.owner.key,
    body: { items, destination: PRINTFUL_US, paymentMethod: 'manual', contractModel: 'standard' },
  });
  if (order.status !== 201) throw new Error(order.text);
  const res = await submit(svc, shop, order.body.result.id);
  expect(res.status).toBe(200);
  expect(res.body.result).toMatchObject({ status: 'submitted', supplierKey: 'printful', supplierStatus: 'draft' });
  return { orderId: order.body.result.id, so: res.body.result };
}

const secrets = new Secrets(APP_SECRET);

test("connecting registers the store-named notification address with Printful's webhook configuration, read back, and keeps the store it serves", async () => {
  const shop = await openPrintfulShop(svc, fake);
  const conn = await connectionOf(shop);
  expect(conn.webhookUrl).toMatch(notificationAddress(svc.baseUrl, shop.storeId, shop.connId, 'printful'));
  const { configs } = await control('GET', '/webhooks');
  expect(configs[shop.printful.storeIds[0]]).toEqual({
    url: conn.webhookUrl,
    types: ['package_shipped', 'package_returned', 'order_failed', 'order_canceled', 'order_put_hold', 'order_remove_hold', 'order_updated'],
    params: {},
  });
  const sealed = (await svc.db.query('SELECT credentials_sealed, registered_notification_address FROM supplier_connections WHERE id = $1', [shop.connId]))
    .rows[0];
  expect(sealed.registered_notification_address).toBe(conn.webhookUrl);
  expect(JSON.parse(secrets.decrypt(sealed.credentials_sealed))).toEqual({ apiKey: shop.printful.token, notifyStoreId: String(shop.printful.storeIds[0]) });
  const catalogue = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/catalogue`, { key: shop.owner.key })).body.result;
  expect(catalogue.find((e: any) => e.key === 'printful').capabilities).toMatchObject({ notifications: true, authKind: 'apiKey' });
});

test('packages: each webhook is read back; two packages keep their own tracking; delivered stays delivered after a late reshipment; a return is recorded once, with its event', async () => {
  const shop = await openPrintfulShop(svc, fake, { products: 2 });
  const { so } = await sendOrder(shop);
  const paid = await soAction(svc, shop, so._id, 'pay');
  expect(paid.body.result).toMatchObject({ status: 'confirmed', supplierStatus: 'pending', payment: { status: 'paid' } });
  const at = await fakeOrder(so.supplierOrderNumber);
  const [first, second] = at.items.map((i: any) => i.id);

  // First package: Printful says partial (still being made), the package's tracking comes along.
  await control('POST', `/orders/${at.id}/ship`, { itemIds: [first], trackingNumber: 'PF-TRACK-A' });
  let now = await until(shop, so._id, (s) => s.shipping?.trackingNumber === 'PF-TRACK-A', 'the first package read back');
  expect(now).toMatchObject({ status: 'processing', supplierStatus: 'partial' });
  await control('POST', `/orders/${at.id}/ship`, { itemIds: [second], trackingNumber: 'PF-TRACK-B', carrier: 'DHL' });
  now = await until(shop, so._id, (s) => s.status === 'shipped', 'the second package read back');
  expect(now.shipping).toMatchObject({ carrier: 'USPS, DHL', trackingNumber: 'PF-TRACK-A, PF-TRACK-B' });

  // Delivery comes from v2's shipments; v1 only fires order_updated.
  const shipmentIds = (await fakeOrder(so.supplierOrderNumber)).shipments.map((s: any) => s.id);
  await control('POST', `/orders/${at.id}/shipments/${shipmentIds[0]}/deliver`);
  await control('POST', `/orders/${at.id}/shipments/${shipmentIds[1]}/deliver`);
  now = await until(shop, so._id, (s) => s.status === 'delivered', 'delivered');
  const details = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${so.orderId}`, { key: shop.owner.key })).body.result;
  expect(details.fulfilmentGroups[0]).toMatchObject({ status: 'delivered', shipment: { trackingNumber: 'PF-TRACK-A, PF-TRACK-B' } });

  // A reshipment's package_shipped, late: read back, its tracking joins the others, and the order stays delivered.
  const readBacks = (s: any) => s.events.filter((e: any) => e.type === 'readBack').length;
  const before = readBacks(now);
  await control('POST', `/orders/${at.id}/ship`, { itemIds: [first], trackingNumber: 'PF-TRACK-C', reshipment: true });
  now = await until(shop, so._id, (s) => s.shipping?.trackingNumber === 'PF-TRACK-A, PF-TRACK-B, PF-TRACK-C', 'the reshipment read back');
  expect(readBacks(now)).toBeGreaterThan(before);
  expect(now.status).toBe('delivered');

  // Package A comes back: recorded once on the supplier order, the event sent; the status stays.
  await control('POST', `/orders/${at.id}/shipments/${shipmentIds[0]}/return`, { reason: 'Address unknown' });
  now = await until(shop, so._id, (s) => s.events.some((e: any) => e.type === 'packageReturned'), 'the return read back');
  const returned = now.events.filter((e: any) => e.type === 'packageReturned');
  expect(returned).toHaveLength(1);
  expect(returned[0].details).toMatchObject({ supplierStatus: 'fulfilled', via: 'readBack', returned: [{ carrier: 'USPS', trackingNumber: 'PF-TRACK-A' }] });
  expect(now.status).toBe('delivered');
  const events = async () => (await svc.db.query(`SELECT type FROM event_outbox WHERE store_id = $1 AND type = 'supplierOrder.returned'`, [shop.storeId])).rows;
  expect(await events()).toHaveLength(1);

  // The same webhook again is a replay (400); a new read-back of the order records nothing more.
  const [sent] = await deliveries((d) => d.type === 'package_returned' && JSON.parse(d.body).store === shop.printful.storeIds[0]);
  expect(sent.status).toBe(200);
  const replay = await fetch(sent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sent.body });
  expect(replay.status).toBe(400);
  await control('POST', `/orders/${at.id}/status`, { status: 'fulfilled' }); // order_updated: read back once more
  const seenBefore = readBacks(now);
  now = await until(shop, so._id, (s) => readBacks(s) > seenBefore, 'one more read-back');
  expect(now.events.filter((e: any) => e.type === 'packageReturned')).toHaveLength(1);
  expect(await events()).toHaveLength(1);

  // Printful holds one order, confirmed once.
  const held = await printfulOrdersAt(fake, so.supplierOrderNumber);
  expect(held.map((o: any) => ({ confirms: o.confirms, confirmCalls: o.confirmCalls }))).toEqual([{ confirms: 1, confirmCalls: 1 }]);
});

test('Printful retries a refused webhook on its schedule; once the service answers 200 the retries end and the order is read back', async () => {
  const shop = await openPrintfulShop(svc, fake);
  const { so } = await sendOrder(shop);
  await soAction(svc, shop, so._id, 'pay');
  const at = await fakeOrder(so.supplierOrderNumber);
  // Switched off, the connection refuses notifications (400, as every refusal).
  expect((await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.connId}/enabled`, { key: shop.owner.key, body: { enabled: false } })).status).toBe(
    200,
  );
  await control('POST', `/orders/${at.id}/ship`, { trackingNumber: 'PF-RETRIED-1' });
  const mine = (d: any) => d.type === 'package_shipped' && JSON.parse(d.body).data.order.id === at.id;
  await eventually(async () => ((await deliveries(mine)).length >= 2 ? true : undefined), 10000, 'two refused deliveries');
  expect((await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.connId}/enabled`, { key: shop.owner.key, body: { enabled: true } })).status).toBe(
    200,
  );
  const accepted = await eventually(async () => (await deliveries(mine)).find((d: any) => d.status === 200), 20000, 'an accepted retry');
  const shipped = await until(shop, so._id, (s) => s.status === 'shipped', 'shipped');
  expect(shipped.shipping.trackingNumber).toBe('PF-RETRIED-1');
  // Wait past the next slot of the schedule: nothing more is sent after the 200.
  await new Promise((r) => setTimeout(r, 4 * MINUTE_MS * 4 ** Math.min(accepted.retries, 3) + 500));
  const all = await deliveries(mine);
  expect(all.map((d: any) => d.retries)).toEqual(Array.from({ length: all.length }, (_, i) => i));
  expect(all.slice(0, -1).every((d: any) => d.status === 400)).toBe(true);
  expect(all[all.length - 1]).toMatchObject({ status: 200, retries: accepted.retries });
  expect(accepted.retries).toBeGreaterThanOrEqual(2);
  // Every attempt carries the event's first time: the schedule's gaps (1, 4, 16 ... minutes, sped up) between them.
  const gaps = all.slice(1).map((d: any, i: number) => d.at - all[i].at);
  gaps.forEach((g: number, i: number) => expect(g).toBeGreaterThanOrEqual(MINUTE_MS * 4 ** i - 20));
  expect(new Set(all.map((d: any) => JSON.parse(d.body).created)).size).toBe(1);
});

test("refused alike: another store's event, one older than the retry schedule, an unregistered type, an altered address, the bare connection id; none is read back", async () => {
  const shop = await openPrintfulShop(svc, fake);
  const { so } = await sendOrder(shop);
  const conn = await connectionOf(shop);
  const order = { id: Number(so.supplierOrderId), external_id: so.supplierOrderNumber, status: 'draft' };
  const now = Math.floor(Date.now() / 1000);
  const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const good = { type: 'order_updated', created: now, retries: 0, store: shop.printful.storeIds[0], data: { order } };
  const refusals = [
    { ...good, store: shop.printful.storeIds[0] + 1 },
    { ...good, created: now - 23 * 3600 - 60 },
    { ...good, created: now + 3600 },
    { ...good, type: 'product_synced' },
    { ...good, data: {} },
  ];
  for (const body of refusals) {
    const res = await post(conn.webhookUrl, body);
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { error: { code: 'notificationRefused', message: 'The notification was not accepted.' } },
    });
  }
  const altered = conn.webhookUrl.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
  // The connection's id alone, without the store and tag of its address: no address of this service.
  const bare = conn.webhookUrl.replace(/[^/]+$/, conn.id);
  for (const url of [altered, bare]) {
    const res = await post(url, good);
    expect({ url, status: res.status, body: await res.json() }).toEqual({
      url,
      status: 400,
      body: { error: { code: 'notificationRefused', message: 'The notification was not accepted.' } },
    });
  }
  expect((await getSo(shop, so._id)).events.filter((e: any) => e.type === 'readBack')).toHaveLength(0);
  // The same event, rightly addressed and in time, is taken: 22 hours late is still within Printful's retries.
  expect((await post(conn.webhookUrl, { ...good, created: now - 22 * 3600, retries: 6 })).status).toBe(200);
  await until(shop, so._id, (s) => s.events.some((e: any) => e.type === 'readBack'), 'the read-back');
});

test('answered 503 while the service cannot decide (its database out of reach): Printful sends it again on its schedule, and the retry is taken', async () => {
  const shop = await openPrintfulShop(svc, fake);
  const { so } = await sendOrder(shop);
  await soAction(svc, shop, so._id, 'pay');
  const at = await fakeOrder(so.supplierOrderNumber);
  const mine = (d: any) => d.type === 'package_shipped' && JSON.parse(d.body).data.order.id === at.id;
  const admin = new Pool({ connectionString: process.env.TEST_ADMIN_DATABASE_URL, max: 1 });
  const dbName = new URL(svc.databaseUrl).pathname.slice(1);
  try {
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName]);
    await control('POST', `/orders/${at.id}/ship`, { trackingNumber: 'PF-AFTER-503' });
    await eventually(async () => ((await deliveries(mine)).length >= 1 ? true : undefined), 10000, 'the first delivery');
  } finally {
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    await admin.end();
  }
  const accepted = await eventually(async () => (await deliveries(mine)).find((d: any) => d.status === 200), 30000, 'a retry taken');
  const all = await deliveries(mine);
  expect(all[0]).toMatchObject({ status: 503, retries: 0 });
  // Every attempt before the one taken was answered 503, and none came after it.
  expect(all.map((d: any) => d.status)).toEqual([...Array(all.length - 1).fill(503), 200]);
  expect(accepted.retries).toBe(all.length - 1);
  expect(accepted.retries).toBeGreaterThanOrEqual(1);
  const shipped = await until(shop, so._id, (s) => s.status === 'shipped', 'shipped');
  expect(shipped.shipping.trackingNumber).toBe('PF-AFTER-503');
});

leakScanTest();
