import type { EntityManager } from 'typeorm';
import type { Actor } from '../identity/permissions';

/** A store order change other domains act on, published in the transaction that made it (an outbox on the job queue, ./queues). */
export interface StoreOrderEvent {
  orderId: string;
  /**
   * confirmed: by a staff member or by an online payment; authorised: the shopper's payment was authorised;
   * captureFailed: the provider failed the authorised payment of a promise-to-sell order (a capture it refused).
   */
  kind: 'confirmed' | 'authorised' | 'captureFailed';
  actor: Actor;
}

/** Publishes an event inside the caller's transaction: it exists exactly when the change it reports committed. */
export type PublishStoreOrderEvent = (tx: EntityManager, event: StoreOrderEvent) => Promise<void>;
