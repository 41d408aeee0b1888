/**
 * The notification address is the spec's, `/webhook/:supplierKey/:integrationId`, with an integration id that carries
 * the store, signed (`<connectionId>.<store>.<tag>`), so the look-up reads one shard. No other form is taken: not the
 * bare connection id, nor the store in the path (forms no published version ever registered).
 */
import crypto from 'node:crypto';
import { signSandboxNotification } from '../../server/sandboxes/supplier';
import { createStore, Developer, leakScanTest, newDeveloper, notificationAddress, Sandbox, Service, startSandbox, startService } from '../support/harness';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
let acc: { accountId: string; liveKey: string };
let conn: { id: string; webhookUrl: string };
let secret: string;
let refusal: string;

const BASE = '/api/store-suppliers/webhook';
const ORDER_QUEUE = 'readback.supplier-order';

beforeAll(async () => {
  sandbox = await startSandbox();
  // The api role only: no worker takes the read-backs, so what waits on the queue can be counted.
  svc = await startService({ label: 'notifyaddr', sandbox, publicBaseUrl: true, role: 'api' });
  owner = await newDeveloper(svc, { plan: 'pro' });
  storeId = await createStore(svc, owner.key);
  acc = await sandbox.account();
  conn = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result;
  secret = (await sandbox.v1(acc.liveKey, 'PUT', '/webhook', { url: conn.webhookUrl })).body.signingSecret;
  refusal = (await post(new URL(conn.webhookUrl).pathname, '{}', {})).text;
  expect(JSON.parse(refusal)).toEqual({ error: { code: 'notificationRefused', message: 'The notification was not accepted.' } });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

function event(orderId: string) {
  return JSON.stringify({
    id: `evt_${crypto.randomBytes(6).toString('hex')}`,
    type: 'order.updated',
    createdAt: new Date().toISOString(),
    data: { orderId, orderNumber: 'N-1', status: 'shipped' },
  });
}
function post(path: string, body: string, headers: Record<string, string>) {
  return svc.call('POST', path, { rawBody: body, headers: { 'Content-Type': 'application/json', ...headers } });
}
const signed = (body: string) => ({ 'X-Sandbox-Signature': signSandboxNotification(secret, body, Math.floor(Date.now() / 1000)) });

/** What a notification leaves behind: the connection's receipts, its last notification time, its read-backs waiting. */
async function traces(connectionId = conn.id) {
  const receipts = (await svc.db.query('SELECT count(*)::int AS n FROM supplier_notification_receipts WHERE connection_id = $1', [connectionId])).rows[0].n;
  const last = (await svc.db.query('SELECT last_webhook_at FROM supplier_connections WHERE id = $1', [connectionId])).rows[0].last_webhook_at;
  const jobs = (await svc.db.query(`SELECT data FROM pgboss.job WHERE name = $1 AND data->>'connectionId' = $2`, [ORDER_QUEUE, connectionId])).rows.map(
    (r) => r.data,
  );
  return { receipts, last: last ? new Date(last).toISOString() : null, jobs };
}

const integrationIdOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

test("the address a connection answers and registers at the supplier is the spec's, its integration id carrying the store", async () => {
  expect(conn.webhookUrl).toMatch(notificationAddress(svc.baseUrl, storeId, conn.id));
  const expected = conn.webhookUrl;
  expect((await sandbox.v1(acc.liveKey, 'GET', '/webhook')).body.url).toBe(expected);
  const stored = (await svc.db.query('SELECT registered_notification_address FROM supplier_connections WHERE id = $1', [conn.id])).rows[0];
  expect(stored.registered_notification_address).toBe(expected);
});

test("a notification to the spec's address is processed once, with the store in its read-back", async () => {
  const body = event('SBX-O-SPECADDR');
  const res = await post(new URL(conn.webhookUrl).pathname, body, signed(body));
  expect([res.status, res.body]).toEqual([200, { received: true }]);
  const jobs = (await traces()).jobs.filter((d) => d.supplierOrderId === 'SBX-O-SPECADDR');
  expect(jobs).toEqual([{ connectionId: conn.id, storeId, supplierOrderId: 'SBX-O-SPECADDR', orderNumber: 'N-1' }]);
});

test('attack: an altered or forged integration id is refused with the same answer as every refusal, and leaves nothing behind', async () => {
  const intruder = await newDeveloper(svc, { plan: 'pro' });
  const storeB = await createStore(svc, intruder.key, 'Store B (forged address)');
  const intruderConn = (
    await svc.call('POST', `/api/store-suppliers/${storeB}`, {
      key: intruder.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: (await sandbox.account()).liveKey } },
    })
  ).body.result;
  const [connId, store, tag] = integrationIdOf(conn.webhookUrl).split('.');
  const [, , intruderTag] = integrationIdOf(intruderConn.webhookUrl).split('.');
  const flip = (t: string) => `${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`;
  const before = await traces();
  const body = event('SBX-O-FORGED');
  const forged = [
    `${connId}.${storeB.replace(/-/g, '')}.${tag}`, // another store, the connection's own tag
    `${connId}.${store}.${flip(tag)}`, // one character of the tag changed
    `${connId}.${store}.${intruderTag}`, // another connection's tag
    `${connId}.${store}.`, // no tag
    `${connId}.${store}`, // no tag at all
    `${connId}.${crypto.randomUUID().replace(/-/g, '')}.${tag}`,
    `${connId}.${store}.${tag}.x`,
    `${connId.toUpperCase()}.${store}.${tag}`,
  ];
  for (const id of forged) {
    const res = await post(`${BASE}/sandbox/${id}`, body, signed(body));
    expect([id, res.status, res.text]).toEqual([id, 400, refusal]);
  }
  // The tag binds the supplier too: the same id under another supplier's path is refused like the rest.
  const otherSupplier = await post(`${BASE}/cj/${integrationIdOf(conn.webhookUrl)}`, body, signed(body));
  expect([otherSupplier.status, otherSupplier.text]).toEqual([400, refusal]);
  expect(await traces()).toEqual(before);
  // The same notification at the connection's own address goes through: the address alone was refused.
  const own = await post(new URL(conn.webhookUrl).pathname, body, signed(body));
  expect([own.status, own.body]).toEqual([200, { received: true }]);
});

test('attack: the bare connection id and the store in the path, rightly signed, are refused like every refusal and leave nothing behind', async () => {
  const before = await traces();
  const body = event('SBX-O-OLDFORMS');
  for (const path of [
    `${BASE}/sandbox/${conn.id}`,
    `${BASE}/sandbox/${storeId}/${conn.id}`,
    `${BASE}/sandbox/${storeId}/${integrationIdOf(conn.webhookUrl)}`,
  ]) {
    const res = await post(path, body, signed(body));
    expect([path, res.status, res.text]).toEqual([path, 400, refusal]);
  }
  expect(await traces()).toEqual(before);
  // The same notification at the connection's own address goes through: the form alone was refused.
  const own = await post(new URL(conn.webhookUrl).pathname, body, signed(body));
  expect([own.status, own.body]).toEqual([200, { received: true }]);
  expect((await traces()).jobs.filter((d) => d.supplierOrderId === 'SBX-O-OLDFORMS')).toEqual([
    { connectionId: conn.id, storeId, supplierOrderId: 'SBX-O-OLDFORMS', orderNumber: 'N-1' },
  ]);
});

leakScanTest();
