/**
 * A local server that answers in the AliExpress Open Platform's format (docs/suppliers/aliexpress.md), for tests: its
 * own Koa app on its own port, checking every signature and timestamp. The adapter's base address is `baseUrl`; tests
 * steer it through `/control`.
 */
import http from 'node:http';
import { createFakeAeApp, FakeRuntime } from './app';
import { FakeAeState } from './state';
import { serve } from '../../../server/sandboxes/program';

export type { FailRule, Faults } from './state';
export type { FakeOrder, CreateRecord } from './orders';
export { expectedSign, MAX_SKEW_MS } from './verify';

export interface FakeAliExpressOptions {
  /** 0 = a free port (the default). */
  port?: number;
  host?: string;
  /** Mount /control (default true: this server exists for tests). */
  control?: boolean;
  /** The app the service signs as (ALIEXPRESS_APP_KEY / ALIEXPRESS_APP_SECRET). */
  appKey?: string;
  appSecret?: string;
  seed?: number;
  productCount?: number;
  /** AliExpress: 1 day for test apps (30 days live). */
  accessTokenTtlMs?: number;
  /** AliExpress: 2 days for test apps (60 days live). */
  refreshTokenTtlMs?: number;
  /** AliExpress: orders are readable about 10 s after they are made. */
  orderReadableAfterMs?: number;
  /** How long a "time-out after create" holds the answer before dropping the socket (default 15000). */
  createHangMs?: number;
}

export interface RunningFakeAliExpress {
  /** What ALIEXPRESS_API_BASE_URL is set to: `http://127.0.0.1:<port>`. */
  baseUrl: string;
  controlUrl: string;
  appKey: string;
  appSecret: string;
  port: number;
  state: FakeAeState;
  close(): Promise<void>;
}

export const FAKE_APP = { appKey: '34567812', appSecret: 'fake-aliexpress-app-secret-0123456789' };

export async function startFakeAliExpress(opts: FakeAliExpressOptions = {}): Promise<RunningFakeAliExpress> {
  const host = opts.host ?? '127.0.0.1';
  const appKey = opts.appKey ?? FAKE_APP.appKey;
  const appSecret = opts.appSecret ?? FAKE_APP.appSecret;
  const state = new FakeAeState(
    {
      appKey,
      appSecret,
      accessTtlMs: opts.accessTokenTtlMs ?? 86_400_000,
      refreshTtlMs: opts.refreshTokenTtlMs ?? 2 * 86_400_000,
      orderReadableAfterMs: opts.orderReadableAfterMs ?? 10_000,
    },
    opts.seed ?? 11,
    opts.productCount ?? 40,
  );
  const rt: FakeRuntime = { state, createHangMs: opts.createHangMs ?? 15_000, held: new Set() };
  const server = http.createServer(createFakeAeApp(rt, opts.control ?? true).callback());
  const served = await serve(server, opts.port ?? 0, host, () => {
    for (const t of rt.held) clearTimeout(t);
    rt.held.clear();
  });
  return { baseUrl: served.baseUrl, controlUrl: `${served.baseUrl}/control`, appKey, appSecret, port: served.port, state, close: served.close };
}
