import http from 'node:http';
import pino from 'pino';
import { serve, type Listening } from '../program';
import { createPaymentsApp } from './app';
import type { Payments } from './runtime';
import { EventSender } from './sender';
import { PaymentsState, STATUS_AFTER } from './state';

export { DEMO_MERCHANT } from './state';
export { signedHeaders } from './sender';

export interface SandboxPaymentsOptions {
  /** 0 = a free port (the default). */
  port?: number;
  host?: string;
  /** Delays before sending an undelivered event again (default 1, 2, 4, 8, 16 s). */
  retryDelaysMs?: number[];
  /** Mount /control/* (fault injection for tests and local trials; default false). */
  control?: boolean;
}

export type RunningSandboxPayments = Listening;

/**
 * The sandbox payment provider: ships beside the sandbox supplier, its own HTTP server, so the demo, the tests and
 * a person at its checkout page can pay a store order as a shopper would, and the store hears of it only through
 * signed notifications.
 */
export async function startSandboxPayments(opts: SandboxPaymentsOptions = {}): Promise<RunningSandboxPayments> {
  const log = pino({ name: 'sandbox-payments', level: process.env.SANDBOX_LOG_LEVEL ?? 'info' }, pino.destination({ dest: 2, sync: true }));
  const state = new PaymentsState();
  const sender = new EventSender(log, opts.retryDelaysMs ?? [1000, 2000, 4000, 8000, 16000]);
  const payments: Payments = {
    state,
    sender,
    control: opts.control ?? false,
    emit(merchant, payment, type, idempotencyKey = null) {
      payment.status = STATUS_AFTER[type];
      payment.version++;
      if (type === 'payment.paid' || type === 'payment.captured')
        payment.captures.push({ at: new Date().toISOString(), idempotencyKey, amountMinor: payment.amountMinor });
      const event = state.eventFor(payment, type);
      sender.send(merchant, event);
      return event.id;
    },
  };
  const running = await serve(http.createServer(createPaymentsApp(payments, log).callback()), opts.port ?? 0, opts.host ?? '127.0.0.1', () => sender.close());
  log.info({ baseUrl: running.baseUrl, control: payments.control }, 'sandbox payment provider listening');
  return running;
}
