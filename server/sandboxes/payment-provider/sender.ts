import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import type { Merchant, SentEvent } from './state';

const TIMEOUT_MS = 5000;

/** Standard Webhooks headers for `body` under a `whsec_` secret. */
export function signedHeaders(secret: string, eventId: string, body: string, timestampSeconds = Math.floor(Date.now() / 1000)): Record<string, string> {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${eventId}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': eventId, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}

/**
 * Delivers events to the merchant's notification address, signed, and sends again after any answer but 2xx
 * (a 503 means "send again"), with growing delays; a 4xx other than 408 and 429 is final.
 */
export class EventSender {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  /** While held (the control API), events (of the held types, or all) wait here, undelivered, until released. */
  private held: Array<[Merchant, SentEvent]> | null = null;
  private heldTypes: ReadonlySet<string> | null = null;

  constructor(
    private readonly log: Logger,
    private readonly retryDelaysMs: number[],
  ) {}

  send(merchant: Merchant, event: SentEvent, attempt = 0): void {
    if (this.closed || !merchant.notificationUrl || !merchant.signingSecret) return;
    if (this.held && (!this.heldTypes || this.heldTypes.has(event.type))) {
      this.held.push([merchant, event]);
      return;
    }
    void this.post(merchant.notificationUrl, merchant.signingSecret, event).then((status) => {
      if (status !== null && status >= 200 && status < 300) return;
      const final = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
      const delay = this.retryDelaysMs[attempt];
      if (final || delay === undefined || this.closed) return;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.send(merchant, event, attempt + 1);
      }, delay);
      this.timers.add(timer);
    });
  }

  hold(on: boolean, types: string[] | null = null): void {
    const waiting = this.held ?? [];
    this.held = on ? waiting : null;
    this.heldTypes = on && types ? new Set(types) : null;
    if (!on) for (const [merchant, event] of waiting) this.send(merchant, event);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async post(url: string, secret: string, event: SentEvent): Promise<number | null> {
    const attempt: SentEvent['attempts'][number] = { at: new Date().toISOString(), status: null };
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'SandboxPayments-Webhooks/1', ...signedHeaders(secret, event.id, event.body) },
        body: event.body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      await res.arrayBuffer();
      attempt.status = res.status;
      if (res.ok) event.delivered = true;
    } catch (err) {
      attempt.error = err instanceof Error ? err.message : String(err);
    }
    event.attempts.push(attempt);
    this.log.debug({ eventId: event.id, status: attempt.status, error: attempt.error }, 'payment event sent');
    return attempt.status;
  }
}
