import http from 'node:http';
import pino from 'pino';
import { serve, type Listening } from '../program';
import { createRatesApp } from './app';
import { newState } from './state';

export interface SandboxExchangeRatesOptions {
  /** 0 = a free port (the default). */
  port?: number;
  host?: string;
  /** Mount /control/* (rates, publication date, faults; default false). */
  control?: boolean;
}

/** Where the daily file is, below the server's address, as at the ECB. */
export const DAILY_PATH = '/stats/eurofxref/eurofxref-daily.xml';

export type RunningSandboxExchangeRates = Listening & { dailyUrl: string };

/**
 * A server in the European Central Bank's reference rates format, so `npm start` and the tests never reach the
 * internet for exchange rates: it publishes `eurofxref-daily.xml`, and its control API sets the rates, the
 * publication date and faults (a 5xx, a timeout, a malformed file).
 */
export async function startSandboxExchangeRates(opts: SandboxExchangeRatesOptions = {}): Promise<RunningSandboxExchangeRates> {
  const log = pino({ name: 'sandbox-exchange-rates', level: process.env.SANDBOX_LOG_LEVEL ?? 'info' }, pino.destination({ dest: 2, sync: true }));
  const holds = new Set<NodeJS.Timeout>();
  const app = createRatesApp(newState(), opts.control ?? false, log, holds);
  const running = await serve(http.createServer(app.callback()), opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
    for (const t of holds) clearTimeout(t);
  });
  log.info({ baseUrl: running.baseUrl, control: opts.control ?? false }, 'sandbox exchange rates listening');
  return { ...running, dailyUrl: `${running.baseUrl}${DAILY_PATH}` };
}
