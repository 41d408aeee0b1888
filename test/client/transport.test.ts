/** Retries, time-outs, aborts, a revoked key, the browser guard, and the key kept out of every error. */
import util from 'node:util';
import { createStore, freePort, leakScanTest, newDeveloper, Developer, Sandbox, Service, startSandbox, startService } from '../support/harness';
import {
  ConnectionError,
  ServiceUnavailableError,
  StoreClient,
  StoreSuppliersError,
  TimeoutError,
  UnauthenticatedError,
  clientFor,
  expectNoKey,
  rejectionOf,
} from './support';

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
let connId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  // A high circuit threshold: these tests fail the supplier on purpose and must not pause the connection.
  svc = await startService({ label: 'client_transport', sandbox, env: { CIRCUIT_FAILURE_THRESHOLD: '50' } });
  owner = await newDeveloper(svc, { plan: 'pro', credits: 1000 });
  storeId = await createStore(svc, owner.key);
  const acc = await sandbox.account(5000);
  const { store } = clientFor(svc, owner.key);
  connId = (await store.suppliers.connections.connect(storeId, { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: acc.liveKey } })).id;
});
afterEach(async () => {
  await sandbox.control('DELETE', '/faults');
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const balancePath = () => `/api/store-suppliers/${storeId}/${connId}/balance`;

test('a read answered 503 is sent again after a back-off, and the second answer is returned', async () => {
  const { store, sent } = clientFor(svc, owner.key);
  await sandbox.control('POST', '/faults', { failNext: 1 });
  const balance = await store.suppliers.connections.balance(storeId, connId);
  expect(balance).toEqual({ amountMinor: 5000, currency: 'USD' });
  expect(sent.map((s) => [s.url.pathname, s.status])).toEqual([
    [balancePath(), 503],
    [balancePath(), 200],
  ]);
});

test('retries stop after maxRetries and the 503 is thrown as a ServiceUnavailableError', async () => {
  const { store, sent } = clientFor(svc, owner.key, { maxRetries: 1 });
  await sandbox.control('POST', '/faults', { failNext: 10 });
  const err = await rejectionOf<ServiceUnavailableError>(store.suppliers.connections.balance(storeId, connId));
  expect(err).toBeInstanceOf(ServiceUnavailableError);
  expect({ status: err.status, code: err.code }).toEqual({ status: 503, code: 'supplierUnavailable' });
  expect(sent.map((s) => s.status)).toEqual([503, 503]);
  expectNoKey(err, owner.key);
});

test('a call that is not safe to repeat is sent once, even when answered 503', async () => {
  const { store, sent } = clientFor(svc, owner.key);
  await sandbox.control('POST', '/faults', { failNext: 1 });
  const acc = await sandbox.account(1);
  const err = await rejectionOf<ServiceUnavailableError>(
    store.suppliers.connections.replaceCredentials(storeId, connId, { credentials: { apiKey: acc.liveKey } }),
  );
  expect(err).toBeInstanceOf(ServiceUnavailableError);
  expect(sent.map((s) => [s.method, s.status])).toEqual([['PUT', 503]]);
});

test('network errors: safe calls are tried 1 + maxRetries times, then a ConnectionError without the key', async () => {
  const closed = `http://127.0.0.1:${await freePort()}`;
  const { store, sent } = clientFor(closed, owner.key, { maxRetries: 2 });
  const err = await rejectionOf<ConnectionError>(store.suppliers.orders.list(storeId));
  expect(err).toBeInstanceOf(ConnectionError);
  expect(err).toBeInstanceOf(StoreSuppliersError);
  expect(err.message).toContain(closed);
  expect(sent).toHaveLength(3);
  expect(sent.every((s) => s.error)).toBe(true);
  expectNoKey(err, owner.key);

  // A money action carries an Idempotency-Key: it is tried again too, every time with the same key.
  const keyed = clientFor(closed, owner.key, { maxRetries: 2 });
  await rejectionOf(keyed.store.suppliers.orders.pay(storeId, '00000000-0000-4000-8000-000000000000'));
  expect(keyed.sent).toHaveLength(3);
  expect(new Set(keyed.sent.map((s) => s.headers.get('idempotency-key'))).size).toBe(1);
  // A change without a key is sent once.
  const once = clientFor(closed, owner.key, { maxRetries: 2 });
  await rejectionOf(once.store.suppliers.connections.replaceCredentials(storeId, connId, { credentials: { apiKey: 'sbx_live_not_checked' } }));
  expect(once.sent).toHaveLength(1);
});

test('timeoutMs: no answer in time is a TimeoutError (and a safe call is tried again before giving up)', async () => {
  await sandbox.control('POST', '/faults', { latencyMs: 5000 });
  const { store, sent } = clientFor(svc, owner.key, { timeoutMs: 200, maxRetries: 1 });
  const err = await rejectionOf<TimeoutError>(store.suppliers.connections.balance(storeId, connId));
  expect(err).toBeInstanceOf(TimeoutError);
  expect(err.timeoutMs).toBe(200);
  expect(sent).toHaveLength(2);
  const perCall = await rejectionOf<TimeoutError>(
    clientFor(svc, owner.key).store.suppliers.connections.balance(storeId, connId, { timeoutMs: 100, maxRetries: 0 }),
  );
  expect(perCall).toBeInstanceOf(TimeoutError);
});

test('an AbortSignal stops a call in flight and rejects with the signal reason, with no retry', async () => {
  await sandbox.control('POST', '/faults', { latencyMs: 5000 });
  const { store, sent } = clientFor(svc, owner.key);
  const controller = new AbortController();
  const pending = store.suppliers.connections.balance(storeId, connId, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('stopped by the caller')), 100);
  const err = await rejectionOf<Error>(pending);
  expect(err.message).toBe('stopped by the caller');
  expect(sent).toHaveLength(1);
  const already = AbortSignal.abort();
  const early = await rejectionOf<Error>(store.suppliers.orders.list(storeId, {}, { signal: already }));
  expect(early.name).toBe('AbortError');
  expect(sent).toHaveLength(1);
});

test('a revoked key gets UnauthenticatedError (401) at once; the message never holds the key', async () => {
  const dev = await newDeveloper(svc, { plan: 'pro' });
  const { store } = clientFor(svc, dev.key);
  expect((await store.apiKey.current()).key.id).toBe(dev.keyId);
  const revoke = await svc.call('DELETE', `/api/api-keys/${dev.keyId}`, { session: dev.session });
  expect(revoke.status).toBe(200);
  const err = await rejectionOf<UnauthenticatedError>(store.apiKey.current());
  expect(err).toBeInstanceOf(UnauthenticatedError);
  expect({ status: err.status, code: err.code }).toEqual({ status: 401, code: 'unauthenticated' });
  expect(err.requestId).toEqual(expect.any(String));
  expectNoKey(err, dev.key);
  const unknown = await rejectionOf<UnauthenticatedError>(clientFor(svc, `${dev.key}x`).store.suppliers.orders.list(storeId));
  expect(unknown).toBeInstanceOf(UnauthenticatedError);
  expectNoKey(unknown, dev.key);
});

test('the key is kept out of the client object and its printed form', () => {
  const store = new StoreClient({ apiKey: owner.key, baseUrl: svc.baseUrl });
  expect(JSON.stringify(store)).not.toContain(owner.key);
  expect(util.inspect(store, { depth: 20, showHidden: true })).not.toContain(owner.key);
});

describe('in a browser', () => {
  const g = globalThis as Record<string, unknown>;
  beforeEach(() => {
    g.window = {};
    g.document = {};
  });
  afterEach(() => {
    delete g.window;
    delete g.document;
  });

  test('constructing the client throws, naming the risk, unless dangerouslyAllowBrowser is set', async () => {
    let err: unknown;
    try {
      new StoreClient({ apiKey: owner.key, baseUrl: svc.baseUrl });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreSuppliersError);
    expect((err as Error).message).toContain('dangerouslyAllowBrowser');
    expectNoKey(err, owner.key);

    const allowed = new StoreClient({ apiKey: owner.key, baseUrl: svc.baseUrl, dangerouslyAllowBrowser: true });
    expect((await allowed.apiKey.current()).owner.accountId).toBe(owner.accountId);
  });
});

leakScanTest();
