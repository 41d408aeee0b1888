/**
 * A local server that answers in CJ Dropshipping's documented API 2.0 format (docs/suppliers/cj.md), for tests:
 * its own Koa app on its own port. The adapter is pointed at `baseUrl`; tests steer it through `/control`.
 */
import http from 'node:http';
import { API_PREFIX, createFakeCjApp, FakeRuntime } from './app';
import { FakeCjState, Notification, signCjNotification } from './state';
import { serve } from '../../../server/sandboxes/program';

export { signCjNotification } from './state';
export type { Faults, FailRule, FakeOrder, OrderStatus } from './state';

export interface FakeCjOptions {
  /** 0 = a free port (the default). */
  port?: number;
  host?: string;
  /** Mount /control (default true: this server exists for tests). */
  control?: boolean;
  seed?: number;
  productCount?: number;
  /** CJ: 15 days. */
  accessTokenTtlMs?: number;
  /** CJ: 180 days. */
  refreshTokenTtlMs?: number;
  /** CJ: getAccessToken once per 5 minutes per account. */
  tokenExchangeIntervalMs?: number;
  /** CJ: refreshAccessToken 5 times a minute. */
  refreshesPerMinute?: number;
  /** How long a "timeout after create" holds the answer before dropping the socket (default 15000). */
  createHangMs?: number;
  /** Refuse callback addresses that are not public https (as CJ does); off by default so tests can use 127.0.0.1. */
  strictCallbackUrls?: boolean;
}

export interface RunningFakeCj {
  /** What CJ_API_BASE_URL is set to: `http://127.0.0.1:<port>/api2.0/v1`. */
  baseUrl: string;
  /** `http://127.0.0.1:<port>/control`. */
  controlUrl: string;
  port: number;
  state: FakeCjState;
  close(): Promise<void>;
}

const NOTIFY_TIMEOUT_MS = 3000;

/** Fire-and-forget signed POSTs, as CJ sends them: JSON body, `sign` header. */
class Notifier {
  private readonly inFlight = new Set<AbortController>();
  private closed = false;

  constructor(private readonly counters: { sent: number; delivered: number; failed: number }) {}

  send(n: Notification): void {
    if (this.closed) return;
    const rawBody = JSON.stringify(n.body);
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), NOTIFY_TIMEOUT_MS);
    this.inFlight.add(abort);
    this.counters.sent++;
    fetch(n.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', sign: signCjNotification(n.openId, rawBody) },
      body: rawBody,
      signal: abort.signal,
    })
      .then(async (res) => {
        await res.arrayBuffer().catch(() => undefined);
        if (res.status === 200) this.counters.delivered++;
        else this.counters.failed++;
      })
      .catch(() => {
        this.counters.failed++;
      })
      .finally(() => {
        clearTimeout(timer);
        this.inFlight.delete(abort);
      });
  }

  close(): void {
    this.closed = true;
    for (const a of this.inFlight) a.abort();
    this.inFlight.clear();
  }
}

function nonNegative(value: number | undefined, fallback: number, name: string, min = 0): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  return v;
}

export async function startFakeCj(opts: FakeCjOptions = {}): Promise<RunningFakeCj> {
  const host = opts.host ?? '127.0.0.1';
  const counters = { sent: 0, delivered: 0, failed: 0 };
  const notifier = new Notifier(counters);
  const state = new FakeCjState(
    {
      accessTokenTtlMs: nonNegative(opts.accessTokenTtlMs, 15 * 86_400_000, 'accessTokenTtlMs', 1),
      refreshTokenTtlMs: nonNegative(opts.refreshTokenTtlMs, 180 * 86_400_000, 'refreshTokenTtlMs', 1),
      tokenExchangeIntervalMs: nonNegative(opts.tokenExchangeIntervalMs, 300_000, 'tokenExchangeIntervalMs'),
      refreshesPerMinute: nonNegative(opts.refreshesPerMinute, 5, 'refreshesPerMinute', 1),
      strictCallbackUrls: opts.strictCallbackUrls ?? false,
    },
    nonNegative(opts.seed, 7, 'seed'),
    nonNegative(opts.productCount, 80, 'productCount', 1),
    (n) => notifier.send(n),
  );
  state.report.notifications = counters;
  const rt: FakeRuntime = { state, createHangMs: nonNegative(opts.createHangMs, 15_000, 'createHangMs'), held: new Set() };
  const server = http.createServer(createFakeCjApp(rt, opts.control ?? true).callback());
  const served = await serve(server, nonNegative(opts.port, 0, 'port'), host, () => {
    notifier.close();
    for (const t of rt.held) clearTimeout(t);
    rt.held.clear();
  });
  return { baseUrl: served.baseUrl + API_PREFIX, controlUrl: `${served.baseUrl}/control`, port: served.port, state, close: served.close };
}
