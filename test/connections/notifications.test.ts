import crypto from 'node:crypto';
import { Pool } from 'pg';
import { signSandboxNotification } from '../../server/sandboxes/supplier';
import { createStore, Developer, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
let acc: { accountId: string; liveKey: string };
let conn: { id: string; webhookUrl: string };
let secret: string;
let refusal: string;

const ORDER_QUEUE = 'readback.supplier-order';

beforeAll(async () => {
  sandbox = await startSandbox();
  // The api role only: no worker takes the read-backs, so what waits on the queue can be counted.
  svc = await startService({ label: 'notify', sandbox, publicBaseUrl: true, role: 'api' });
  owner = await newDeveloper(svc, { plan: 'pro' });
  storeId = await createStore(svc, owner.key);
  acc = await sandbox.account(1_000_000);
  conn = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } },
    })
  ).body.result;
  // Registering the same address again answers the secret the sandbox already signs with.
  secret = (await sandbox.v1(acc.liveKey, 'PUT', '/webhook', { url: conn.webhookUrl })).body.signingSecret;
  refusal = (await post(pathOf(conn), '{}', {})).text;
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

function event(orderId: string, id = `evt_${crypto.randomBytes(6).toString('hex')}`) {
  return JSON.stringify({ id, type: 'order.updated', createdAt: new Date().toISOString(), data: { orderId, orderNumber: 'N-1', status: 'shipped' } });
}

/** The path of a connection's own notification address (its `webhookUrl`), the integration id signed. */
const pathOf = (c: { webhookUrl: string }) => new URL(c.webhookUrl).pathname;

function post(path: string, body: string, headers: Record<string, string>) {
  return svc.call('POST', path, { rawBody: body, headers: { 'Content-Type': 'application/json', ...headers } });
}

function signed(body: string, opts: { secret?: string; t?: number } = {}) {
  const t = opts.t ?? Math.floor(Date.now() / 1000);
  return { 'X-Sandbox-Signature': signSandboxNotification(opts.secret ?? secret, body, t) };
}

async function jobs(singletonKey?: string): Promise<Array<{ state: string; data: any; singleton_key: string }>> {
  const res = await svc.db.query(
    `SELECT state, data, singleton_key FROM pgboss.job WHERE name = $1 ${singletonKey ? 'AND singleton_key = $2' : ''}`,
    singletonKey ? [ORDER_QUEUE, singletonKey] : [ORDER_QUEUE],
  );
  return res.rows;
}

async function lastWebhookAt(id = conn.id): Promise<Date | null> {
  return (await svc.db.query('SELECT last_webhook_at FROM supplier_connections WHERE id = $1', [id])).rows[0].last_webhook_at;
}

test('a real notification from the supplier is verified, recorded and queues a read-back; it changes nothing else', async () => {
  const products = (await sandbox.v1(acc.liveKey, 'GET', '/products?pageSize=50')).body.items as Array<{
    shipsTo: string[];
    variants: Array<{ id: string; stock: number; available: boolean }>;
  }>;
  const variant = products
    .filter((p) => p.shipsTo.includes('US'))
    .flatMap((p) => p.variants)
    .find((v) => v.available && v.stock > 0)!;
  const order = await sandbox.v1(acc.liveKey, 'POST', '/orders', {
    orderNumber: 'REAL-1',
    items: [{ variantId: variant.id, quantity: 1 }],
    destination: { name: 'A', line1: '1 Main St', city: 'Springfield', postalCode: '62701', country: 'US' },
  });
  if (order.status !== 201) throw new Error(JSON.stringify(order.body));
  await sandbox.v1(acc.liveKey, 'POST', `/orders/${order.body.id}/pay`);
  let waited = 0;
  while (!(await lastWebhookAt()) && waited < 5000) {
    await new Promise((r) => setTimeout(r, 50));
    waited += 50;
  }
  expect(await lastWebhookAt()).not.toBeNull();
  // The read-back is queued right after the receipt is written.
  const queued = await eventually(
    async () => {
      const rows = await jobs(`${conn.id}:${order.body.id}`);
      return rows.length ? rows : undefined;
    },
    5000,
    'the read-back job',
  );
  expect(queued).toHaveLength(1);
  expect(queued[0].data).toEqual({ connectionId: conn.id, storeId, supplierOrderId: order.body.id, orderNumber: 'REAL-1' });
  const listed = (await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: owner.key })).body.result[0];
  expect(Date.parse(listed.lastWebhookAt)).toBeGreaterThan(Date.now() - 60000);
});

test('forged, stale, unsigned, malformed and misaddressed notifications: one identical 400, no state change', async () => {
  const before = await lastWebhookAt();
  const jobsBefore = (await jobs()).length;
  const other = await sandbox.account();
  const otherConn = (
    await svc.call('POST', `/api/store-suppliers/${storeId}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: (other as any).testKey } },
    })
  ).body.result;
  const disabledStore = await createStore(svc, owner.key, 'Disabled');
  const third = await sandbox.account();
  const disabled = (
    await svc.call('POST', `/api/store-suppliers/${disabledStore}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: third.liveKey } },
    })
  ).body.result;
  await svc.call('PUT', `/api/store-suppliers/${disabledStore}/${disabled.id}/enabled`, { key: owner.key, body: { enabled: false } });
  const goneStore = await createStore(svc, owner.key, 'Gone');
  const fourth = await sandbox.account();
  const gone = (
    await svc.call('POST', `/api/store-suppliers/${goneStore}`, {
      key: owner.key,
      body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: fourth.liveKey } },
    })
  ).body.result;
  const goneSecret = (await sandbox.v1(fourth.liveKey, 'PUT', '/webhook', { url: gone.webhookUrl })).body.signingSecret;
  await svc.call('DELETE', `/api/store-suppliers/${goneStore}/${gone.id}`, { key: owner.key });

  const body = event('SBX-O-FORGED');
  const path = pathOf(conn);
  const addressId = path.slice(path.lastIndexOf('/') + 1);
  const [, storeHex, tag] = addressId.split('.');
  const cases: Array<[string, string, string, Record<string, string>]> = [
    ['wrong secret', path, body, signed(body, { secret: 'whsec_guess' })],
    ["another connection's secret", pathOf(otherConn), body, signed(body)],
    ['body changed after signing', path, body.replace('shipped', 'delivered'), signed(body)],
    ['stale timestamp', path, body, signed(body, { t: Math.floor(Date.now() / 1000) - 3600 })],
    ['future timestamp', path, body, signed(body, { t: Math.floor(Date.now() / 1000) + 3600 })],
    ['no signature', path, body, {}],
    ['garbage signature', path, body, { 'X-Sandbox-Signature': 'nonsense' }],
    ['signed but not JSON', path, 'not json', signed('not json')],
    [
      'signed but unknown type',
      path,
      JSON.stringify({ id: 'evt_x', type: 'order.teleported', data: {} }),
      signed(JSON.stringify({ id: 'evt_x', type: 'order.teleported', data: {} })),
    ],
    ['unknown supplier', `/api/store-suppliers/webhook/acme/${addressId}`, body, signed(body)],
    ['supplier key of another connection', `/api/store-suppliers/webhook/sandbox-signin/${addressId}`, body, signed(body)],
    ['unknown connection', `/api/store-suppliers/webhook/sandbox/${crypto.randomUUID()}.${storeHex}.${tag}`, body, signed(body)],
    ['malformed connection id', `/api/store-suppliers/webhook/sandbox/not-a-uuid`, body, signed(body)],
    ['the bare connection id', `/api/store-suppliers/webhook/sandbox/${conn.id}`, body, signed(body)],
    ['the store in the path', `/api/store-suppliers/webhook/sandbox/${storeId}/${conn.id}`, body, signed(body)],
    ['switched-off connection', pathOf(disabled), body, signed(body)],
    ['disconnected connection', pathOf(gone), body, signed(body, { secret: goneSecret })],
    ['oversized body', path, 'x'.repeat(300 * 1024), signed('x')],
    ['over-long connection id', `/api/store-suppliers/webhook/sandbox/${'a'.repeat(101)}`, body, signed(body)],
    ['over-long supplier key', `/api/store-suppliers/webhook/${'s'.repeat(101)}/${addressId}`, body, signed(body)],
    ['NUL in the supplier key', `/api/store-suppliers/webhook/sand%00box/${addressId}`, body, signed(body)],
    ['broken percent-encoding', `/api/store-suppliers/webhook/sandbox/%E0%A4%A`, body, signed(body)],
    ['no connection id', `/api/store-suppliers/webhook/sandbox`, body, signed(body)],
    ['extra path segment', `${path}/more`, body, signed(body)],
    ['empty body', path, '', {}],
  ];
  for (const [name, p, b, h] of cases) {
    const res = await post(p, b, h);
    expect([name, res.status, res.text]).toEqual([name, 400, refusal]);
  }
  const textPlain = await svc.call('POST', path, { rawBody: body, headers: { 'Content-Type': 'text/plain', 'X-Sandbox-Signature': 'nonsense' } });
  expect([textPlain.status, textPlain.text]).toEqual([400, refusal]);
  const noType = await svc.call('POST', path, { rawBody: 'a=1&b=2', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  expect([noType.status, noType.text]).toEqual([400, refusal]);
  expect(JSON.parse(refusal)).toEqual({ error: { code: 'notificationRefused', message: expect.any(String) } });
  expect(await lastWebhookAt()).toEqual(before);
  expect((await jobs()).length).toBe(jobsBefore);
});

test('a replayed notification (same event) is refused the second time', async () => {
  const body = event('SBX-O-REPLAY', 'evt_replay_1');
  const path = pathOf(conn);
  const headers = signed(body);
  expect((await post(path, body, headers)).status).toBe(200);
  const again = await post(path, body, headers);
  expect([again.status, again.text]).toEqual([400, refusal]);
});

test('100 notifications for one order coalesce into one pending read-back', async () => {
  const orderId = `SBX-O-${crypto.randomBytes(4).toString('hex')}`;
  const path = pathOf(conn);
  const answers = await Promise.all(
    Array.from({ length: 100 }, () => {
      const body = event(orderId);
      return post(path, body, signed(body));
    }),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
  expect(answers[0].body).toEqual({ received: true });
  const pending = await jobs(`${conn.id}:${orderId}`);
  expect(pending).toHaveLength(1);
  expect(pending[0].state).toBe('created');
});

test('503 when the service cannot decide (database unreachable); accepted again once it is back', async () => {
  const body = event('SBX-O-503');
  const path = pathOf(conn);
  const admin = new Pool({ connectionString: process.env.TEST_ADMIN_DATABASE_URL, max: 1 });
  const dbName = new URL(svc.databaseUrl).pathname.slice(1);
  try {
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName]);
    const res = await post(path, body, signed(body));
    expect(res.status).toBe(503);
  } finally {
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    await admin.end();
  }
  let status = 0;
  for (let i = 0; i < 30 && status !== 200; i++) {
    const b = event('SBX-O-503');
    status = (await post(path, b, signed(b))).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  expect(status).toBe(200);
});

leakScanTest();
