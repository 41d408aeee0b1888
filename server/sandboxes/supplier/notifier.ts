import http from 'node:http';
import https from 'node:https';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { signSandboxNotification, SIGNATURE_HEADER } from './signature';
import type { NotificationEvent } from './types';

export const NOTIFY_TIMEOUT_MS = 5000;

export interface NotificationTarget {
  url: string;
  secret: string;
}

export interface NotifierCounters {
  sent: number;
  delivered: number;
  failed: number;
}

type EventBody = Omit<NotificationEvent, 'id' | 'createdAt'>;

function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

/** Fire-and-forget signed POSTs. Never throws into the caller: a supplier does not care if you listen. */
export class Notifier {
  readonly counters: NotifierCounters = { sent: 0, delivered: 0, failed: 0 };
  private readonly pending = new Set<http.ClientRequest>();
  private closed = false;

  constructor(private readonly log: Logger) {}

  send(target: NotificationTarget, event: EventBody): void {
    if (this.closed) return;
    const full = { id: newEventId(), type: event.type, createdAt: new Date().toISOString(), data: event.data };
    const rawBody = JSON.stringify(full);
    const signature = signSandboxNotification(target.secret, rawBody, Math.floor(Date.now() / 1000));
    this.counters.sent++;
    try {
      this.post(target.url, rawBody, signature, full.id, full.type);
    } catch (err) {
      this.fail(target.url, full.id, err);
    }
  }

  /** Drops in-flight posts so close() does not wait on slow receivers. */
  close(): void {
    this.closed = true;
    for (const req of this.pending) req.destroy();
    this.pending.clear();
  }

  private post(url: string, rawBody: string, signature: string, eventId: string, type: string): void {
    const target = new URL(url);
    const transport = target.protocol === 'https:' ? https : http;
    // agent:false -> one connection per post, closed afterwards; no pooled sockets outliving the server.
    const req = transport.request(target, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(rawBody),
        'user-agent': 'SandboxSupplier-Webhooks/1',
        [SIGNATURE_HEADER]: signature,
      },
    });
    this.pending.add(req);
    let settled = false;
    const finish = (err?: unknown, status?: number): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.pending.delete(req);
      if (err) this.fail(url, eventId, err);
      else if (status !== undefined && status >= 200 && status < 300) {
        this.counters.delivered++;
        this.log.debug({ url, eventId, type, status }, 'notification delivered');
      } else this.fail(url, eventId, new Error(`receiver answered HTTP ${status}`));
    };
    // Whole-exchange deadline; the socket `timeout` option only covers idleness.
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${NOTIFY_TIMEOUT_MS} ms`)), NOTIFY_TIMEOUT_MS);
    timer.unref();
    let status: number | undefined;
    req.on('response', (res) => {
      status = res.statusCode;
      res.resume();
      res.on('end', () => finish(undefined, res.statusCode));
      res.on('error', (err) => finish(err));
    });
    req.on('error', (err) => finish(err));
    req.on('close', () => finish(this.closed ? new Error('sandbox closing') : undefined, status));
    req.end(rawBody);
  }

  private fail(url: string, eventId: string, err: unknown): void {
    this.counters.failed++;
    this.log.warn({ url, eventId, err: err instanceof Error ? err.message : String(err) }, 'notification failed');
  }
}
