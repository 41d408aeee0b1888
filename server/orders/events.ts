import type { EntityManager } from 'typeorm';
import type { QueueSpec } from '../platform/jobs';

/** Store order changes other domains act on, published in the transaction that made them (an outbox on the job queue). */
export const STORE_ORDER_EVENTS_QUEUE = 'events.store-order';

export interface StoreOrderEvent {
  orderId: string;
  /** confirmed: by a staff member or by an online payment; authorised: the shopper's payment was authorised. */
  kind: 'confirmed' | 'authorised';
  actor: { kind: 'key' | 'user' | 'system'; id: string | null };
}

// Heartbeats: an event whose worker died is retried within seconds, not after the default expiry.
export const ORDER_QUEUES: QueueSpec[] = [{ name: STORE_ORDER_EVENTS_QUEUE, policy: 'standard', retryLimit: 20, retryDelay: 2, retryBackoff: true, heartbeatSeconds: 10, notify: true }];

/** Publishes an event inside the caller's transaction: it exists exactly when the change it reports committed. */
export type PublishStoreOrderEvent = (tx: EntityManager, event: StoreOrderEvent) => Promise<void>;
