import http from 'node:http';
import pino from 'pino';
import { serve, type Listening } from '../program';
import { createSandboxApp } from './app';
import { Notifier } from './notifier';
import type { SandboxRuntime } from './runtime';
import { DEMO_ACCOUNT, EU_DEMO_ACCOUNT } from './accounts';
import { SandboxState } from './state';
import { TimerBag } from './timers';
import { EU_WAREHOUSE, MAIN_WAREHOUSE } from './warehouse';

export { signSandboxNotification, verifySandboxNotification, SIGNATURE_HEADER } from './signature';
export { DEMO_ACCOUNT, EU_DEMO_ACCOUNT } from './accounts';
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
  const options = {
    seed: nonNegativeInt(opts.seed, 42, 'seed'),
    productCount: nonNegativeInt(opts.productCount, 1200, 'productCount', 1),
    autoShipAfterMs: nonNegativeInt(opts.autoShipAfterMs, 0, 'autoShipAfterMs'),
  };
  const createHangMs = nonNegativeInt(opts.createHangMs, 15_000, 'createHangMs');
  // Two supplier identities, each with its own state (accounts, catalogue, orders, faults): the main warehouse at /,
  // the second at /eu (warehouse.ts).
  const runtimes: SandboxRuntime[] = [MAIN_WAREHOUSE, EU_WAREHOUSE].map((warehouse) => ({
    state: new SandboxState({ ...options, warehouse }, notifier, log),
    log,
    requestTimers: new TimerBag(),
    createHangMs,
    control: opts.control ?? false,
  }));
  const [main, eu] = runtimes.map((rt) => createSandboxApp(rt).callback());
  const prefix = EU_WAREHOUSE.prefix;
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
      req.url = url.slice(prefix.length) || '/';
      return void eu(req, res);
    }
    return void main(req, res);
  });
  const running = await serve(server, port, host, () => {
    for (const rt of runtimes) {
      rt.state.stop();
      rt.requestTimers.clear();
    }
    notifier.close();
  });
  log.info(
    {
      baseUrl: running.baseUrl,
      control: opts.control ?? false,
      demoAccount: DEMO_ACCOUNT,
      secondWarehouse: { baseUrl: `${running.baseUrl}${prefix}`, demoAccount: EU_DEMO_ACCOUNT },
    },
    'sandbox supplier listening',
  );
  return running;
}
