import type { DataSource } from 'typeorm';
import type { Secrets } from '../platform/crypto';
import { boundedWait } from '../platform/bounded-wait';
import { type Logger, Throttle } from '../platform/logger';
import type { Reader, Renderers } from './render';
import type { Sender } from './sender';
import { webhookHeaders } from './signing';
import * as sql from './sql';

export interface DeliveryConfig {
  /** Deliveries in flight in this process, and of one subscription (a slow receiver holds only its own). */
  concurrency: number;
  perSubscription: number;
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A delivery failing this long is given up; a subscription with nothing delivered meanwhile is switched off. */
  giveUpMs: number;
  bodyLimitBytes: number;
  pollMs: number;
}

/** The subscription owner's access to the store now (null: none left), and whether the key it was made with is revoked. */
export type OwnerAccess = (storeId: string, accountId: string, keyId: string | null) => Promise<(Reader & { keyRevoked: boolean }) | null>;

/** Exponential backoff with equal jitter: half of base × 2ⁿ⁻¹ (at most the cap), plus up to as much again at random. */
export function retryDelayMs(failures: number, baseMs: number, maxMs: number, random = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 40));
  return Math.round(full / 2 + (random() * full) / 2);
}

/** How long a claim holds: longer than any attempt, so only a dead process's claims lapse. */
export const leaseMsOf = (timeoutMs: number) => 2 * timeoutMs + 5000;

/**
 * The delivery loop of one worker process: fan-out, then as many due deliveries as there are free slots, each sent
 * on its own; outcomes are written together right before the next claim. Woken by the outbox's notification and by a
 * freed slot; otherwise it looks again every `pollMs` (retries falling due).
 */
export class DeliveryLoop {
  private readonly inFlight = new Map<string, number>();
  private running = 0;
  private finished: sql.Outcome[] = [];
  private givenUp: Array<{ subscriptionId: string; since: Date }> = [];
  private active = false;
  private poked = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private drained: (() => void) | null = null;
  /** Passes failed in a row (the database away): the loop waits longer each time, up to 10 s, and says so once per window. */
  private failures = 0;
  private readonly throttle = new Throttle();

  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    private readonly renderers: Renderers,
    private readonly sender: Sender,
    private readonly ownerAccess: OwnerAccess,
    private readonly config: DeliveryConfig,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.active) return;
    this.active = true;
    this.loop = this.run();
  }

  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.active) {
      this.poked = false;
      let claimed = 0;
      let free = 0;
      try {
        await this.settle();
        while ((await sql.fanOut(this.db, 1000)) === 1000);
        free = this.config.concurrency - this.running;
        if (free > 0) claimed = await this.claimAndSend(free);
        if (this.failures) this.log.info({ failures: this.failures }, 'event delivery works again');
        this.failures = 0;
      } catch (err) {
        this.failures++;
        this.throttle.warn(this.log, { err: String(err) }, 'event delivery pass failed');
      }
      if (!this.active) break;
      if (!this.failures && ((claimed > 0 && claimed === free) || this.poked)) continue;
      await boundedWait(this.failures ? Math.min(10_000, this.config.pollMs * 2 ** Math.min(this.failures, 5)) : this.config.pollMs, (done) => (this.wake = done));
      this.wake = null;
    }
  }

  private async claimAndSend(free: number): Promise<number> {
    const claimed = await sql.claim(this.db, { limit: free, perSubscription: this.config.perSubscription, inFlight: this.inFlight, leaseMs: leaseMsOf(this.config.timeoutMs) });
    const bySubscription = new Map<string, sql.Claimed[]>();
    for (const c of claimed) bySubscription.set(c.subscription.id, [...(bySubscription.get(c.subscription.id) ?? []), c]);
    for (const batch of bySubscription.values()) {
      const s = batch[0].subscription;
      const access = await this.ownerAccess(s.storeId, s.createdByAccountId, s.createdByKeyId);
      if (!access || access.keyRevoked || !access.permissions.has('suppliers.view')) {
        await this.switchOff(s.id, access?.keyRevoked ? 'keyRevoked' : 'ownerAccessEnded', batch);
        continue;
      }
      const bodies = await this.renderers.bodies(batch.map((c) => c.event), access, this.config.bodyLimitBytes);
      const secrets = [this.secrets.decrypt(s.secretSealed), ...(s.previousSecretSealed && s.previousSecretUntil && s.previousSecretUntil > new Date() ? [this.secrets.decrypt(s.previousSecretSealed)] : [])];
      batch.forEach((c, i) => {
        const body = bodies[i];
        if (body === null) this.finished.push({ id: c.delivery.id, status: 'failed', nextAt: null, responseStatus: null, error: 'The subscription\'s owner may not read this resource.' });
        else this.begin(c, secrets, body);
      });
    }
    return claimed.length;
  }

  private begin(c: sql.Claimed, secrets: string[], body: string): void {
    const sub = c.subscription.id;
    this.running++;
    this.inFlight.set(sub, (this.inFlight.get(sub) ?? 0) + 1);
    void (async () => {
      const r = await this.sender.send(c.subscription.url, webhookHeaders(secrets, c.event.id, body), body);
      const ok = r.status !== null && r.status >= 200 && r.status < 300;
      if (ok) this.finished.push({ id: c.delivery.id, status: 'delivered', nextAt: null, responseStatus: r.status, error: null });
      else if (Date.now() - c.delivery.pendingSince.getTime() >= this.config.giveUpMs) {
        this.finished.push({ id: c.delivery.id, status: 'failed', nextAt: null, responseStatus: r.status, error: r.error ?? `The receiver answered ${r.status}.` });
        this.givenUp.push({ subscriptionId: sub, since: c.delivery.pendingSince });
      } else {
        const wait = Math.max(retryDelayMs(c.delivery.attempts, this.config.retryBaseMs, this.config.retryMaxMs), Math.min(r.retryAfterMs ?? 0, this.config.retryMaxMs));
        this.finished.push({ id: c.delivery.id, status: 'pending', nextAt: new Date(Date.now() + wait), responseStatus: r.status, error: r.error ?? `The receiver answered ${r.status}.` });
      }
      this.running--;
      const left = this.inFlight.get(sub)! - 1;
      if (left) this.inFlight.set(sub, left);
      else this.inFlight.delete(sub);
      if (this.running === 0) this.drained?.();
      this.poke();
    })();
  }

  /** Writes the outcomes that came in; a subscription whose delivery was given up is switched off if nothing got through. */
  private async settle(): Promise<void> {
    const batch = this.finished;
    const givenUp = this.givenUp;
    this.finished = [];
    this.givenUp = [];
    try {
      await sql.complete(this.db, batch);
    } catch (err) {
      // Left leased: sent again once the lease lapses (at least once).
      this.throttle.warn(this.log, { err: String(err), deliveries: batch.length }, 'event delivery outcomes not written');
      return;
    }
    for (const g of givenUp) {
      const reason = { code: 'deliveriesFailing' as const, message: 'No delivery succeeded for the whole retry period; fix the receiver, then switch the subscription on.', at: new Date().toISOString() };
      if (await sql.switchOff(this.db, g.subscriptionId, reason, g.since)) this.log.warn({ subscriptionId: g.subscriptionId }, 'event subscription switched off: deliveries failing');
    }
  }

  private async switchOff(subscriptionId: string, code: 'keyRevoked' | 'ownerAccessEnded', batch: sql.Claimed[]): Promise<void> {
    const message = code === 'keyRevoked' ? 'The API key that made the subscription was revoked.' : 'The owner of the subscription may no longer read this store\'s supplier data.';
    await sql.switchOff(this.db, subscriptionId, { code, message, at: new Date().toISOString() });
    // Left pending (not attempted): sent if the subscription is switched on again.
    for (const c of batch) this.finished.push({ id: c.delivery.id, status: 'pending', nextAt: new Date(), responseStatus: null, error: message });
    this.log.warn({ subscriptionId, code }, 'event subscription switched off');
  }

  /** Stops claiming and waits (bounded) for the deliveries in flight; what is left is sent again after its lease. */
  async stop(timeoutMs: number): Promise<void> {
    this.active = false;
    this.poke();
    await this.loop;
    if (this.running) await boundedWait(timeoutMs, (done) => (this.drained = done));
    await this.settle();
  }
}
