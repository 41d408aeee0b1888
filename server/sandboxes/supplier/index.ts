import http from 'node:http';
import pino from 'pino';
import { serve, type Listening } from '../program';
import { createSandboxApp } from './app';
import { Notifier } from './notifier';
import type { SandboxRuntime } from './runtime';
import { DEMO_ACCOUNT } from './accounts';
import { SandboxState } from './state';
import { TimerBag } from './timers';

export { signSandboxNotification, verifySandboxNotification, SIGNATURE_HEADER } from './signature';
export { DEMO_ACCOUNT } from './accounts';
export type { Product, Variant, Order, OrderStatus, Destination, NotificationEvent, Faults } from './types';

export interface SandboxSupplierOptions {
  /** 0 = random free port (the default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Mount /control/* (default false). */
  control?: boolean;
  /** Catalogue seed (default 42). */
  seed?: number;
  /** Catalogue size (default 1200). */
  productCount?: number;
  /** Default 0 = off; paid orders move to shipped after this delay. */
  autoShipAfterMs?: number;
  /** Default 15000: how long a "timeout after create" holds the response before destroying the socket. */
  createHangMs?: number;
}

export type RunningSandboxSupplier = Listening;

function nonNegativeInt(value: number | undefined, fallback: number, name: string, min = 0): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  return v;
}

export async function startSandboxSupplier(opts: SandboxSupplierOptions = {}): Promise<RunningSandboxSupplier> {
  const port = nonNegativeInt(opts.port, 0, 'port');
  const host = opts.host ?? '127.0.0.1';
  const log = pino(
    { name: 'sandbox-supplier', level: process.env.SANDBOX_LOG_LEVEL ?? 'info' },
    // stderr: stdout is reserved for the one-line announcement main.ts prints.
    pino.destination({ dest: 2, sync: true }),
  );
  const notifier = new Notifier(log);
  const state = new SandboxState(
    {
      seed: nonNegativeInt(opts.seed, 42, 'seed'),
      productCount: nonNegativeInt(opts.productCount, 1200, 'productCount', 1),
      autoShipAfterMs: nonNegativeInt(opts.autoShipAfterMs, 0, 'autoShipAfterMs'),
    },
    notifier,
    log,
  );
  const runtime: SandboxRuntime = {
    state,
    log,
    requestTimers: new TimerBag(),
    createHangMs: nonNegativeInt(opts.createHangMs, 15_000, 'createHangMs'),
    control: opts.control ?? false,
  };
  const running = await serve(http.createServer(createSandboxApp(runtime).callback()), port, host, () => {
    state.stop();
    runtime.requestTimers.clear();
    notifier.close();
  });
  log.info({ baseUrl: running.baseUrl, control: runtime.control, demoAccount: DEMO_ACCOUNT }, 'sandbox supplier listening');
  return running;
}
