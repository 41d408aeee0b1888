import type { DataSource } from 'typeorm';
import type { Secrets } from '../platform/crypto';
import { boundedWait } from '../platform/bounded-wait';
import { failpoint } from '../platform/failpoints';
import { FailureStreak } from '../platform/failure-streak';
import type { Logger } from '../platform/logger';
import { BASE_PERMISSION, type Renderers } from './render';
import { type ReactionConfig, ReactionRunner, type Reactions } from './reactions';
import { type DeliveryConfig, leaseMsOf, type OwnerAccess } from './delivery-rules';
import { DeliveryOutcomes } from './delivery-outcomes';

export type { DeliveryConfig, OwnerAccess } from './delivery-rules';
import type { Sender } from './sender';
import { webhookHeaders } from './signing';
import type { Standbys } from '../platform/standbys';
import { claim, fanOut } from './sql/deliveries';
import type { Claimed, InFlight } from './sql/rows';

const count = (m: Map<string, number>, key: string, by: number) => {
  const n = (m.get(key) ?? 0) + by;
  if (n > 0) m.set(key, n);
  else m.delete(key);
};

/**
 * The delivery loop of one worker process: fan-out, the internal reactions it made, then as many due deliveries as
 * there are free slots, each sent on its own; outcomes are written together right before the next claim. Woken by the
 * outbox's notification and by a freed slot; otherwise it looks again every `pollMs` (retries falling due). Nothing one delivery does (its owner's
 * access, its rendering, its secret, its send) can stop the others: each fault becomes that delivery's outcome.
 */
export class DeliveryLoop {
  private readonly inFlight: InFlight = { subscriptions: new Map(), stores: new Map() };
  private running = 0;
  private active = false;
  private poked = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private drained: (() => void) | null = null;
  private readonly streak = new FailureStreak();

  constructor(
    private readonly db: DataSource,
    private readonly secrets: Secrets,
    private readonly renderers: Renderers,
    private readonly sender: Sender,
    private readonly ownerAccess: OwnerAccess,
    private readonly config: DeliveryConfig,
    private readonly log: Logger,
    private readonly standbys: Pick<Standbys, 'confirmed' | 'epoch'>,
    /** The service's own subscribers (./reactions.ts), and the event types only they take. */
    private readonly reactions: { registry: Reactions; config: ReactionConfig; internalTypes: string[] },
  ) {
    this.outcomes = new DeliveryOutcomes(db, config, log, this.streak);
    this.runner = new ReactionRunner(db, reactions.registry, reactions.config, log, () => this.poke());
  }
  private readonly runner: ReactionRunner;
  private readonly outcomes: DeliveryOutcomes;

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
      await this.streak.attempt(this.log, {}, { failed: 'event delivery pass failed', back: 'event delivery works again' }, async () => {
        await this.outcomes.settle();
        while ((await fanOut(this.db, 1000, this.reactions.registry.routes(), this.reactions.internalTypes)) === 1000);
        claimed += await this.runner.pass();
        const free = this.config.concurrency - this.running;
        if (free > 0) claimed += await this.claimAndSend(free);
      });
      if (!this.active) break;
      // More may be due beyond what the caps let this claim take (a store at its share is left out of the next one).
      if (!this.streak.failing && ((claimed > 0 && this.running < this.config.concurrency) || this.poked)) continue;
      await boundedWait(this.streak.waitMs(this.config.pollMs), (done) => (this.wake = done));
      this.wake = null;
    }
  }

  private async claimAndSend(free: number): Promise<number> {
    const { perSubscription, perStore, timeoutMs } = this.config;
    const since = this.standbys.epoch();
    const claimed = await claim(this.db, { limit: free, perSubscription, perStore, inFlight: this.inFlight, leaseMs: leaseMsOf(timeoutMs) });
    if (claimed.length && !(await this.standbysConfirmed(leaseMsOf(timeoutMs) / 2, since))) {
      for (const c of claimed) this.outcomes.fault(c, 'standbyBehind');
      return claimed.length;
    }
    const bySubscription = new Map<string, Claimed[]>();
    for (const c of claimed) bySubscription.set(c.subscription.id, [...(bySubscription.get(c.subscription.id) ?? []), c]);
    for (const batch of bySubscription.values()) {
      try {
        await this.prepare(batch);
      } catch (err) {
        this.log.error({ err, subscriptionId: batch[0].subscription.id }, 'event deliveries not prepared');
        for (const c of batch) this.outcomes.fault(c, 'internal');
      }
    }
    return claimed.length;
  }

  /**
   * Every event claimed was committed before this look, so once the standbys have confirmed the WAL written now, a
   * failover cannot take any of them back: a receiver never gets an event the database then forgets (issue 43). A
   * timeline other than `since` (the claim's server failed over) is not confirmed: the claim itself may be lost.
   */
  private standbysConfirmed(withinMs: number, since: number | null): Promise<boolean> {
    return this.standbys.confirmed(withinMs, since);
  }

  /** One subscription's claimed deliveries: its owner's access now, its secrets, the bodies; then each is sent. */
  private async prepare(batch: Claimed[]): Promise<void> {
    const s = batch[0].subscription;
    const access = await this.ownerAccess(s.storeId, s.ownerAccountId, s.ownerKeyId).catch((err: unknown) => {
      this.log.error({ err, subscriptionId: s.id }, "event subscription owner's access not read");
      return undefined;
    });
    if (access === undefined) return batch.forEach((c) => this.outcomes.fault(c, 'ownerUnreadable'));
    if (!access || access.keyRevoked || !access.permissions.has(BASE_PERMISSION))
      return this.outcomes.switchOff(s.storeId, s.id, access?.keyRevoked ? 'keyRevoked' : 'ownerAccessEnded', batch);
    const secrets = this.secretsOf(s);
    if (!secrets) return batch.forEach((c) => this.outcomes.fault(c, 'secretUnreadable'));
    const bodies = await this.renderers.bodies(
      batch.map((c) => c.event),
      access,
      this.config.bodyLimitBytes,
      (err, e) => this.log.error({ err, subscriptionId: s.id, eventId: e.id, resourceKey: e.resourceKey }, 'event not rendered'),
    );
    batch.forEach((c, i) => {
      const r = bodies[i];
      if ('body' in r) this.begin(c, secrets, r.body);
      else if (r.refused === 'renderFailed') this.outcomes.fault(c, 'renderFailed');
      else this.outcomes.notPermitted(c);
    });
  }

  /** The current secret (null when it cannot be opened), and the previous one while it still signs (skipped if unreadable). */
  private secretsOf(s: Claimed['subscription']): string[] | null {
    const open = (sealed: string) => {
      try {
        return this.secrets.decrypt(sealed);
      } catch (err) {
        this.log.error({ err: String(err), subscriptionId: s.id }, 'event subscription secret not readable');
        return null;
      }
    };
    const current = open(s.secretSealed);
    if (current === null) return null;
    const previous = s.previousSecretSealed && s.previousSecretUntil && s.previousSecretUntil > new Date() ? open(s.previousSecretSealed) : null;
    return previous === null ? [current] : [current, previous];
  }

  private begin(c: Claimed, secrets: string[], body: string): void {
    const { id: sub, storeId } = c.subscription;
    this.running++;
    count(this.inFlight.subscriptions, sub, 1);
    count(this.inFlight.stores, storeId, 1);
    void this.attempt(c, secrets, body)
      .catch((err: unknown) => {
        this.log.error({ err, deliveryId: c.delivery.id }, 'event delivery attempt failed');
        this.outcomes.fault(c, 'internal');
      })
      .finally(() => {
        this.running--;
        count(this.inFlight.subscriptions, sub, -1);
        count(this.inFlight.stores, storeId, -1);
        if (this.running === 0) this.drained?.();
        this.poke();
      });
  }

  private async attempt(c: Claimed, secrets: string[], body: string): Promise<void> {
    failpoint('events.send');
    const r = await this.sender.send(c.subscription.url, webhookHeaders(secrets, c.event.id, body), body);
    if (r.cause) this.log.debug({ deliveryId: c.delivery.id, subscriptionId: c.subscription.id, cause: r.cause }, 'event delivery attempt refused');
    this.outcomes.answered(c, r);
  }

  /** Stops claiming and waits (bounded) for the deliveries in flight; what is left is sent again after its lease. */
  async stop(timeoutMs: number): Promise<void> {
    this.active = false;
    this.poke();
    await this.loop;
    if (this.running) await boundedWait(timeoutMs, (done) => (this.drained = done));
    await this.runner.stop(timeoutMs);
    await this.outcomes.settle();
  }
}
