/**
 * Contract tests of the CJ adapter over real HTTP against the local CJ-format server (test/fakes/cj).
 * What CJ "received" is read from the fake's /control/received, never from what the adapter believes it sent.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupplierCallContext, SupplierOrderSnapshot } from '../../server/suppliers/adapter';
import { SupplierError } from '../../server/suppliers/errors';
import { CjAdapter, CJ_ENTRY, createCjAdapter } from '../../server/suppliers/cj/adapter';
import { cjProductIdFromUrl } from '../../server/suppliers/cj/urls';
import { MoneyFormatError, usdToMinor } from '../../server/suppliers/cj/money';
import { RunningFakeCj, signCjNotification, startFakeCj } from '../fakes/cj';
import { ConfigError, loadConfig } from '../../server/platform/config';
import { supplierSettings } from '../../server/suppliers';
import { CJ_API_BASE_URL_DEFAULT } from '../../server/suppliers/cj/config';
import { leakScanTest, seen } from '../support/harness';

/* eslint-disable @typescript-eslint/no-explicit-any */

let fake: RunningFakeCj;
let adapter: CjAdapter;
const fakes: RunningFakeCj[] = [];
const openIds = new Set<string>();

beforeAll(async () => {
  fake = await startFakeCj({ createHangMs: 2000 });
  fakes.push(fake);
  adapter = createCjAdapter({ baseUrl: fake.baseUrl });
});
afterAll(async () => {
  for (const f of fakes) await f.close();
});
afterEach(async () => {
  for (const f of fakes) await control(f, 'DELETE', '/faults');
});

async function control(f: RunningFakeCj, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(f.controlUrl + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`control ${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

interface Acc {
  openId: string;
  apiKey: string;
}

async function newAccount(f = fake, opts: { balance?: string; qps?: number; points?: number } = {}): Promise<Acc> {
  const acc = await control(f, 'POST', '/accounts', {
    balance: opts.balance ?? '1000.00',
    qps: opts.qps ?? 6,
    ...(opts.points !== undefined ? { points: opts.points } : {}),
  });
  seen.secrets.add(acc.apiKey);
  seen.secrets.add(acc.openId);
  openIds.add(`${fakes.indexOf(f)}:${acc.openId}`);
  return acc;
}

interface Conn {
  ctx: SupplierCallContext;
  credentials: Record<string, string>;
  changes: Array<Record<string, string>>;
}

/**
 * The connection's call slots as the service keeps them (in the database, for every process; here in memory, for
 * one): each request waits for its connection's next slot, `adapter.limits.callSpacingMs` apart.
 */
const nextSlot = new Map<string, number>();
const paced: string[] = [];
function pacer(connectionId: string, settings: Record<string, unknown>) {
  return async () => {
    paced.push(connectionId);
    const gap = adapter.limits.callSpacingMs(settings) ?? 0;
    const now = Date.now();
    const slot = Math.max(now, nextSlot.get(connectionId) ?? 0);
    nextSlot.set(connectionId, slot + gap);
    if (slot > now) await sleep(slot - now);
  };
}

/** A connection as the service would hold it: credentials, settings, and where credential changes are kept. */
function conn(acc: Acc, opts: { rps?: number; timeoutMs?: number; credentials?: Record<string, string> } = {}): Conn {
  const credentials = { apiKey: acc.apiKey, ...(opts.credentials ?? {}) };
  const changes: Array<Record<string, string>> = [];
  const ctx: SupplierCallContext = {
    connectionId: `conn-${acc.openId}`,
    mode: 'live',
    credentials,
    settings: { requestsPerSecond: opts.rps ?? 6, fromCountryCode: 'CN' },
    timeoutMs: opts.timeoutMs ?? 5000,
    onCredentialsChanged: async (changed) => {
      changes.push({ ...changed });
      Object.assign(credentials, changed);
    },
  };
  ctx.pace = pacer(ctx.connectionId, ctx.settings);
  return { ctx, credentials, changes };
}

/** Everything the adapter answers or says goes where the leak scan looks. */
async function observe<T>(label: string, work: Promise<T>): Promise<T> {
  try {
    const out = await work;
    seen.responses.push({ route: `adapter ${label}`, text: JSON.stringify(out) ?? '' });
    return out;
  } catch (err) {
    seen.responses.push({ route: `adapter ${label}`, text: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}

async function failure(label: string, work: Promise<unknown>): Promise<SupplierError> {
  try {
    await observe(label, work);
  } catch (err) {
    if (err instanceof SupplierError) return err;
    throw err;
  }
  throw new Error(`${label} did not fail`);
}

async function received(f = fake): Promise<any> {
  return control(f, 'GET', '/received');
}

let catalogue: any[];
const used = new Set<string>();
/** A product on sale whose variants no other test touched. */
async function freshProduct(f = fake): Promise<any> {
  if (f === fake) catalogue ??= await control(fake, 'GET', '/catalogue');
  const list = f === fake ? catalogue : await control(f, 'GET', '/catalogue');
  const p = list.find((x: any) => x.status === 3 && !used.has(`${fakes.indexOf(f)}:${x.pid}`));
  if (!p) throw new Error('catalogue exhausted');
  used.add(`${fakes.indexOf(f)}:${p.pid}`);
  return p;
}

const US = {
  name: 'Ada Lovelace',
  line1: '1 Main St',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
  phone: '+1 555 010 0199',
  email: 'ada@example.test',
};
let seq = 0;
const number = (prefix = 'T') => `${prefix}-${Date.now().toString(36)}-${++seq}`;

async function placeOrder(c: Conn, opts: { vid?: string; country?: string; quantity?: number; orderNumber?: string } = {}): Promise<SupplierOrderSnapshot> {
  const vid = opts.vid ?? (await freshProduct()).variants[0].vid;
  return observe(
    'createOrder',
    adapter.createOrder(c.ctx, {
      orderNumber: opts.orderNumber ?? number(),
      items: [{ variantId: vid, quantity: opts.quantity ?? 1 }],
      destination: { ...US, country: opts.country ?? 'US' },
    }),
  );
}

/** Calls CJ's API by hand with a token the fake mints for tests (it does not use the account's exchange). */
async function rawApi(acc: Acc, method: string, path: string, body?: unknown): Promise<any> {
  const { accessToken } = await control(fake, 'POST', `/accounts/${acc.openId}/token`);
  seen.secrets.add(accessToken);
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(fake.baseUrl + path, {
      method,
      headers: { 'CJ-Access-Token': accessToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await res.json();
    // By hand, the account's per-second limit is respected the simple way.
    if (answer.code !== 1600200 || attempt === 10) return answer;
    await sleep(300);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- catalogue entry

test('the catalogue entry: cj, connected by API key, balance, cancel, notifications, paid from the balance, syncs cost, stock and availability', () => {
  expect(CJ_ENTRY.key).toBe('cj');
  expect(CJ_ENTRY.capabilities).toEqual({
    authKind: 'apiKey',
    hasSandbox: false,
    balance: true,
    cancel: true,
    notifications: true,
    payment: 'balance',
    syncFields: ['cost', 'stock', 'availability'],
    claims: { via: 'api', deadlineDays: null, counted: 'fromShipping', where: "Sent by the service through the supplier's API." },
  });
  expect(CJ_ENTRY.credentialsSchema).toMatchObject({ required: ['apiKey'], additionalProperties: false });
  expect(CJ_ENTRY.defaultSettings).toEqual({ requestsPerSecond: 1, fromCountryCode: 'CN' });
  expect(adapter.entry).toBe(CJ_ENTRY);
});

test("CJ_API_BASE_URL: CJ's own address by default, any http(s) address when set, anything else refused at start", () => {
  const env = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/x', APP_SECRET: 'c'.repeat(40) };
  // Declared beside the adapter (suppliers/cj/config.ts), read by the registry as the service starts.
  const cj = (e: Record<string, string>) => supplierSettings(loadConfig(e, []).env).cj;
  expect(CJ_API_BASE_URL_DEFAULT).toBe('https://developers.cjdropshipping.com/api2.0/v1');
  expect(cj(env).baseUrl).toBe(CJ_API_BASE_URL_DEFAULT);
  expect(cj({ ...env, CJ_API_BASE_URL: 'http://127.0.0.1:4100/api2.0/v1/' }).baseUrl).toBe('http://127.0.0.1:4100/api2.0/v1');
  expect(() => cj({ ...env, CJ_API_BASE_URL: 'ftp://cj.test/api' })).toThrow(ConfigError);
  expect(() => cj({ ...env, CJ_API_BASE_URL: 'not an address' })).toThrow(/CJ_API_BASE_URL/);
});

// ---------------------------------------------------------------- tokens

describe('tokens', () => {
  test('the API key is exchanged once; the tokens go to onCredentialsChanged and later calls (another process too) use them', async () => {
    const acc = await newAccount();
    const before = (await received()).tokenExchanges;
    const c = conn(acc);
    const label = await observe('verify', adapter.verifyCredentials(c.ctx));
    expect(label.accountLabel).toBe(`CJ account (API key ending ${acc.apiKey.slice(-4)})`);
    expect(label.accountLabel).not.toContain(acc.openId);
    // The account is told apart by a digest of the openId, never the openId itself (CJ signs notifications with it).
    expect(label.accountId).toBe(`cj:${createHash('sha256').update(acc.openId).digest('hex')}`);
    expect(c.changes).toHaveLength(1);
    expect(Object.keys(c.changes[0]).sort()).toEqual([
      'accessToken',
      'accessTokenExpiresAt',
      'accessTokenIssuedAt',
      'openId',
      'refreshToken',
      'refreshTokenExpiresAt',
    ]);
    expect(c.changes[0].openId).toBe(acc.openId);
    const info = await control(fake, 'GET', `/accounts/${acc.openId}`);
    expect(c.credentials.accessToken).toBe(info.currentAccessToken);
    // 15 days, as CJ issues them.
    expect(Date.parse(c.credentials.accessTokenExpiresAt) - Date.parse(c.credentials.accessTokenIssuedAt)).toBe(15 * 86_400_000);
    seen.secrets.add(c.credentials.accessToken);
    seen.secrets.add(c.credentials.refreshToken);

    await observe('balance', adapter.getBalance(c.ctx));
    // Another process: a new adapter with the stored credentials asks CJ for no token.
    const other = createCjAdapter({ baseUrl: fake.baseUrl });
    const stored = conn(acc, { credentials: { ...c.credentials } });
    expect(await observe('balance', other.getBalance(stored.ctx))).toEqual({ amountMinor: 100000, currency: 'USD' });
    expect(stored.changes).toHaveLength(0);
    expect((await received()).tokenExchanges - before).toBe(1);
  });

  test('never a second exchange within 5 minutes: this process reuses its tokens or refuses itself; CJ refuses another process (1600200 -> unavailable)', async () => {
    const acc = await newAccount();
    const before = (await received()).tokenExchanges;
    await observe('verify', adapter.verifyCredentials(conn(acc).ctx));
    // Same process, credentials without tokens (a connection just being made): the tokens it holds are used.
    const again = conn(acc);
    await observe('balance', adapter.getBalance(again.ctx));
    expect(again.changes).toHaveLength(1);
    expect((await received()).tokenExchanges - before).toBe(1);
    // This process forgot them: it does not ask CJ again within the interval.
    adapter.tokens.forget(acc.apiKey);
    const local = await failure('balance', adapter.getBalance(conn(acc).ctx));
    expect(local.kind).toBe('unavailable');
    expect(local.message).toMatch(/one API key exchange every 300 s/);
    expect((await received()).tokenExchanges - before).toBe(1);
    // Another process that does ask: CJ refuses it as too many requests.
    const other = createCjAdapter({ baseUrl: fake.baseUrl });
    const refused = await failure('balance', other.getBalance(conn(acc).ctx));
    expect(refused.kind).toBe('unavailable');
    expect(refused.message).toMatch(/1600200/);
  });

  test('an unknown key is credentialsRejected without echoing it; a malformed key never leaves this process', async () => {
    const unknown = 'CJ9999999@api@0123456789abcdef0123456789abcdef';
    seen.secrets.add(unknown);
    const err = await failure('verify', adapter.verifyCredentials(conn({ openId: 'none', apiKey: unknown }).ctx));
    expect(err.kind).toBe('credentialsRejected');
    expect(err.message).not.toContain(unknown);
    const calls = (await received()).arrivals.length;
    const bad = await failure('verify', adapter.verifyCredentials(conn({ openId: 'none', apiKey: 'has spaces in it' }).ctx));
    expect(bad.kind).toBe('credentialsRejected');
    expect((await received()).arrivals.length).toBe(calls);
  });

  test('refreshed before expiry: once a quarter of its life is left, the token is refreshed and the new pair kept', async () => {
    const short = await startFakeCj({ accessTokenTtlMs: 4000 });
    fakes.push(short);
    const a = createCjAdapter({ baseUrl: short.baseUrl });
    const acc = await newAccount(short);
    const c = conn(acc);
    await observe('verify', a.verifyCredentials(c.ctx));
    const first = c.credentials.accessToken;
    await observe('balance', a.getBalance(c.ctx));
    expect((await received(short)).tokenRefreshes).toBe(0);
    // 4 s tokens: renewed once less than 1 s is left.
    await sleep(3200);
    await observe('balance', a.getBalance(c.ctx));
    const r = await received(short);
    expect(r.tokenRefreshes).toBe(1);
    expect(r.tokenExchanges).toBe(1);
    expect(c.changes).toHaveLength(2);
    expect(c.credentials.accessToken).not.toBe(first);
    expect(c.credentials.accessToken).toBe((await control(short, 'GET', `/accounts/${acc.openId}`)).currentAccessToken);
    // The refresh answer has no openId: the account's is kept.
    expect(c.changes[1].openId).toBe(acc.openId);
    // Past the old token's expiry, calls go on with the new one.
    await sleep(1200);
    await observe('balance', a.getBalance(c.ctx));
    expect((await received(short)).tokenRefreshes).toBe(1);
  });

  test('a token CJ refuses is renewed once and the call made again: refresh first, the key when the refresh token is refused too', async () => {
    const f = await startFakeCj({ tokenExchangeIntervalMs: 0 });
    fakes.push(f);
    const a = createCjAdapter({ baseUrl: f.baseUrl, tokenExchangeIntervalMs: 0 });
    const acc = await newAccount(f);
    const c = conn(acc);
    await observe('verify', a.verifyCredentials(c.ctx));
    await control(f, 'POST', `/accounts/${acc.openId}/revoke-tokens`, { access: true });
    expect(await observe('balance', a.getBalance(c.ctx))).toEqual({ amountMinor: 100000, currency: 'USD' });
    let r = await received(f);
    expect([r.tokenExchanges, r.tokenRefreshes]).toEqual([1, 1]);
    await control(f, 'POST', `/accounts/${acc.openId}/revoke-tokens`, { access: true, refresh: true });
    await observe('balance', a.getBalance(c.ctx));
    r = await received(f);
    expect([r.tokenExchanges, r.tokenRefreshes]).toEqual([2, 1]);
    expect(c.changes).toHaveLength(3);
    expect(c.credentials.accessToken).toBe((await control(f, 'GET', `/accounts/${acc.openId}`)).currentAccessToken);
    for (const t of (await control(f, 'GET', `/accounts/${acc.openId}`)).tokens) seen.secrets.add(t);
  });

  test("refreshes stay within CJ's 5 a minute even when tokens would need more", async () => {
    const f = await startFakeCj({ accessTokenTtlMs: 1000, tokenExchangeIntervalMs: 0 });
    fakes.push(f);
    const a = createCjAdapter({ baseUrl: f.baseUrl, tokenExchangeIntervalMs: 0 });
    const acc = await newAccount(f);
    const c = conn(acc);
    await observe('verify', a.verifyCredentials(c.ctx));
    for (let i = 0; i < 7; i++) {
      await sleep(800);
      await observe('balance', a.getBalance(c.ctx));
    }
    const r = await received(f);
    expect(r.tokenRefreshes).toBe(5);
    // Past the fifth, the key is exchanged instead: never a refused call.
    expect(r.tokenExchanges).toBeGreaterThanOrEqual(2);
    expect(r.qpsRejections).toBe(0);
  }, 20000);
});

// ---------------------------------------------------------------- rate limit

describe('rate limit', () => {
  test("the adapter declares CJ's per-account rate (1000/rate ms, plus a margin; 1 a second by default) and takes a turn before every request", async () => {
    expect(adapter.limits.callSpacingMs({ requestsPerSecond: 2 })).toBe(520);
    expect(adapter.limits.callSpacingMs({})).toBe(1020);
    expect(adapter.limits.callSpacingMs({ requestsPerSecond: 99 })).toBe(1020);
    expect(adapter.limits.callsInFlight).toBeGreaterThanOrEqual(1);
    const acc = await newAccount(fake, { qps: 2 });
    const c = conn(acc, { rps: 2 });
    await observe('verify', adapter.verifyCredentials(c.ctx));
    const before = await received();
    const turnsBefore = paced.filter((id) => id === c.ctx.connectionId).length;
    await Promise.all(Array.from({ length: 6 }, () => observe('balance', adapter.getBalance(c.ctx))));
    const r = await received();
    const requests = r.arrivals.filter((x: any) => x.openId === acc.openId).length - before.arrivals.filter((x: any) => x.openId === acc.openId).length;
    // One turn per request that reached CJ, and paced that way CJ refused none of them.
    expect(paced.filter((id) => id === c.ctx.connectionId).length - turnsBefore).toBe(requests);
    expect(r.qpsRejections).toBe(before.qpsRejections);
    const times = r.arrivals
      .filter((x: any) => x.openId === acc.openId && x.path === '/shopping/pay/getBalance')
      .map((x: any) => x.at)
      .slice(-6);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(450);
  });

  test("CJ's own limit (1600200) answers a call that is then made again in a later turn; only a lasting refusal is unavailable", async () => {
    const acc = await newAccount(fake, { qps: 1 });
    // The adapter believes the account may make 6 a second; CJ allows 1.
    const c = conn(acc, { rps: 6 });
    await observe('verify', adapter.verifyCredentials(c.ctx));
    await sleep(1100);
    const out = await Promise.all(
      [observe('balance', adapter.getBalance(c.ctx)), observe('balance', adapter.getBalance(c.ctx))].map((p) =>
        p.then(
          () => 'ok',
          (e: SupplierError) => e.kind,
        ),
      ),
    );
    expect(out).toContain('ok');
    await sleep(1100);
    await control(fake, 'POST', '/faults', { failNext: { path: '/shopping/pay/getBalance', code: 1600200, message: 'Too Many Requests', count: 1 } });
    expect(await observe('balance', adapter.getBalance(c.ctx))).toMatchObject({ currency: 'USD' });
    // Sent as HTTP 429: still CJ's per-second limit (not the points), so still made again.
    await sleep(1100);
    await control(fake, 'POST', '/faults', {
      failNext: { path: '/shopping/pay/getBalance', code: 1600200, httpStatus: 429, message: 'Too Many Requests', count: 1 },
    });
    expect(await observe('balance', adapter.getBalance(c.ctx))).toMatchObject({ currency: 'USD' });
    await control(fake, 'POST', '/faults', { failNext: { path: '/shopping/pay/getBalance', code: 1600200, message: 'Too Many Requests', count: 3 } });
    const err = await failure('balance', adapter.getBalance(c.ctx));
    expect(err.kind).toBe('unavailable');
  });
});

// ---------------------------------------------------------------- error codes

describe('every mapped CJ code reaches its error kind', () => {
  let acc: Acc;
  let c: Conn;
  beforeAll(async () => {
    acc = await newAccount(fake, { balance: '100000.00' });
    c = conn(acc);
    await adapter.verifyCredentials(c.ctx);
  });

  type Op = 'create' | 'getProduct' | 'pay' | 'getOrder' | 'balance';
  async function perform(op: Op): Promise<unknown> {
    if (op === 'balance') return adapter.getBalance(c.ctx);
    if (op === 'getProduct') return adapter.getProduct(c.ctx, (await freshProduct()).pid);
    if (op === 'create') return placeOrder(c);
    const order = await placeOrder(c);
    return op === 'pay' ? adapter.payOrder(c.ctx, order.supplierOrderId) : adapter.getOrder(c.ctx, order.supplierOrderId);
  }

  test.each([
    [1604000, '/shopping/pay/payBalance', 'pay', 'insufficientBalance'],
    [1604001, '/shopping/pay/payBalance', 'pay', 'refused'],
    [1602000, '/shopping/order/createOrderV2', 'create', 'variantUnavailable'],
    [1602001, '/shopping/order/createOrderV2', 'create', 'variantUnavailable'],
    [1602002, '/shopping/order/createOrderV2', 'create', 'variantUnavailable'],
    [1602003, '/shopping/order/createOrderV2', 'create', 'variantUnavailable'],
    [1602000, '/logistic/freightCalculate', 'create', 'variantUnavailable'],
    [1602000, '/product/query', 'getProduct', 'notFound'],
    [1602001, '/product/query', 'getProduct', 'notFound'],
    [1602002, '/product/query', 'getProduct', 'notFound'],
    [1602003, '/product/query', 'getProduct', 'notFound'],
    [1605000, '/logistic/freightCalculate', 'create', 'destinationUnsupported'],
    [1605001, '/logistic/freightCalculate', 'create', 'destinationUnsupported'],
    [1605002, '/logistic/freightCalculate', 'create', 'destinationUnsupported'],
    [1605000, '/shopping/order/createOrderV2', 'create', 'destinationUnsupported'],
    [1605001, '/shopping/order/createOrderV2', 'create', 'destinationUnsupported'],
    [1605002, '/shopping/order/createOrderV2', 'create', 'destinationUnsupported'],
    [1603003, '/shopping/order/createOrderV2', 'create', 'orderNumberExists'],
    [1603000, '/shopping/order/createOrderV2', 'create', 'refused'],
    [1600300, '/shopping/order/createOrderV2', 'create', 'refused'],
    [1603100, '/shopping/order/getOrderDetail', 'getOrder', 'notFound'],
    [1600000, '/shopping/pay/getBalance', 'balance', 'unavailable'],
    [1600201, '/shopping/pay/getBalance', 'balance', 'unavailable'],
    [1600301, '/shopping/pay/getBalance', 'balance', 'timeout'],
    [1600003, '/shopping/pay/getBalance', 'balance', 'credentialsRejected'],
    [1600004, '/shopping/pay/getBalance', 'balance', 'credentialsRejected'],
    [1600005, '/shopping/pay/getBalance', 'balance', 'credentialsRejected'],
    [1600008, '/shopping/pay/getBalance', 'balance', 'credentialsRejected'],
  ] as Array<[number, string, Op, string]>)('%i on %s -> %s', async (code, path, op, kind) => {
    await control(fake, 'POST', '/faults', { failNext: { path, code, message: `Injected ${code}`, count: 1 } });
    const err = await failure(op, perform(op) as Promise<unknown>);
    expect(err.kind).toBe(kind);
    expect(err.message).toContain(String(code));
  });

  test('1600001 and 1600002 (token refused or missing) renew the token and call again; refused again they are credentialsRejected', async () => {
    for (const code of [1600001, 1600002]) {
      await control(fake, 'POST', '/faults', { failNext: { path: '/shopping/pay/getBalance', code, count: 1 } });
      expect(await observe('balance', adapter.getBalance(c.ctx))).toMatchObject({ currency: 'USD' });
      await control(fake, 'POST', '/faults', { failNext: { path: '/shopping/pay/getBalance', code, count: 2 } });
      expect((await failure('balance', adapter.getBalance(c.ctx))).kind).toBe('credentialsRejected');
    }
  });

  test.each([1600001, 1600002, 1600003, 1600004, 1600005, 1600008])('%i from getAccessToken -> credentialsRejected', async (code) => {
    const fresh = await newAccount();
    await control(fake, 'POST', '/faults', { failNext: { path: '/authentication/getAccessToken', code, count: 1 } });
    const err = await failure('verify', adapter.verifyCredentials(conn(fresh).ctx));
    expect(err.kind).toBe('credentialsRejected');
    expect(err.message).not.toContain(fresh.apiKey);
  });

  test.each([
    [429, 1600201, 'unavailable'],
    [500, 1600000, 'unavailable'],
    [502, 0, 'unavailable'],
    [503, 1600000, 'unavailable'],
  ])('HTTP %i (envelope code %i) is %s', async (httpStatus, code, kind) => {
    await control(fake, 'POST', '/faults', { failNext: { path: '/shopping/pay/getBalance', code, httpStatus, count: 1 } });
    expect((await failure('balance', adapter.getBalance(c.ctx))).kind).toBe(kind);
  });

  test('no answer within ctx.timeoutMs is a timeout; nobody listening is unavailable', async () => {
    await control(fake, 'POST', '/faults', { latencyMs: 1500 });
    const slow = { ...c.ctx, timeoutMs: 300 };
    expect((await failure('balance', adapter.getBalance(slow))).kind).toBe('timeout');
    await control(fake, 'DELETE', '/faults');
    const nowhere = createCjAdapter({ baseUrl: 'http://127.0.0.1:9/api2.0/v1' });
    expect((await failure('balance', nowhere.getBalance(conn(acc).ctx))).kind).toBe('unavailable');
  });

  test("a refusal keeps CJ's words, cleaned of contact details, tokens and the account's own secrets", async () => {
    const message = `Address rejected: call +1 555 123 4567 or write to ops@cj.test; key ${acc.apiKey} token ${c.credentials.accessToken}`;
    await control(fake, 'POST', '/faults', { failNext: { path: '/shopping/order/createOrderV2', code: 1603000, message, count: 1 } });
    const err = await failure('create', placeOrder(c));
    expect(err.kind).toBe('refused');
    expect(err.message).toContain('Address rejected');
    expect(err.message).not.toMatch(/555|ops@cj\.test/);
    expect(err.message).not.toContain(acc.apiKey);
    expect(err.message).not.toContain(c.credentials.accessToken);
  });
});

// ---------------------------------------------------------------- money

describe('money: USD amounts to integer cents, exactly', () => {
  test.each([
    ['15.16', 1516],
    [15.16, 1516],
    [19.99, 1999],
    [0.1 + 0.2, 30],
    ['0.30000000000000004', 30],
    [1.005, 101],
    ['1.005', 101],
    ['0.295', 30],
    ['0.294', 29],
    ['12.3', 1230],
    ['12', 1200],
    ['.5', 50],
    [0, 0],
    ['0.00', 0],
    [1e-7, 0],
    ['15.16 -- 15.17', 1517],
    ['15.17 -- 15.16', 1517],
    ['3.5-4', 400],
    ['  2.00 --  2.50 ', 250],
    ['90071992547409.91', 9007199254740991],
    [123456789.12, 12345678912],
  ] as Array<[string | number, number]>)('%p -> %i', (input, cents) => {
    expect(usdToMinor(input)).toBe(cents);
  });

  test.each([[''], ['abc'], ['-1.00'], [-1], [Number.NaN], [Infinity], ['1,234.00'], ['1.2.3'], ['90071992547409.92'], [null], [undefined], [{}], ['12 USD']])(
    '%p is refused',
    (input) => {
      expect(() => usdToMinor(input)).toThrow(MoneyFormatError);
    },
  );

  test("prices and balances as CJ sends them reach the adapter's Money exactly", async () => {
    const acc = await newAccount(fake, { balance: '1234.56' });
    const c = conn(acc);
    expect(await observe('balance', adapter.getBalance(c.ctx))).toEqual({ amountMinor: 123456, currency: 'USD' });
    const p = await freshProduct();
    const prices: Array<[string, number]> = [
      ['19.99', 1999],
      ['0.30000000000000004', 30],
      ['12.345', 1235],
      ['15.16 -- 15.17', 1517],
    ];
    for (const [price, cents] of prices) {
      await control(fake, 'POST', `/variants/${p.variants[0].vid}`, { sellPrice: price });
      const product = await observe('getProduct', adapter.getProduct(c.ctx, p.pid));
      expect(product.variants[0].cost).toEqual({ amountMinor: cents, currency: 'USD' });
    }
  });
});

// ---------------------------------------------------------------- product URLs

describe('product URLs are read from their text, never fetched', () => {
  const GUID = '04A22450-67F0-4617-A132-E7AE7F8963B0';
  test.each([
    [`https://cjdropshipping.com/product/wireless-earbuds-p-${GUID}.html`, GUID],
    [`https://www.cjdropshipping.com/product/wireless-earbuds-p-${GUID}.html`, GUID],
    [`http://cjdropshipping.com/product/wireless-earbuds-p-${GUID}.html`, GUID],
    [`https://cjdropshipping.com/product/p-${GUID}.html`, GUID],
    [`https://cjdropshipping.com/product/stop-p-watch-p-${GUID}.html?from=search#reviews`, GUID],
    [`https://CJDropshipping.com/product/x-p-${GUID.toLowerCase()}.html`, GUID.toLowerCase()],
    ['https://cjdropshipping.com/product/phone-case-p-1745293574428463104.html', '1745293574428463104'],
    ['https://cjdropshipping.com/product/%E6%89%8B%E6%9C%BA-p-1745293574428463104.html', '1745293574428463104'],
    [`https://cjdropshipping.com/product/wireless-earbuds-p-${GUID}.html/`, null],
    [`https://cjdropshipping.com/product/wireless-earbuds-${GUID}.html`, null],
    [`https://cjdropshipping.com/products/wireless-earbuds-p-${GUID}.html`, null],
    [`https://cjdropshipping.com/product/wireless-earbuds-p-${GUID}.htm`, null],
    [`https://cjdropshipping.com/product/a/b-p-${GUID}.html`, null],
    ['https://cjdropshipping.com/product/x-p-12345.html', null],
    ['https://cjdropshipping.com/product/x-p-ABCDEFGH.html', null],
    [`https://cjdropshipping.com:8443/product/x-p-${GUID}.html`, null],
    [`https://user:pw@cjdropshipping.com/product/x-p-${GUID}.html`, null],
    [`https://app.cjdropshipping.com/product/x-p-${GUID}.html`, null],
    [`https://cjdropshipping.com.evil.test/product/x-p-${GUID}.html`, null],
    [`https://evilcjdropshipping.com/product/x-p-${GUID}.html`, null],
    [`ftp://cjdropshipping.com/product/x-p-${GUID}.html`, null],
    ['https://shop.sandbox-supplier.test/p/SBX-P00001', null],
  ] as Array<[string, string | null]>)('%s -> %p', (url, pid) => {
    expect(adapter.resolveProductUrl(new URL(url))).toBe(pid);
    expect(cjProductIdFromUrl(new URL(url))).toBe(pid);
  });

  test("a product's own url resolves back to its id", async () => {
    const acc = await newAccount();
    const p = await freshProduct();
    const product = await observe('getProduct', adapter.getProduct(conn(acc).ctx, p.pid));
    expect(adapter.resolveProductUrl(new URL(product.url))).toBe(p.pid);
  });
});

// ---------------------------------------------------------------- products

describe('products', () => {
  let c: Conn;
  beforeAll(async () => {
    c = conn(await newAccount());
  });

  test('search pages through listV2 by cursor; items have no variants; a bad cursor is refused', async () => {
    const first = await observe('search', adapter.searchProducts(c.ctx, { pageSize: 30 }));
    const onSale = (await control(fake, 'GET', '/catalogue')).filter((p: any) => p.status === 3);
    expect(first.total).toBe(onSale.length);
    expect(first.items).toHaveLength(30);
    expect(first.items[0]).toMatchObject({ id: onSale[0].pid, title: onSale[0].nameEn, variants: [], imageUrl: onSale[0].image });
    const ids = [...first.items.map((p) => p.id)];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await observe('search', adapter.searchProducts(c.ctx, { pageSize: 30, cursor }));
      ids.push(...page.items.map((p) => p.id));
      cursor = page.nextCursor;
    }
    expect(ids).toEqual(onSale.map((p: any) => p.pid));
    const narrowed = await observe('search', adapter.searchProducts(c.ctx, { query: onSale[3].nameEn, pageSize: 10 }));
    expect(narrowed.items.map((p) => p.id)).toContain(onSale[3].pid);
    expect((await failure('search', adapter.searchProducts(c.ctx, { pageSize: 10, cursor: 'abc' }))).kind).toBe('refused');
  });

  test('getProduct: variants with cost, stock summed over warehouses, availability; shipsTo every country', async () => {
    const p = await freshProduct();
    const product = await observe('getProduct', adapter.getProduct(c.ctx, p.pid));
    expect(product).toMatchObject({ id: p.pid, title: p.nameEn, imageUrl: p.image, updatedAt: null });
    expect(product.shipsTo).toEqual(expect.arrayContaining(['US', 'DE', 'BR', 'JP']));
    expect(product.variants).toEqual(
      p.variants.map((v: any) => ({
        id: v.vid,
        sku: v.sku,
        title: v.nameEn,
        options: { variant: v.key },
        cost: { amountMinor: usdToMinor(v.sellPrice), currency: 'USD' },
        stock: v.totalStock,
        available: true,
      })),
    );
    expect((await failure('getProduct', adapter.getProduct(c.ctx, '00000000-0000-0000-0000-000000000000'))).kind).toBe('notFound');
  });

  test('a removed variant is not listed; a product off the shelves is unavailable; stock without inventories comes from the stock call', async () => {
    const p = await freshProduct();
    const withTwo =
      p.variants.length >= 2
        ? p
        : (await control(fake, 'GET', '/catalogue')).find((x: any) => x.status === 3 && x.variants.length >= 2 && !used.has(`0:${x.pid}`));
    used.add(`0:${withTwo.pid}`);
    await control(fake, 'POST', `/variants/${withTwo.variants[0].vid}`, { removed: true });
    const product = await observe('getProduct', adapter.getProduct(c.ctx, withTwo.pid));
    expect(product.variants.map((v) => v.id)).not.toContain(withTwo.variants[0].vid);
    await control(fake, 'POST', `/products/${withTwo.pid}`, { status: 2 });
    expect((await observe('getProduct', adapter.getProduct(c.ctx, withTwo.pid))).variants.every((v) => !v.available)).toBe(true);

    const q = await freshProduct();
    await control(fake, 'POST', `/variants/${q.variants[0].vid}`, { stock: 77 });
    await control(fake, 'POST', '/faults', { omitInventories: true });
    const before = (await received()).calls['/product/stock/queryByVid'] ?? 0;
    const viaStock = await observe('getProduct', adapter.getProduct(c.ctx, q.pid));
    expect(viaStock.variants[0].stock).toBe(77);
    expect((await received()).calls['/product/stock/queryByVid'] - before).toBe(q.variants.length);
  });
});

// ---------------------------------------------------------------- orders

describe('orders', () => {
  let acc: Acc;
  let c: Conn;
  beforeAll(async () => {
    acc = await newAccount(fake, { balance: '5000.00' });
    c = conn(acc);
    await adapter.verifyCredentials(c.ctx);
  });
  const mine = async (orderNumber: string) => (await received()).orders.filter((o: any) => o.orderNumber === orderNumber);

  test('create (cheapest shipping, payType 3, our number) -> find -> get -> pay once -> cancel refused -> ship -> alreadyShipped', async () => {
    const p = await freshProduct();
    const vid = p.variants[0].vid;
    const orderNumber = number('FLOW');
    const quote = await rawApi(acc, 'POST', '/logistic/freightCalculate', { startCountryCode: 'CN', endCountryCode: 'US', products: [{ vid, quantity: 2 }] });
    const cheapest = quote.data.reduce((a: any, b: any) => (usdToMinor(b.logisticPrice) < usdToMinor(a.logisticPrice) ? b : a));
    const created = await placeOrder(c, { vid, quantity: 2, orderNumber });
    expect(created).toMatchObject({ orderNumber, supplierStatus: 'CREATED', status: 'created', paid: false, shipping: null });
    expect(created.supplierOrderId).toMatch(/^SD\d+$/);
    const itemsMinor = usdToMinor(p.variants[0].sellPrice) * 2;
    expect(created.costs).toEqual({
      itemsMinor,
      shippingMinor: usdToMinor(cheapest.logisticPrice),
      totalMinor: itemsMinor + usdToMinor(cheapest.logisticPrice),
      currency: 'USD',
    });
    let r = await received();
    expect(r.creates.filter((x: any) => x.orderNumber === orderNumber)).toEqual([
      { orderNumber, payType: 3, logisticName: cheapest.logisticName, openId: acc.openId, accepted: true },
    ]);

    expect(await observe('find', adapter.findOrderByNumber(c.ctx, orderNumber))).toEqual(created);
    expect(await observe('find', adapter.findOrderByNumber(c.ctx, 'never-made'))).toBeNull();
    expect(await observe('get', adapter.getOrder(c.ctx, created.supplierOrderId))).toEqual(created);

    const balance = (await adapter.getBalance(c.ctx)).amountMinor;
    const paid = await observe('pay', adapter.payOrder(c.ctx, created.supplierOrderId));
    expect(paid).toMatchObject({ supplierOrderId: created.supplierOrderId, supplierStatus: 'UNSHIPPED', status: 'paid', paid: true });
    expect((await adapter.getBalance(c.ctx)).amountMinor).toBe(balance - created.costs!.totalMinor);
    expect((await failure('pay', adapter.payOrder(c.ctx, created.supplierOrderId))).kind).toBe('alreadyPaid');
    r = await received();
    expect(r.payments.filter((x: any) => x.orderNumber === orderNumber)).toHaveLength(1);

    const cancel = await failure('cancel', adapter.cancelOrder(c.ctx, created.supplierOrderId));
    expect(cancel.kind).toBe('refused');
    expect(cancel.message).toMatch(/once it is paid/);
    await control(fake, 'POST', `/orders/${created.supplierOrderId}/ship`, { trackNumber: 'CJPKL0001' });
    const shipped = await observe('get', adapter.getOrder(c.ctx, created.supplierOrderId));
    expect(shipped).toMatchObject({ status: 'shipped', supplierStatus: 'SHIPPED', shipping: { carrier: cheapest.logisticName, trackingNumber: 'CJPKL0001' } });
    expect(Date.parse(shipped.shipping!.shippedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await failure('cancel', adapter.cancelOrder(c.ctx, shipped.supplierOrderId))).kind).toBe('alreadyShipped');
    await control(fake, 'POST', `/orders/${created.supplierOrderId}/deliver`);
    expect((await adapter.getOrder(c.ctx, created.supplierOrderId)).status).toBe('delivered');
  });

  test('cancel before payment deletes the order at CJ; cancelling again answers the cancelled order; paying it is refused', async () => {
    const created = await placeOrder(c);
    const cancelled = await observe('cancel', adapter.cancelOrder(c.ctx, created.supplierOrderId));
    expect(cancelled).toMatchObject({ supplierOrderId: created.supplierOrderId, status: 'cancelled', supplierStatus: 'CANCELLED', paid: false });
    expect((await observe('cancel', adapter.cancelOrder(c.ctx, created.supplierOrderId))).status).toBe('cancelled');
    expect((await failure('pay', adapter.payOrder(c.ctx, created.supplierOrderId))).kind).toBe('refused');
    expect((await failure('get', adapter.getOrder(c.ctx, 'SD99999999999999'))).kind).toBe('notFound');
  });

  test('CJ accepts a repeated order number silently; the adapter looks the number up before every create, so one order is made', async () => {
    const p = await freshProduct();
    const vid = p.variants[0].vid;
    const orderNumber = number('DUP');
    const body = {
      orderNumber,
      shippingCountryCode: 'US',
      shippingCountry: 'United States',
      shippingProvince: 'IL',
      shippingCity: 'Springfield',
      shippingAddress: '1 Main St',
      shippingCustomerName: 'A',
      logisticName: 'CJPacket Ordinary',
      fromCountryCode: 'CN',
      payType: 3,
      products: [{ vid, quantity: 1 }],
    };
    const first = await rawApi(acc, 'POST', '/shopping/order/createOrderV2', body);
    const second = await rawApi(acc, 'POST', '/shopping/order/createOrderV2', body);
    expect([first.code, second.code]).toEqual([200, 200]);
    expect(first.data.orderId).not.toBe(second.data.orderId);
    expect(await mine(orderNumber)).toHaveLength(2);
    // The duplicate made by hand is found: the earliest, not cancelled.
    const found = await observe('find', adapter.findOrderByNumber(c.ctx, orderNumber));
    expect(found!.supplierOrderId).toBe(first.data.orderId);
    await adapter.cancelOrder(c.ctx, first.data.orderId);
    expect((await adapter.findOrderByNumber(c.ctx, orderNumber))!.supplierOrderId).toBe(second.data.orderId);

    const mineNumber = number('ONCE');
    const made = await placeOrder(c, { vid, orderNumber: mineNumber });
    const again = await placeOrder(c, { vid, orderNumber: mineNumber });
    expect(again.supplierOrderId).toBe(made.supplierOrderId);
    expect(await mine(mineNumber)).toHaveLength(1);
  });

  test('when order/list ignores the orderNumbers filter, the number is asked for through getOrderDetail', async () => {
    const made = await placeOrder(c);
    await placeOrder(c);
    await control(fake, 'POST', '/faults', { listIgnoresOrderNumbers: true });
    expect((await observe('find', adapter.findOrderByNumber(c.ctx, made.orderNumber)))!.supplierOrderId).toBe(made.supplierOrderId);
    expect(await observe('find', adapter.findOrderByNumber(c.ctx, number('ABSENT')))).toBeNull();
  });

  test('a create that times out after succeeding is a timeout; the order is then found exactly once', async () => {
    const orderNumber = number('HANG');
    await control(fake, 'POST', '/faults', { timeoutAfterCreateNext: 1 });
    const quick = { ...c.ctx, timeoutMs: 800 };
    const err = await failure(
      'create',
      adapter.createOrder(quick, { orderNumber, items: [{ variantId: (await freshProduct()).variants[0].vid, quantity: 1 }], destination: US }),
    );
    expect(err.kind).toBe('timeout');
    const found = await observe('find', adapter.findOrderByNumber(c.ctx, orderNumber));
    expect(found).toMatchObject({ orderNumber, status: 'created' });
    expect(await mine(orderNumber)).toHaveLength(1);
  });

  test('an order paid at CJ behind our back is alreadyPaid, never charged twice; a low balance is insufficientBalance and changes nothing', async () => {
    const order = await placeOrder(c);
    await control(fake, 'POST', `/orders/${order.supplierOrderId}/pay`);
    expect((await failure('pay', adapter.payOrder(c.ctx, order.supplierOrderId))).kind).toBe('alreadyPaid');
    expect((await received()).payments.filter((x: any) => x.orderNumber === order.orderNumber)).toHaveLength(1);

    const poor = conn(await newAccount(fake, { balance: '0.50' }));
    const unpaid = await placeOrder(poor);
    const err = await failure('pay', adapter.payOrder(poor.ctx, unpaid.supplierOrderId));
    expect(err.kind).toBe('insufficientBalance');
    expect(await adapter.getOrder(poor.ctx, unpaid.supplierOrderId)).toMatchObject({ status: 'created', paid: false });
    expect(await adapter.getBalance(poor.ctx)).toEqual({ amountMinor: 50, currency: 'USD' });
  });

  test('destinations: a country CJ does not ship to (empty quote), one it does not know, and one the fake does not serve', async () => {
    await control(fake, 'POST', '/countries/BR', { served: false });
    try {
      const before = (await received()).createAttempts;
      expect((await failure('create', placeOrder(c, { country: 'BR' }))).kind).toBe('destinationUnsupported');
      expect((await failure('create', placeOrder(c, { country: 'ZZ' }))).kind).toBe('destinationUnsupported');
      expect((await received()).createAttempts).toBe(before);
    } finally {
      await control(fake, 'POST', '/countries/BR', { served: true });
    }
  });

  test('a removed variant or a product off the shelves: create is variantUnavailable naming the variant, and nothing is made', async () => {
    const p = await freshProduct();
    await control(fake, 'POST', `/variants/${p.variants[0].vid}`, { removed: true });
    const removed = await failure('create', placeOrder(c, { vid: p.variants[0].vid }));
    expect(removed).toMatchObject({ kind: 'variantUnavailable', subject: { variantId: p.variants[0].vid } });
    expect(removed.message).toContain('1602002');
    const q = await freshProduct();
    await control(fake, 'POST', `/products/${q.pid}`, { status: 2 });
    expect((await failure('create', placeOrder(c, { vid: q.variants[0].vid }))).message).toContain('1602003');
  });
});

// ---------------------------------------------------------------- notifications

describe('notifications', () => {
  let receiver: http.Server;
  let receiverUrl: string;
  const got: Array<{ headers: http.IncomingHttpHeaders; rawBody: string }> = [];
  let acc: Acc;
  let c: Conn;

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (d: Buffer) => chunks.push(d));
      req.on('end', () => {
        got.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"code":200,"result":"success","message":"ok"}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    acc = await newAccount();
    c = conn(acc);
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  });

  const verify = (rawBody: string, headers: Record<string, string | undefined>, credentials = c.ctx.credentials) =>
    adapter.verifyNotification({ ...c.ctx, credentials }, { rawBody, headers, now: new Date() });
  const waitFor = async (pred: (b: any) => boolean) => {
    for (let i = 0; i < 100; i++) {
      const hit = got.find((g) => pred(JSON.parse(g.rawBody)));
      if (hit) return hit;
      await sleep(50);
    }
    throw new Error('no such notification arrived');
  };

  test('registering enables all four topics at the one address and keeps the openId notifications are signed with', async () => {
    // Credentials to keep, not an answer anyone sees: not observed.
    const kept = await adapter.registerNotificationAddress(c.ctx, receiverUrl);
    expect(kept).toEqual({ openId: acc.openId });
    const info = await control(fake, 'GET', `/accounts/${acc.openId}`);
    expect(info.callbacks).toEqual({ product: receiverUrl, stock: receiverUrl, order: receiverUrl, logistics: receiverUrl });
    // CJ refuses addresses that are not public https; the refusal is CJ's words.
    const strict = await startFakeCj({ strictCallbackUrls: true });
    fakes.push(strict);
    const s = createCjAdapter({ baseUrl: strict.baseUrl });
    const err = await failure('register', s.registerNotificationAddress(conn(await newAccount(strict)).ctx, receiverUrl));
    expect(err.kind).toBe('refused');
    expect(err.message).toMatch(/1607001/);
  });

  test('order and logistics pushes from CJ verify against the openId; both LOGISTIC spellings name the order', async () => {
    const order = await placeOrder(c);
    await adapter.payOrder(c.ctx, order.supplierOrderId);
    const paid = await waitFor((b) => b.type === 'ORDER' && b.params.cjOrderId === order.supplierOrderId && b.params.orderStatus === 'UNSHIPPED');
    expect(typeof paid.headers.sign).toBe('string');
    const event = JSON.parse(paid.rawBody);
    expect(verify(paid.rawBody, { sign: paid.headers.sign as string })).toEqual({
      eventId: event.messageId,
      subjects: [{ kind: 'order', supplierOrderId: order.supplierOrderId, orderNumber: order.orderNumber }],
    });

    await control(fake, 'POST', `/orders/${order.supplierOrderId}/ship`);
    const logistic = await waitFor((b) => b.type === 'LOGISTIC' && b.params.orderId === order.supplierOrderId);
    expect(verify(logistic.rawBody, { sign: logistic.headers.sign as string })?.subjects).toEqual([{ kind: 'order', supplierOrderId: order.supplierOrderId }]);
    expect(typeof JSON.parse(logistic.rawBody).params.logisticsTrackEvents).toBe('string');

    await control(fake, 'POST', '/faults', { logisticType: 'LOGISTICS' });
    await control(fake, 'POST', `/orders/${order.supplierOrderId}/deliver`);
    const plural = await waitFor((b) => b.type === 'LOGISTICS' && b.params.orderId === order.supplierOrderId);
    expect(verify(plural.rawBody, { sign: plural.headers.sign as string })?.subjects).toEqual([{ kind: 'order', supplierOrderId: order.supplierOrderId }]);
    expect(JSON.parse(plural.rawBody).params.trackingStatus).toBe(12);
  });

  test('PRODUCT, VARIANT and STOCK pushes name the product (variants through the products this adapter has read)', async () => {
    const p = await freshProduct();
    await adapter.getProduct(c.ctx, p.pid);
    expect((await rawApi(acc, 'POST', '/webhook/product/subscribe', { productIds: [p.pid] })).code).toBe(200);
    await control(fake, 'POST', `/variants/${p.variants[0].vid}`, { sellPrice: '9.99' });
    const variant = await waitFor((b) => b.type === 'VARIANT' && b.params.vid === p.variants[0].vid);
    expect(JSON.parse(variant.rawBody).params.pid).toBeUndefined();
    expect(verify(variant.rawBody, { sign: variant.headers.sign as string })?.subjects).toEqual([{ kind: 'product', supplierProductId: p.pid }]);
    await control(fake, 'POST', `/variants/${p.variants[0].vid}`, { stock: 3 });
    const stock = await waitFor((b) => b.type === 'STOCK' && b.params[p.variants[0].vid]);
    expect(verify(stock.rawBody, { sign: stock.headers.sign as string })?.subjects).toEqual([{ kind: 'product', supplierProductId: p.pid }]);
    await control(fake, 'POST', `/products/${p.pid}`, { status: 2 });
    const product = await waitFor((b) => b.type === 'PRODUCT' && b.params.pid === p.pid);
    expect(verify(product.rawBody, { sign: product.headers.sign as string })?.subjects).toEqual([{ kind: 'product', supplierProductId: p.pid }]);
    // A variant this process never read names no product: nothing to read back.
    const unknown = JSON.stringify({
      messageId: 'm-1',
      type: 'VARIANT',
      messageType: 'UPDATE',
      params: { vid: 'FFFFFFFF-0000-0000-0000-000000000000', variantSellPrice: 1 },
    });
    expect(verify(unknown, { sign: signCjNotification(acc.openId, unknown) })).toBeNull();
  });

  test('tampered, re-keyed, unsigned, malformed and unknown notifications are all null', () => {
    const body = JSON.stringify({
      messageId: 'abc123',
      type: 'ORDER',
      messageType: 'UPDATE',
      params: { cjOrderId: 'SD1', orderNumber: 'N-1', orderStatus: 'SHIPPED' },
    });
    const sign = signCjNotification(acc.openId, body);
    expect(verify(body, { sign })).toEqual({ eventId: 'abc123', subjects: [{ kind: 'order', supplierOrderId: 'SD1', orderNumber: 'N-1' }] });
    expect(verify(body, { sign: ` ${sign} ` })).not.toBeNull();
    const cases: Array<[string, Record<string, string | undefined>, Record<string, string>?]> = [
      [body.replace('SD1', 'SD2'), { sign }],
      [`${body} `, { sign }],
      [body, { sign: signCjNotification('999999', body) }],
      [body, { sign: sign.replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A')) }],
      [body, { sign: Buffer.from(createHex(acc.openId, body), 'utf8').toString('utf8') }],
      [body, {}],
      [body, { sign: '' }],
      [body, { 'x-sign': sign }],
      [body, { sign: 'x'.repeat(500) }],
      [body, { sign }, { apiKey: acc.apiKey }],
    ];
    for (const [raw, headers, credentials] of cases) expect(verify(raw, headers, credentials ?? c.ctx.credentials)).toBeNull();
    const signed = (raw: string) => verify(raw, { sign: signCjNotification(acc.openId, raw) });
    expect(signed('not json')).toBeNull();
    expect(signed('[]')).toBeNull();
    expect(signed(JSON.stringify({ messageId: 'x', type: 'SOURCINGCREATE', params: { id: 1 } }))).toBeNull();
    expect(signed(JSON.stringify({ messageId: 'x', type: 'ORDER', params: {} }))).toBeNull();
    expect(signed(JSON.stringify({ messageId: 'x', type: 'ORDER' }))).toBeNull();
    expect(signed(JSON.stringify({ type: 'LOGISTIC', params: { orderId: 'SD7' } }))).toEqual({
      eventId: null,
      subjects: [{ kind: 'order', supplierOrderId: 'SD7' }],
    });
  });
});

function createHex(key: string, body: string): string {
  // The same HMAC in hex instead of Base64: not CJ's signature.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:crypto') as typeof import('node:crypto')).createHmac('sha256', key).update(body).digest('hex');
}

test('every key and token the CJ-format server issued is checked by the scan', async () => {
  for (const entry of openIds) {
    const [index, openId] = entry.split(':');
    const info = await control(fakes[Number(index)], 'GET', `/accounts/${openId}`);
    seen.secrets.add(info.apiKey);
    for (const t of info.tokens) seen.secrets.add(t);
  }
  expect(seen.responses.length).toBeGreaterThan(50);
});

leakScanTest();
