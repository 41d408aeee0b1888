import { domain, type Platform } from '../platform/domain';
import type { SealedValues } from '../platform/sealed';
import { ListenFeed } from '../platform/listen';
import { purgeSpentRates } from '../platform/rate-limit';
import { DeliveryLoop, type OwnerAccess } from './delivery';
import { type EventRenderer, Renderers } from './render';
import { eventRoutes } from './routes';
import { Sender } from './sender';
import { OUTBOX_CHANNEL, purgeOld, replaceSealedSecret, sealedSecrets, type SecretColumn, switchOffOwnerless } from './sql';
import { SubscriptionService } from './subscriptions';

const sealedColumn = (name: string, column: SecretColumn): SealedValues => ({ name, list: (db, limit) => sealedSecrets(db, column, limit), replace: (db, ...v) => replaceSealedSecret(db, column, ...v) });
/** Each subscription's signing secret, and the previous one kept beside it after a rotation. */
export const EVENT_SEALED: SealedValues[] = [sealedColumn('subscriptionSecrets', 'secret_sealed'), sealedColumn('subscriptionPreviousSecrets', 'previous_secret_sealed')];

/**
 * Events to developers: the outbox the other domains write into with their changes, the store's subscriptions, and
 * (in a worker) the delivery loop. Each domain whose events it carries gives how their data is rendered (by resource kind).
 */
export function eventsDomain(p: Platform, deps: { ownerAccess: OwnerAccess; renderers: Record<string, EventRenderer> }) {
  const c = p.config;
  const renderers = new Renderers();
  for (const [kind, renderer] of Object.entries(deps.renderers)) renderers.register(kind, renderer);
  const sends = { bucket: 'eventSends', limit: c.eventSendsPerMinute, windowSeconds: 60, per: 'store' as const, shared: ['testEventSubscription', 'redeliverEvent'] };
  const subscriptions = new SubscriptionService(p.db, p.secrets, p.cursors, c.eventTargetsAllowPrivate, renderers, deps.ownerAccess, { perStore: c.eventSubscriptionsPerStore, sends });
  return domain({
    subscriptions,
    renderers,
    routes: eventRoutes(subscriptions),
    // The send budgets' spent rows (the platform's rate-limit table) go with the events: this domain is their one user.
    housekeeping: async () => ({ events: await purgeOld(p.db, c.eventRetentionDays), rateLimits: await purgeSpentRates(p.db) }),
    async work() {
      const sender = new Sender(c.eventDeliveryTimeoutMs, c.eventTargetsAllowPrivate);
      const loop = new DeliveryLoop(p.db, p.secrets, renderers, sender, deps.ownerAccess, {
        concurrency: c.eventDeliveryConcurrency, perSubscription: c.eventSubscriptionConcurrency, perStore: Math.min(c.eventStoreConcurrency, c.eventDeliveryConcurrency), timeoutMs: c.eventDeliveryTimeoutMs, retryBaseMs: c.eventRetryBaseMs,
        retryMaxMs: c.eventRetryMaxMs, giveUpMs: c.eventGiveUpSeconds * 1000, bodyLimitBytes: c.eventBodyLimitBytes, pollMs: c.eventPollMs,
      }, p.log);
      // Woken when a statement wrote events (and by its own freed slots); polls for retries falling due.
      const feed = new ListenFeed(p.databaseUrl, [OUTBOX_CHANNEL], p.log);
      feed.on(OUTBOX_CHANNEL, () => loop.poke());
      loop.start();
      // Deliveries check their owner as they go; this switches off, with the reason, what has nothing to send yet.
      const ownerCheck = setInterval(() => {
        switchOffOwnerless(p.db).then(
          (off) => off.length && p.log.warn({ subscriptions: off }, 'event subscriptions switched off: their owner can no longer act'),
          (err: unknown) => p.log.warn({ err: String(err) }, 'event subscription owner check failed'),
        );
      }, c.eventOwnerCheckSeconds * 1000);
      ownerCheck.unref();
      return async (timeoutMs: number) => {
        clearInterval(ownerCheck);
        await feed.close();
        await loop.stop(timeoutMs);
        sender.close();
      };
    },
  });
}
export type EventsDomain = ReturnType<typeof eventsDomain>;
