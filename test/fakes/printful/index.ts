/**
 * A local server that answers in Printful's documented API v1 format (docs/suppliers/printful.md), for tests: its own
 * Koa app on its own port. The adapter is pointed at `baseUrl`; tests steer it through `/control`.
 */
import http from 'node:http';
import { serve } from '../../../server/sandboxes/program';
import { createFakePrintfulApp, FakeRuntime } from './app';
import { FakePrintfulState, WebhookEvent } from './state';

export type { FakeOrder, Faults, FailRule } from './state';

/** Printful redelivers a webhook not answered 2xx after these many minutes, then gives up. */
export const RETRY_MINUTES = [1, 4, 16, 64, 256, 1024];
const DELIVERY_TIMEOUT_MS = 5000;

/** Sends webhooks as Printful does: POST JSON, any 2xx ends it; otherwise the next retry on the schedule (a minute being `minuteMs`). */
class Webhooks {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly state: FakePrintfulState,
    private readonly minuteMs: number,
  ) {}

  send(e: WebhookEvent, retries = 0): void {
    if (this.closed) return;
    const body = JSON.stringify({ type: e.type, created: e.created, retries, store: e.store, data: e.data });
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), DELIVERY_TIMEOUT_MS);
    const record = (status: number) => {
      clearTimeout(timer);
      this.state.deliveries.push({ type: e.type, url: e.url, created: e.created, retries, status, at: Date.now(), body });
      if ((status < 200 || status >= 300) && retries < RETRY_MINUTES.length && !this.closed)
        this.later(() => this.send(e, retries + 1), RETRY_MINUTES[retries] * this.minuteMs);
    };
    fetch(e.url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'Printful' }, body, signal: abort.signal })
      .then(async (res) => {
        await res.text().catch(() => undefined);
        record(res.status);
      })
      .catch(() => record(0));
  }

  private later(run: () => void, ms: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      run();
    }, ms);
    this.timers.add(t);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

export interface FakePrintfulOptions {
  /** 0 = a free port (the default). */
  port?: number;
  host?: string;
  /** Mount /control (default true: this server exists for tests). */
  control?: boolean;
  /** Printful: 120 calls a minute per token. */
  requestsPerMinute?: number;
  /** Confirmed orders move pending -> inprocess -> fulfilled every this many ms; 0 (default): by the control API only. */
  advanceMs?: number;
  productCount?: number;
  /** How long a held answer ("timeout after create/confirm") waits before the socket is dropped (default 15000). */
  hangMs?: number;
  /** The webhook retry clock: how many ms a "minute" of Printful's retry schedule lasts (default 60000; tests speed it up). */
  retryMinuteMs?: number;
}

export interface RunningFakePrintful {
  /** What PRINTFUL_API_BASE_URL is set to: `http://127.0.0.1:<port>`. */
  baseUrl: string;
  controlUrl: string;
  port: number;
  state: FakePrintfulState;
  close(): Promise<void>;
}

function whole(value: number | undefined, fallback: number, name: string, min = 0): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  return v;
}

export async function startFakePrintful(opts: FakePrintfulOptions = {}): Promise<RunningFakePrintful> {
  const state = new FakePrintfulState({
    requestsPerMinute: whole(opts.requestsPerMinute, 120, 'requestsPerMinute', 1),
    advanceMs: whole(opts.advanceMs, 0, 'advanceMs'),
    productCount: whole(opts.productCount, 24, 'productCount', 1),
  });
  const rt: FakeRuntime = { state, hangMs: whole(opts.hangMs, 15_000, 'hangMs'), held: new Set() };
  const webhooks = new Webhooks(state, whole(opts.retryMinuteMs, 60_000, 'retryMinuteMs', 1));
  state.notify = (e) => webhooks.send(e);
  const server = http.createServer(createFakePrintfulApp(rt, opts.control ?? true).callback());
  const host = opts.host ?? '127.0.0.1';
  const served = await serve(server, whole(opts.port, 0, 'port'), host, () => {
    webhooks.close();
    for (const t of rt.held) clearTimeout(t);
    rt.held.clear();
  });
  return { baseUrl: served.baseUrl, controlUrl: `${served.baseUrl}/control`, port: served.port, state, close: served.close };
}
