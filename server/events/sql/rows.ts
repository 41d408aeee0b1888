/** The rows of the events tables as the domain reads and writes them: event steps, claims, outcomes, subscriptions, deliveries. */
import type { Delivery, DisabledReason, OutboxEvent, Subscription } from '../types';

/**
 * The events a change writes, as one step of the producing domain's own statement (so they commit with it): rows of
 * `from` (a table expression of that statement) that pass `where`, each given as SQL expressions over `from`.
 */
export interface EventRows {
  from: string;
  type: string;
  storeId: string;
  resourceKey: string;
  recordKeyId: string;
  snapshot: string;
  where?: string;
}

/** Which handler reacts to events of which type (a handler may take several types). */
export interface ReactionRoute {
  type: string;
  handler: string;
}

/** A claimed reaction with its event: what its handler is given. */
export interface ClaimedReaction {
  id: string;
  handler: string;
  attempts: number;
  pendingSince: Date;
  event: OutboxEvent;
}

/** A claimed delivery with its event and subscription: everything a send needs, from one statement. */
export interface Claimed {
  delivery: Pick<Delivery, 'id' | 'attempts' | 'pendingSince'>;
  event: OutboxEvent;
  subscription: Pick<
    Subscription,
    'id' | 'storeId' | 'url' | 'secretSealed' | 'previousSecretSealed' | 'previousSecretUntil' | 'ownerAccountId' | 'ownerKeyId'
  >;
}

/** Deliveries this process has in flight, by subscription and by store. */
export interface InFlight {
  subscriptions: Map<string, number>;
  stores: Map<string, number>;
}

/** What an attempt came to: delivered, due again at `nextAt`, or given up (failed). */
export interface Outcome {
  id: string;
  /** The delivery's store (its claim's). */
  storeId: string;
  status: 'delivered' | 'pending' | 'failed';
  nextAt: Date | null;
  responseStatus: number | null;
  error: string | null;
}

export interface SubscriptionRow {
  id: string;
  store_id: string;
  url: string;
  description: string | null;
  event_types: string[];
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  last_success_at: Date | null;
  owner_account_id: string;
  owner_key_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export const subscriptionOf = (r: SubscriptionRow): Subscription => ({
  id: r.id,
  storeId: r.store_id,
  url: r.url,
  description: r.description,
  eventTypes: r.event_types,
  secretSealed: r.secret_sealed,
  previousSecretSealed: r.previous_secret_sealed,
  previousSecretUntil: r.previous_secret_until,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  lastSuccessAt: r.last_success_at,
  ownerAccountId: r.owner_account_id,
  ownerKeyId: r.owner_key_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A delivery row with its event's id and type (the list and the single read join them). */
export interface DeliveryRow {
  id: string;
  event_seq: string | number;
  event_id: string;
  event_type: string;
  subscription_id: string;
  resource_key: string;
  status: Delivery['status'];
  attempts: number;
  next_attempt_at: Date;
  pending_since: Date;
  last_attempt_at: Date | null;
  response_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

/** An event as a claim answers it beside what it claimed (the columns both claims name the same way). */
export interface EventColumns {
  seq: string | number;
  event_id: string;
  store_id: string;
  type: string;
  resource_key: string;
  record_key_id: string | null;
  snapshot: OutboxEvent['snapshot'];
  created_at: Date;
}

export const outboxEventOf = (r: EventColumns): OutboxEvent => ({
  seq: Number(r.seq),
  id: r.event_id,
  storeId: r.store_id,
  type: r.type,
  resourceKey: r.resource_key,
  recordKeyId: r.record_key_id,
  snapshot: r.snapshot,
  createdAt: r.created_at,
});

/** A claimed delivery as the claim statement answers it: the delivery, its event and its subscription. */
export interface ClaimRow extends EventColumns {
  id: string;
  attempts: number;
  pending_since: Date;
  subscription_id: string;
  url: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
  owner_account_id: string;
  owner_key_id: string | null;
}

export const deliveryOf = (r: DeliveryRow): Delivery => ({
  id: r.id,
  eventSeq: Number(r.event_seq),
  eventId: r.event_id,
  eventType: r.event_type,
  subscriptionId: r.subscription_id,
  resourceKey: r.resource_key,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.status === 'pending' && Number.isFinite(new Date(r.next_attempt_at).getTime()) ? r.next_attempt_at : null,
  pendingSince: r.pending_since,
  lastAttemptAt: r.last_attempt_at,
  responseStatus: r.response_status,
  lastError: r.last_error,
  deliveredAt: r.delivered_at,
  createdAt: r.created_at,
});
