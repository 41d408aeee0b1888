import type { DataSource } from 'typeorm';
import type { FailureStreak } from '../platform/failure-streak';
import type { Logger } from '../platform/logger';
import { type DeliveryConfig, FAULTS, GIVEN_UP, NOT_PERMITTED, RETRIED, retryDelayMs } from './delivery-rules';
import { answered, type SendResult } from './sender';
import { complete } from './sql/deliveries';
import type { Claimed, Outcome } from './sql/rows';
import { switchOff } from './sql/subscriptions';
import { OWNER_ENDED } from './types';

/**
 * The outcomes of a worker's deliveries (./delivery.ts): each attempt's, kept until the loop writes them together
 * right before its next claim; and the subscriptions given up, switched off once their outcomes are written.
 */
export class DeliveryOutcomes {
  private finished: Outcome[] = [];
  private givenUp: Array<{ storeId: string; subscriptionId: string; since: Date }> = [];

  constructor(
    private readonly db: DataSource,
    private readonly config: Pick<DeliveryConfig, 'giveUpMs' | 'retryBaseMs' | 'retryMaxMs'>,
    private readonly log: Logger,
    private readonly streak: FailureStreak,
  ) {}

  /** The receiver's answer: delivered (2xx); otherwise retried after a backoff (or its Retry-After), then given up. */
  answered(c: Claimed, r: SendResult): void {
    if (r.status !== null && r.status >= 200 && r.status < 300) {
      this.finished.push({ id: c.delivery.id, storeId: c.subscription.storeId, status: 'delivered', nextAt: null, responseStatus: r.status, error: null });
      return;
    }
    const error = r.error ?? answered(r.status!);
    if (this.retryPeriodOver(c)) {
      this.finished.push({ id: c.delivery.id, storeId: c.subscription.storeId, status: 'failed', nextAt: null, responseStatus: r.status, error });
      this.givenUp.push({ storeId: c.subscription.storeId, subscriptionId: c.subscription.id, since: c.delivery.pendingSince });
    } else {
      const wait = Math.max(this.backoff(c), Math.min(r.retryAfterMs ?? 0, this.config.retryMaxMs));
      this.finished.push({
        id: c.delivery.id,
        storeId: c.subscription.storeId,
        status: 'pending',
        nextAt: new Date(Date.now() + wait),
        responseStatus: r.status,
        error,
      });
    }
  }

  /** The owner may not see the event: failed at once, never sent. */
  notPermitted(c: Claimed): void {
    this.finished.push({ id: c.delivery.id, storeId: c.subscription.storeId, status: 'failed', nextAt: null, responseStatus: null, error: NOT_PERMITTED });
  }

  /** A fault on our side: retried like a failed send, then given up with the reason (its chain moves on then). */
  fault(c: Claimed, fault: keyof typeof FAULTS): void {
    const over = this.retryPeriodOver(c);
    const outcome = over ? { status: 'failed' as const, nextAt: null } : { status: 'pending' as const, nextAt: new Date(Date.now() + this.backoff(c)) };
    this.finished.push({
      id: c.delivery.id,
      storeId: c.subscription.storeId,
      ...outcome,
      responseStatus: null,
      error: FAULTS[fault] + (over ? GIVEN_UP : RETRIED),
    });
  }

  private retryPeriodOver = (c: Claimed) => Date.now() - c.delivery.pendingSince.getTime() >= this.config.giveUpMs;
  private backoff = (c: Claimed) => retryDelayMs(c.delivery.attempts, this.config.retryBaseMs, this.config.retryMaxMs);

  /** Writes the outcomes that came in; a subscription whose delivery was given up is switched off if nothing got through. */
  async settle(): Promise<void> {
    const batch = this.finished;
    const givenUp = this.givenUp;
    this.finished = [];
    this.givenUp = [];
    try {
      await complete(this.db, batch);
    } catch (err) {
      // Left leased: sent again once the lease lapses (at least once).
      this.streak.throttle.warn(this.log, { err: String(err), deliveries: batch.length }, 'event delivery outcomes not written');
      return;
    }
    for (const g of givenUp) {
      const reason = {
        code: 'deliveriesFailing' as const,
        message: 'No delivery succeeded for the whole retry period; fix the receiver, then switch the subscription on.',
        at: new Date().toISOString(),
      };
      const off = await switchOff(this.db, g.storeId, g.subscriptionId, reason, g.since).catch((err: unknown) =>
        this.log.warn({ err: String(err), subscriptionId: g.subscriptionId }, 'event subscription not switched off'),
      );
      if (off) this.log.warn({ subscriptionId: g.subscriptionId }, 'event subscription switched off: deliveries failing');
    }
  }

  /** The owner can no longer act: switched off with the reason; its deliveries wait, not attempted, for someone to take it over. */
  async switchOff(storeId: string, subscriptionId: string, code: 'keyRevoked' | 'ownerAccessEnded', batch: Claimed[]): Promise<void> {
    const message = OWNER_ENDED[code];
    await switchOff(this.db, storeId, subscriptionId, { code, message, at: new Date().toISOString() });
    for (const c of batch)
      this.finished.push({ id: c.delivery.id, storeId: c.subscription.storeId, status: 'pending', nextAt: new Date(), responseStatus: null, error: message });
    this.log.warn({ subscriptionId, code }, 'event subscription switched off');
  }
}
