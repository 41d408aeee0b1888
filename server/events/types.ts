// The events domain's words: the event types a subscription may choose, and the records it keeps.

export { EVENT_TYPES, type EventType } from '../platform/vocabulary/event-types';

/**
 * Events the service records only for its own reactions (./reactions.ts): never offered to subscriptions (not in the
 * route's enum, and `*` does not take them), since their resource is already reported by the types above.
 */
export const INTERNAL_EVENT_TYPES = {
  'storeOrder.confirmed': 'A store order was confirmed, by a staff member or by a payment that confirms it.',
  'storeOrder.authorised': "The shopper's payment of a store order was authorised.",
  'storeOrder.captureFailed': 'The payment provider failed the authorised payment of a promise-to-sell store order.',
} as const;
export type InternalEventType = keyof typeof INTERNAL_EVENT_TYPES;

/** Sent only by the test route, to the one subscription it names; never chosen in eventTypes. */
export const TEST_EVENT_TYPE = 'subscription.test';

/** Chosen instead of a list: every event type, including types added later. */
export const ALL_TYPES = '*';

/** An event as the outbox keeps it: the owning domain renders `data` from `snapshot` (see ./render.ts). */
export interface OutboxEvent {
  seq: number;
  id: string;
  storeId: string;
  type: string;
  resourceKey: string;
  /** The key that made the record the event is about (an own key's subscription receives only those). */
  recordKeyId: string | null;
  snapshot: Record<string, unknown>;
  createdAt: Date;
}

/**
 * An event's snapshot as the domain that wrote it shaped it. The outbox keeps it as JSON for every domain alike, so
 * only that domain knows its type: it names the type it wrote (its renderer and its reactions read it back).
 */
export const snapshotOf = <T>(e: OutboxEvent): T => e.snapshot as unknown as T;

export const DISABLED_CODES = ['deliveriesFailing', 'ownerAccessEnded', 'keyRevoked', 'switchedOff'] as const;
type DisabledCode = (typeof DISABLED_CODES)[number];

/** What a subscription shows when its owner can no longer act for it. */
export const OWNER_ENDED = {
  keyRevoked: "The API key of the subscription's owner was revoked.",
  ownerAccessEnded: "The subscription's owner may no longer read this store's supplier data.",
} as const;

export interface DisabledReason {
  code: DisabledCode;
  message: string;
  at: string;
}

export interface Subscription {
  id: string;
  storeId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  /** Sealed (platform/crypto); the current secret, and the one it replaced while both sign. */
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretUntil: Date | null;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  lastSuccessAt: Date | null;
  /** Whose authority it acts on: its creator, or whoever last changed its address or rotated its secret. */
  ownerAccountId: string;
  ownerKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: string;
  eventSeq: number;
  eventId: string;
  eventType: string;
  subscriptionId: string;
  resourceKey: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  pendingSince: Date;
  lastAttemptAt: Date | null;
  responseStatus: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}
