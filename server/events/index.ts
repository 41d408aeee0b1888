import { domainModule, type Platform } from '../platform/domain';
import { ListenFeed } from '../platform/listen';
import { purgeSpentRates } from '../platform/rate-limit';
import { EventOutbox1764547200000 } from '../migrations/1764547200000-EventOutbox';
import { EventSubscriptions1764547200001 } from '../migrations/1764547200001-EventSubscriptions';
import { EventDeliveries1764547200002 } from '../migrations/1764547200002-EventDeliveries';
import { EventOutboxNotify1764547200003 } from '../migrations/1764547200003-EventOutboxNotify';
import { EventTriggers1764547200004 } from '../migrations/1764547200004-EventTriggers';
import { EventSubscriptionOwner1764633600370 } from '../migrations/1764633600370-EventSubscriptionOwner';
import { RateLimits1764633600371 } from '../migrations/1764633600371-RateLimits';
import { EventReactions1764806400330 } from '../migrations/1764806400330-EventReactions';
import { EventsWrittenInCode1764806400332 } from '../migrations/1764806400332-EventsWrittenInCode';
import { DeliveryLoop, type OwnerAccess } from './delivery';
import { Reactions } from './reactions';
import { Renderers } from './render';
import { leaseMsOf } from './delivery-rules';
import { eventRoutes } from './routes';
import { Sender } from './sender';
import { OUTBOX_CHANNEL, purgeOld } from './sql/outbox';
import { SUBSCRIPTION_SECRETS, switchOffOwnerless } from './sql/subscriptions';
import { SubscriptionService } from './subscriptions';
import { EVENT_TYPES, INTERNAL_EVENT_TYPES } from './types';

// What the other domains use of the events domain: the step that writes their events into the outbox (inside their
// own statements), the renderers and reactions they register, and the words of events.
export { outboxStep } from './sql/outbox';
export type { EventRenderer } from './render';
export type { ReactionHandler } from './reactions';
export { type EventType, type InternalEventType, type OutboxEvent, snapshotOf } from './types';

/**
 * Closes the registries the domains built after this one filled: every kind a subscription may choose must have its
 * renderer, and every internal event type its reaction; throws, naming what is missing, otherwise.
 */
export function closeRegistries(renderers: Renderers, reactions: Reactions): void {
  renderers.close();
  reactions.close();
  const unrendered = [...new Set(Object.keys(EVENT_TYPES).map((t) => t.split('.')[0]))].filter((kind) => !renderers.kinds().includes(kind));
  const unheard = Object.keys(INTERNAL_EVENT_TYPES).filter((t) => !reactions.routes().some((r) => r.type === t));
  if (unrendered.length || unheard.length)
    throw new Error(`events: no renderer for ${unrendered.join(', ') || '-'}; no reaction to ${unheard.join(', ') || '-'}`);
}

/**
 * Events: the outbox every domain writes its events into with its changes, the store's subscriptions and (in a worker)
 * the delivery loop, which also runs the service's own reactions to events. Each domain whose events it carries
 * registers how their data is rendered (by resource kind), and each domain that reacts to events registers its
 * handlers (by event type), both when they are built: registries, since this domain is built (and imported) below
 * every domain whose events it carries (docs/architecture.md). Both close once the list is assembled, when every kind
 * a subscription may choose must have its renderer and every internal event type its reaction.
 */
export const eventsModule = domainModule({
  name: 'events',
  needs: ['identity'],
  provides: ['renderers', 'reactions'],
  migrations: [
    EventOutbox1764547200000,
    EventSubscriptions1764547200001,
    EventDeliveries1764547200002,
    EventOutboxNotify1764547200003,
    EventTriggers1764547200004,
    EventSubscriptionOwner1764633600370,
    RateLimits1764633600371,
    EventReactions1764806400330,
    EventsWrittenInCode1764806400332,
  ],
  sealed: SUBSCRIPTION_SECRETS,
  build(p: Platform, deps: { identity: { ownerAccess: OwnerAccess } }) {
    const c = p.config;
    const renderers = new Renderers();
    const reactions = new Reactions();
    const sends = {
      bucket: 'eventSends',
      limit: c.eventSendsPerMinute,
      windowSeconds: 60,
      per: 'store' as const,
      shared: ['testEventSubscription', 'redeliverEvent'],
    };
    const subscriptions = new SubscriptionService(p.db, p.secrets, p.cursors, c.eventTargetsAllowPrivate, renderers, deps.identity.ownerAccess, {
      perStore: c.eventSubscriptionsPerStore,
      sends,
    });
    return {
      subscriptions,
      renderers,
      reactions,
      routes: eventRoutes(subscriptions),
      assembled: () => closeRegistries(renderers, reactions),
      // The send budgets' spent rows (the platform's rate-limit table) go with the events: this domain is their one user.
      housekeeping: async () => ({ events: await purgeOld(p.db, c.eventRetentionDays), rateLimits: await purgeSpentRates(p.db) }),
      async work() {
        const sender = new Sender(c.eventDeliveryTimeoutMs, c.eventTargetsAllowPrivate);
        const giveUpMs = c.eventGiveUpSeconds * 1000;
        const loop = new DeliveryLoop(
          p.db,
          p.secrets,
          renderers,
          sender,
          deps.identity.ownerAccess,
          {
            concurrency: c.eventDeliveryConcurrency,
            perSubscription: c.eventSubscriptionConcurrency,
            perStore: Math.min(c.eventStoreConcurrency, c.eventDeliveryConcurrency),
            timeoutMs: c.eventDeliveryTimeoutMs,
            retryBaseMs: c.eventRetryBaseMs,
            retryMaxMs: c.eventRetryMaxMs,
            giveUpMs,
            bodyLimitBytes: c.eventBodyLimitBytes,
            pollMs: c.eventPollMs,
          },
          p.log,
          p.standbys,
          {
            registry: reactions,
            config: { concurrency: 4, leaseMs: leaseMsOf(c.eventDeliveryTimeoutMs), retryMaxMs: c.eventRetryMaxMs, giveUpMs },
            internalTypes: Object.keys(INTERNAL_EVENT_TYPES),
          },
        );
        // Woken when a statement wrote events (and by its own freed slots); polls for retries falling due.
        const feed = new ListenFeed(p.config.databaseSessionUrl || p.databaseUrl, [OUTBOX_CHANNEL], p.log);
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
    };
  },
});
