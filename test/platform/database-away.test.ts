/**
 * The database away (issue 35): a Postgres of this file's own is stopped, and frozen, under a running service. Every
 * route answers 503 serviceUnavailable with Retry-After (never a 500, never a hang past the time-outs), workers
 * back off without flooding the log, and once Postgres is back orders and events go on.
 */
import { Pool } from 'pg';
import { leakScanTest, Sandbox, seen, Service, startSandbox, startService, TEST_OPERATOR_TOKEN } from '../support/harness';
import { OwnPostgres } from '../support/own-postgres';
import { openShop, placeOrder, received, Shop, submit } from '../support/orders';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS, subscribe } from '../events/support';

/** Small on purpose, so a frozen database is noticed quickly; the defaults are 10 s and 15 s. */
const CONNECT_MS = 2000;
const STATEMENT_MS = 3000;
/** What a request may take at most while the database is away: a statement's time-out, the client's second, and slack for a loaded machine. */
const BOUND_MS = STATEMENT_MS + 1000 + 4000;

let pg: OwnPostgres;
let sandbox: Sandbox;
let svc: Service;
let receiver: Receiver & { url: string };
let shop: Shop;
/** The connection's notification address (its `webhookUrl`): the path, and its signed integration id. */
let notificationPath: string;
let subscription: { id: string; secret: string };
let operations: Array<{ method: string; path: string }>;

beforeAll(async () => {
  pg = new OwnPostgres();
  await pg.init();
  await pg.start();
  const admin = new Pool({ connectionString: pg.url(), max: 1 });
  await admin.query('CREATE DATABASE away');
  await admin.end();
  sandbox = await startSandbox();
  svc = await startService({
    label: 'away',
    databaseUrl: pg.url('away'),
    sandbox,
    publicBaseUrl: true,
    privateTargets: true,
    env: {
      ...FAST_EVENTS,
      DB_CONNECT_TIMEOUT_MS: String(CONNECT_MS),
      DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
      DISPATCH_RETRY_BASE_SECONDS: '1',
      JOB_SUPERVISE_SECONDS: '1',
    },
  });
  receiver = await Receiver.start();
  shop = await openShop(svc, sandbox);
  notificationPath = new URL((await svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result[0].webhookUrl).pathname;
  subscription = await subscribe(svc, shop.owner.key, shop.storeId, receiver.url, ['supplierOrder.created']);
  const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
  operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
    Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path: p })),
  );
}, 120000);

afterAll(async () => {
  await svc?.stop('SIGKILL');
  await receiver?.down();
  await sandbox?.close();
  await pg?.destroy();
});

/** Every route of the OpenAPI document, with the store's id, made-up ids elsewhere, the key, a session and the operator token. */
async function everyRoute() {
  const answers = [];
  for (const op of operations) {
    const p = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === 'storeId'
        ? shop.storeId
        : name === 'supplierKey'
          ? 'sandbox'
          : name === 'integrationId'
            ? notificationPath.slice(notificationPath.lastIndexOf('/') + 1)
            : name === 'connectionId'
              ? shop.connId
              : '00000000-0000-4000-8000-000000000000',
    );
    const started = Date.now();
    const res = await svc.call(op.method, p, {
      key: p.startsWith('/api/api-keys') || p.startsWith('/api/auth') ? undefined : shop.owner.key,
      session: p.startsWith('/api/api-keys') ? shop.owner.session : undefined,
      headers: { 'X-Operator-Token': TEST_OPERATOR_TOKEN },
      body: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
    });
    answers.push({
      route: `${op.method} ${op.path}`,
      status: res.status,
      code: res.body?.error?.code,
      retryAfter: res.headers.get('retry-after'),
      ms: Date.now() - started,
    });
  }
  return answers;
}

function expectUnavailable(res: { status: number; body: any; headers: Headers }) {
  expect([res.status, res.body?.error?.code]).toEqual([503, 'serviceUnavailable']);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

test('Postgres stopped: every route answers 503 with Retry-After, in time; Postgres back: orders and queued events go on', async () => {
  // An event waits in the queue: the receiver refuses it until after the outage.
  receiver.answer = () => 503;
  const before = await placeOrder(svc, shop);
  expect((await submit(svc, shop, before.id)).body.result.status).toBe('submitted');
  await receiver.until((r) => r.length >= 1, 20000, 'a refused delivery');

  await pg.stop();
  const stoppedAt = Date.now();
  // A keyed route, a session route, an unauthenticated route, and both notification addresses.
  expectUnavailable(await svc.call('GET', '/api/api-key/current', { key: shop.owner.key }));
  expectUnavailable(await svc.call('GET', '/api/api-keys', { session: shop.owner.session }));
  expectUnavailable(await svc.call('POST', '/api/auth/sign-in', { body: { email: shop.owner.email, password: shop.owner.password } }));
  expectUnavailable(await svc.call('POST', notificationPath, { rawBody: '{"type":"order.updated"}', headers: { 'Content-Type': 'application/json' } }));
  expectUnavailable(await svc.call('POST', `/api/payment-notifications/${shop.storeId}`, { rawBody: '{}', headers: { 'Content-Type': 'application/json' } }));
  const ready = await svc.call('GET', '/readyz');
  expect([ready.status, ready.headers.get('retry-after')]).toEqual([503, '5']);

  const answers = await everyRoute();
  expect(answers.filter((a) => a.status >= 500 && (a.status !== 503 || a.code !== 'serviceUnavailable' || !a.retryAfter))).toEqual([]);
  expect(answers.filter((a) => a.ms > BOUND_MS)).toEqual([]);
  // Nearly every route needs the database; those that do not (the document, the console) answer as usual.
  expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(operations.length * 0.8);
  expect(svc.logs.filter((l) => l.msg === 'request failed')).toEqual([]);

  // A few seconds of every worker polling a stopped database: no crash, and no line per poll.
  const linesBefore = svc.logs.length;
  const outputBefore = seen.logLines.length;
  await new Promise((r) => setTimeout(r, 6000));
  expect(svc.proc.exitCode).toBeNull();
  const warnings = svc.logs.slice(linesBefore).filter((l) => l.level === 40 || l.level === 50);
  expect(warnings.length).toBeLessThan(15);
  // Nor anything else printed (a library's own console lines): everything the process wrote meanwhile.
  expect(seen.logLines.length - outputBefore).toBeLessThan(25);

  await pg.start();
  // The LISTEN connections (dispatch's and the delivery loop's) come back by themselves.
  await svc.waitForLog((l) => l.msg === 'listen connection back' && typeof l.time === 'string' && Date.parse(l.time as string) > stoppedAt, 30000);
  receiver.answer = () => 200;
  // The queued event is delivered: the very one refused before the outage.
  const refusedId = receiver.received[0].headers['webhook-id'];
  await receiver.until((r) => r.some((x) => x.status === 200 && x.headers['webhook-id'] === refusedId), 30000, 'the queued event after the outage');
  // A new order is sent to the supplier once, as before.
  const after = await placeOrder(svc, shop);
  let res = await submit(svc, shop, after.id);
  for (let i = 0; i < 20 && res.status !== 200; i++) {
    await new Promise((r) => setTimeout(r, 500));
    res = await submit(svc, shop, after.id);
  }
  expect([res.status, res.body.result.status]).toEqual([200, 'submitted']);
  expect((await received(sandbox)).count(res.body.result.supplierOrderNumber)).toBe(1);
  await receiver.until((r) => r.filter((x) => x.status === 200).length >= 2, 30000, "the new order's event");
  expect(subscription.id).toBeTruthy();
}, 120000);

test('Postgres frozen (neither answering nor refusing): requests answer 503 within the time-outs, and work once it thaws', async () => {
  expect((await svc.call('GET', '/api/api-key/current', { key: shop.owner.key })).status).toBe(200);
  pg.freeze(true);
  try {
    for (const call of [
      () => svc.call('GET', '/api/api-key/current', { key: shop.owner.key }),
      () => svc.call('GET', `/api/store-orders/${shop.storeId}`, { key: shop.owner.key }),
    ]) {
      const started = Date.now();
      expectUnavailable(await call());
      expect(Date.now() - started).toBeLessThan(BOUND_MS);
    }
  } finally {
    pg.freeze(false);
  }
  let status = 0;
  for (let i = 0; i < 40 && status !== 200; i++) {
    status = (await svc.call('GET', '/api/api-key/current', { key: shop.owner.key })).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  expect(status).toBe(200);
}, 60000);

leakScanTest();
