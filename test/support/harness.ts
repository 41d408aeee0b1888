import { ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { SERVICE_NODE_FLAGS } from '../../server/platform/node-support';
import { RunningSandboxSupplier, startSandboxSupplier } from '../../server/sandboxes/supplier';

/** Everything a test saw: every response body and every log line, scanned for secrets at the end of each file. */
export const seen = { responses: [] as Array<{ route: string; text: string }>, logLines: [] as string[], secrets: new Set<string>() };

/** Responses whose purpose is to hand the full key (or an event subscription's signing secret) to its owner. */
const KEY_HANDOVER = [
  /^POST \/api\/auth\/sign-(up|in)$/,
  /^POST \/api\/api-keys$/,
  /^GET \/api\/api-keys\/[^/]+\/secret$/,
  /^POST \/api\/store-suppliers\/[^/]+\/event-subscriptions(\/[^/]+\/rotate-secret)?$/,
];

/** A response whose purpose is to hand a key or signing secret to its owner (kept out of the leak scan). */
export const isKeyHandover = (route: string): boolean => KEY_HANDOVER.some((re) => re.test(route));

export interface CallOptions {
  key?: string;
  session?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface Service {
  baseUrl: string;
  databaseUrl: string;
  /** The operator token the service was started with (empty: the operator API is off). */
  operatorToken: string;
  db: Pool;
  proc: ChildProcess;
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<Answer<T>>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Waits for a log line matching `pred`. */
  waitForLog(pred: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  logs: Array<Record<string, unknown>>;
  /** What the process wrote to stderr so far (the start-up banner goes there). */
  stderr(): string;
}

const root = path.resolve(__dirname, '../..');

/** The operator token every test service gets unless a test turns the operator API off (OPERATOR_TOKEN: ''). */
export const TEST_OPERATOR_TOKEN = 'sso_test-operator-token-'.padEnd(48, 'o');
seen.secrets.add(TEST_OPERATOR_TOKEN);

export function adminUrl(): string {
  const url = process.env.TEST_ADMIN_DATABASE_URL;
  if (!url) throw new Error('TEST_ADMIN_DATABASE_URL is not set: run the tests through jest (global setup starts Postgres).');
  return url;
}

/**
 * The same database as the tests' own role: what a test reads or writes directly is not counted as the service's
 * statements (the single-shard check, test/statements). Unchanged when the run has no such role (an outside server).
 */
export function asTests(databaseUrl: string): string {
  if (process.env.TEST_STATEMENTS !== '1') return databaseUrl;
  const u = new URL(databaseUrl);
  u.username = 'store_suppliers_tests';
  u.password = 'test';
  return u.toString();
}

/**
 * A database of the test's own, copied from the run's migrated template (global-setup.mjs) so the service finds its
 * schema made; `empty` for tests of migrating itself.
 */
export async function createDatabase(label: string, opts: { empty?: boolean } = {}): Promise<string> {
  const name = `t_${label
    .replace(/[^a-z0-9]/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${crypto.randomBytes(4).toString('hex')}`;
  const template = opts.empty ? undefined : process.env.TEST_TEMPLATE_DATABASE;
  const admin = new Pool({ connectionString: adminUrl(), max: 1 });
  try {
    await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl());
  u.pathname = `/${name}`;
  // Through PgBouncer (jest.pooled.config.js): the same server, another port.
  if (process.env.TEST_POOLER_PORT) u.port = process.env.TEST_POOLER_PORT;
  return u.toString();
}

/** Behind PgBouncer (jest.pooled.config.js): the same database on a direct session, for LISTEN and the migrations' lock. */
function sessionUrl(databaseUrl: string): Record<string, string> {
  if (!process.env.TEST_POOLER_PORT) return {};
  const u = new URL(databaseUrl);
  if (u.port !== process.env.TEST_POOLER_PORT) return {};
  u.port = new URL(adminUrl()).port;
  return { DATABASE_SESSION_URL: u.toString() };
}

export async function call<T = any>(baseUrl: string, method: string, urlPath: string, opts: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.key !== undefined) headers['X-API-Key'] = opts.key;
  if (opts.session !== undefined) headers.Authorization = `Bearer ${opts.session}`;
  let payload: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + urlPath, { method, headers, body: payload });
  const text = await res.text();
  let body: any = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  const route = `${method} ${urlPath.split('?')[0]}`;
  if (!isKeyHandover(route)) seen.responses.push({ route, text });
  return { status: res.status, body, text, headers: res.headers };
}

import { freePort } from '../../bench/free-port';

export { freePort };

/** How a test service is started (startService; the node tests' shared services start the same way). */
export interface ServiceOptions {
  label: string;
  env?: Record<string, string>;
  databaseUrl?: string;
  role?: string;
  appSecret?: string;
  /** The sandbox supplier this service talks to. */
  sandbox?: Sandbox;
  /** Give the service a fixed port and a PUBLIC_BASE_URL pointing at it (so suppliers can notify it). */
  publicBaseUrl?: boolean;
  /** Event subscriptions may target loopback (the tests' receivers run on this machine); off unless asked, as in production. */
  privateTargets?: boolean;
  /** The sandbox payment provider the service asks for captures (SANDBOX_PAYMENTS_URL). */
  payments?: { baseUrl: string };
}

/** The environment a test service runs with. */
export function serviceEnv(opts: ServiceOptions, at: { databaseUrl: string; dataDir: string; port: number }): NodeJS.ProcessEnv {
  const { databaseUrl, dataDir, port } = at;
  return {
    ...process.env,
    DATABASE_URL: databaseUrl,
    ...sessionUrl(databaseUrl),
    APP_SECRET: opts.appSecret ?? 'test-secret-'.padEnd(48, 'x'),
    PORT: String(port),
    ...(opts.publicBaseUrl ? { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } : {}),
    ...(opts.sandbox ? { SANDBOX_SUPPLIER_URL: opts.sandbox.baseUrl } : {}),
    ...(opts.payments ? { SANDBOX_PAYMENTS_URL: opts.payments.baseUrl } : {}),
    DATA_DIR: dataDir,
    SEED_DEMO: 'false',
    SANDBOX_SUPPLIER: 'false',
    LOG_LEVEL: 'info',
    // Never the real CJ from a test: tests that use CJ point this at the local CJ-format server.
    CJ_API_BASE_URL: 'http://127.0.0.1:9/api2.0/v1',
    // Nor the ECB: tests of exchange rates point this at the local ECB-format server.
    EXCHANGE_RATES_URL: 'http://127.0.0.1:9/stats/eurofxref/eurofxref-daily.xml',
    // Nor the real Printful.
    PRINTFUL_API_BASE_URL: 'http://127.0.0.1:9',
    OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
    EVENT_TARGETS_ALLOW_PRIVATE: opts.privateTargets ? 'true' : 'false',
    ...(opts.env ?? {}),
  };
}

export async function startService(opts: ServiceOptions): Promise<Service> {
  const databaseUrl = opts.databaseUrl ?? (await createDatabase(opts.label));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-svc-'));
  const port = opts.publicBaseUrl ? await freePort() : 0;
  const env = serviceEnv(opts, { databaseUrl, dataDir, port });
  // With the V8 flags the service is run with in production (npm start, docs/operations.md).
  const proc = spawn(process.execPath, [...SERVICE_NODE_FLAGS, path.join(root, 'dist/server/main.js'), '--role', opts.role ?? 'all'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const waiters: Array<{ pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }> = [];
  let stderr = '';
  let buffer = '';
  proc.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      seen.logLines.push(line);
      try {
        const parsed = JSON.parse(line);
        logs.push(parsed);
        for (const w of [...waiters]) {
          if (w.pred(parsed)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(parsed);
          }
        }
      } catch {
        /* not JSON: kept for the scan only */
      }
    }
  });
  proc.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    seen.logLines.push(chunk.toString('utf8'));
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));

  const waitForLog = (pred: (l: Record<string, unknown>) => boolean, timeoutMs = 20000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const found = logs.find(pred);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`Timed out waiting for a log line. stderr:\n${stderr}`)), timeoutMs);
      waiters.push({
        pred,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`Service exited with ${code}. stderr:\n${stderr}`));
      });
    });

  // Generous: a loaded two-core machine may take a while to start several services at once.
  const ready = opts.role === 'worker' ? await waitForLog((l) => l.msg === 'worker started', 90000) : await waitForLog((l) => l.msg === 'listening', 90000);
  const baseUrl = String(ready.baseUrl ?? '');
  const db = new Pool({ connectionString: asTests(databaseUrl), max: 4 });
  // Tests cut the database off on purpose; an idle client dropping then must not end the test process.
  db.on('error', () => undefined);
  return {
    baseUrl,
    databaseUrl,
    operatorToken: env.OPERATOR_TOKEN ?? '',
    db,
    proc,
    logs,
    waitForLog,
    stderr: () => stderr,
    call: (method, p, o) => call(baseUrl, method, p, o),
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const code = await exited;
      await db.end().catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** What the set-up helpers use of a service: its address and the operator token (a shared service has no process here). */
export type ServiceClient = Pick<Service, 'baseUrl' | 'call' | 'operatorToken'>;

export interface Developer {
  accountId: string;
  email: string;
  password: string;
  session: string;
  key: string;
  keyId: string;
}

let counter = 0;

/** The operator API (plans, credit grants) as the operator of the service calls it. */
export function operatorOf(svc: ServiceClient) {
  const send = async (method: string, p: string, body?: unknown) => {
    const res = await svc.call(method, p, { body, headers: { 'X-Operator-Token': svc.operatorToken } });
    if (res.status !== 200) throw new Error(`operator ${method} ${p}: ${res.status} ${res.text}`);
    return res.body.result;
  };
  return {
    setPlan: (accountId: string, plan: string) => send('PUT', `/api/operator/accounts/${accountId}/plan`, { plan }),
    grant: (accountId: string, amount: number, reason = 'test set-up') => send('POST', `/api/operator/accounts/${accountId}/credits`, { amount, reason }),
    find: (email: string) => send('GET', `/api/operator/accounts?email=${encodeURIComponent(email)}`),
  };
}

/** Signs up and upgrades to Developer, as a real user does; the operator sets the plan and grants credits; then a key. */
export async function newDeveloper(svc: ServiceClient, opts: { plan?: string; recordScope?: 'own' | 'account'; credits?: number } = {}): Promise<Developer> {
  const email = `dev${++counter}-${crypto.randomBytes(3).toString('hex')}@example.test`;
  const password = `pw-${crypto.randomBytes(12).toString('hex')}`;
  seen.secrets.add(password);
  const up = await svc.call('POST', '/api/auth/sign-up', { body: { email, password, name: 'Test Developer' } });
  if (up.status !== 201) throw new Error(`sign-up failed: ${up.text}`);
  const session = up.body.result.sessionToken as string;
  seen.secrets.add(session);
  await svc.call('POST', '/api/account/developer', { session });
  const accountId = up.body.result.account.id as string;
  if (opts.plan) await operatorOf(svc).setPlan(accountId, opts.plan);
  if (opts.credits) await operatorOf(svc).grant(accountId, opts.credits);
  const k = await createKey(svc, session, 'test key', opts.recordScope ?? 'account');
  return { accountId, email, password, session, key: k.key, keyId: k.id };
}

export async function createKey(
  svc: ServiceClient,
  session: string,
  name: string,
  recordScope: 'own' | 'account' = 'own',
): Promise<{ key: string; id: string }> {
  const res = await svc.call('POST', '/api/api-keys', { session, body: { name, recordScope } });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.text}`);
  seen.secrets.add(res.body.result.key);
  return { key: res.body.result.key, id: res.body.result.apiKey.id };
}

export async function createStore(svc: ServiceClient, key: string, name = 'Test Store'): Promise<string> {
  const res = await svc.call('POST', '/api/stores', { key, body: { name, currency: 'USD' } });
  if (res.status !== 201) throw new Error(`store creation failed: ${res.text}`);
  return res.body.result.id;
}

/** The last test of every file: no full key, session token or password in any response or log line it saw. */
export function leakScanTest(): void {
  test('no API key, session token or password appears in any response body or log line of this file', () => {
    expect(seen.secrets.size).toBeGreaterThan(0);
    const leaks: string[] = [];
    for (const secret of seen.secrets) {
      for (const r of seen.responses) if (r.text.includes(secret)) leaks.push(`response of ${r.route}`);
      for (const line of seen.logLines) if (line.includes(secret)) leaks.push(`log line ${line.slice(0, 120)}`);
    }
    expect(leaks).toEqual([]);
  });
}

export interface Sandbox extends RunningSandboxSupplier {
  control<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** A new sandbox account; its keys are tracked as secrets for the leak scan. */
  account(balanceMinor?: number): Promise<{ accountId: string; liveKey: string; testKey: string }>;
  /** Calls the sandbox's own supplier API as a merchant would. */
  v1<T = any>(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
}

/** The sandbox supplier as a real HTTP server on its own port, with its control API on. */
export async function startSandbox(opts: { autoShipAfterMs?: number; createHangMs?: number } = {}): Promise<Sandbox> {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  return sandboxAt(await startSandboxSupplier({ port: 0, control: true, ...opts }));
}

/** A running sandbox supplier (in this process or another: the node tests share one), with its control and merchant APIs. */
export function sandboxAt(running: RunningSandboxSupplier): Sandbox {
  const control = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${running.baseUrl}/control${p}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`sandbox control ${method} ${p}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    ...running,
    close: () => running.close(),
    control,
    async account(balanceMinor = 100000) {
      const acc = await control('POST', '/accounts', { balanceMinor, testBalanceMinor: balanceMinor });
      seen.secrets.add(acc.liveKey);
      seen.secrets.add(acc.testKey);
      return acc;
    },
    async v1(key, method, p, body) {
      const res = await fetch(`${running.baseUrl}/v1${p}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}

/** Runs an operator command (server/cli.ts) against a service's database. */
export function runCli(svc: Service, ...args: string[]): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { execFileSync } = require('node:child_process') as typeof import('node:child_process');
  return execFileSync(process.execPath, [path.join(root, 'dist/server/cli.js'), ...args], {
    env: { ...process.env, DATABASE_URL: svc.databaseUrl, APP_SECRET: 'test-secret-'.padEnd(48, 'x') },
    encoding: 'utf8',
  });
}

/** Polls until `check` answers a value other than undefined, or fails after `timeoutMs`. */
/** A connection's notification address in the spec's form: its integration id carries the store, signed (`<connectionId>.<store>.<tag>`). */
export function notificationAddress(baseUrl: string, storeId: string, connectionId: string, supplierKey = 'sandbox'): RegExp {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${esc(baseUrl)}/api/store-suppliers/webhook/${esc(supplierKey)}/${esc(connectionId)}\\.${storeId.replace(/-/g, '')}\\.[A-Za-z0-9_-]{22}$`,
  );
}

export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
