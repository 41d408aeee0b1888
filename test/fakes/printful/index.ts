/**
 * A local server that answers in Printful's documented API v1 format (docs/suppliers/printful.md), for tests: its own
 * Koa app on its own port. The adapter is pointed at `baseUrl`; tests steer it through `/control`.
 */
import http from 'node:http';
import { serve } from '../../../server/sandboxes/program';
import { createFakePrintfulApp, FakeRuntime } from './app';
import { FakePrintfulState } from './state';

export type { FakeOrder, Faults, FailRule } from './state';

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
  const server = http.createServer(createFakePrintfulApp(rt, opts.control ?? true).callback());
  const host = opts.host ?? '127.0.0.1';
  const served = await serve(server, whole(opts.port, 0, 'port'), host, () => {
    for (const t of rt.held) clearTimeout(t);
    rt.held.clear();
  });
  return { baseUrl: served.baseUrl, controlUrl: `${served.baseUrl}/control`, port: served.port, state, close: served.close };
}
