import type { DataSource } from 'typeorm';
import { preparedRows, type Queryable, rows } from '../../platform/db';
import type { KeysetListStatement } from '../../platform/pagination';
import { ALL_TYPES, type Delivery } from '../types';
import { type Claimed, type ClaimRow, deliveryOf, type DeliveryRow, type InFlight, type Outcome, outboxEventOf, type ReactionRoute } from './rows';
import { OUTBOX_CHANNEL } from './outbox';

// Deliveries to the subscriptions' addresses: fan-out (with the internal reactions), claims, outcomes, the list.
// Fan-out reads the subscription owner's key (identity's api_keys) for its record scope; it writes only this domain's tables.

/**
 * Deliveries of one subscription about one resource form a chain, sent one at a time in event order: only the chain's
 * head is due (`next_attempt_at` a time); the ones behind it wait at 'infinity' and the head's end releases the next.
 * So the claim reads due rows alone, never wading through waiting ones. Fan-out and completion take this lock, so a
 * delivery added behind a head that is ending at that moment is released by one or the other.
 */
const CHAIN_LOCK = 727274101;
const WAITING = `'infinity'::timestamptz`;

async function underChainLock<T>(db: DataSource, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await rows(tx, 'SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
    return work(tx);
  });
}

/**
 * Fan-out: the oldest events not yet fanned out, in order, become deliveries for each subscription of their store
 * that takes the type, existed when the event was written, and whose key may see the record (an `own` key: only
 * records it made); each joins its chain (due now when the chain was empty). `*` takes every type but the internal
 * ones. Each event of a type some handler of this process reacts to (`reactions`) becomes a reaction of that handler.
 * Answers how many events it took.
 */
export async function fanOut(db: DataSource, limit: number, reactions: ReactionRoute[], internal: string[]): Promise<number> {
  return underChainLock(db, async (tx) => {
    const [r] = await preparedRows<{ events: number }>(
      tx,
      `WITH /* cross-store: event-fan-out */ ev AS (SELECT seq, store_id, type, resource_key, record_key_id, created_at FROM event_outbox WHERE NOT fanned_out ORDER BY seq LIMIT $1),
       pairs AS (SELECT ev.seq, ev.store_id, s.id AS subscription_id, ev.resource_key, row_number() OVER (PARTITION BY s.id, ev.resource_key ORDER BY ev.seq) AS n FROM ev
                   JOIN event_subscriptions s ON s.store_id = ev.store_id AND s.enabled AND s.created_at <= ev.created_at AND (ev.type = ANY(s.event_types) OR ('${ALL_TYPES}' = ANY(s.event_types) AND NOT ev.type = ANY($4::text[])))
                   LEFT JOIN api_keys k ON k.id = s.owner_key_id
                  WHERE s.owner_key_id IS NULL OR k.record_scope = 'account' OR ev.record_key_id = s.owner_key_id),
       made AS (INSERT INTO event_deliveries (store_id, event_seq, subscription_id, resource_key, next_attempt_at)
                SELECT p.store_id, p.seq, p.subscription_id, p.resource_key,
                       CASE WHEN p.n > 1 OR EXISTS (SELECT 1 FROM event_deliveries e WHERE e.store_id = p.store_id AND e.subscription_id = p.subscription_id AND e.resource_key = p.resource_key AND e.status = 'pending')
                            THEN ${WAITING} ELSE now() END
                  FROM pairs p
                ON CONFLICT (store_id, event_seq, subscription_id) DO NOTHING RETURNING 1),
       reacting AS (INSERT INTO event_reactions (store_id, event_seq, handler, resource_key)
                    SELECT ev.store_id, ev.seq, h.handler, ev.resource_key FROM ev JOIN unnest($2::text[], $3::text[]) AS h(type, handler) ON h.type = ev.type
                    ON CONFLICT (store_id, event_seq, handler) DO NOTHING RETURNING 1),
       done AS (UPDATE event_outbox o SET fanned_out = true FROM ev WHERE o.store_id = ev.store_id AND o.seq = ev.seq RETURNING 1)
       SELECT (SELECT count(*) FROM done)::int AS events, (SELECT count(*) FROM made)::int AS deliveries, (SELECT count(*) FROM reacting)::int AS reactions`,
      [limit, reactions.map((r) => r.type), reactions.map((r) => r.handler), internal],
    );
    return r.events;
  });
}

/**
 * Claims due deliveries (chain heads) under a lease, which also moves them out of the due ones until it lapses: at
 * most `perSubscription` of a subscription and `perStore` of a store counting what this process has in flight (a slow
 * receiver holds only its own, a store's dead receivers only the store's share), `limit` in all. Stores take turns:
 * each store's oldest due first, then each one's next. Another process's claim of the same row fails its re-check.
 */
export async function claim(
  db: Queryable,
  o: { limit: number; perSubscription: number; perStore: number; inFlight: InFlight; leaseMs: number },
): Promise<Claimed[]> {
  const busy = (m: Map<string, number>, cap: number) => [...m].filter(([, n]) => n >= cap).map(([id]) => id);
  const { subscriptions: subs, stores } = o.inFlight;
  const found = await preparedRows<ClaimRow>(
    db,
    `WITH /* cross-store: event-delivery-claim */ cand AS (
       SELECT d.id, d.subscription_id, s.store_id, d.next_attempt_at FROM event_deliveries d JOIN event_subscriptions s ON s.store_id = d.store_id AND s.id = d.subscription_id AND s.enabled
        WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND NOT (d.subscription_id = ANY($3::uuid[])) AND NOT (s.store_id = ANY($4::uuid[]))
        ORDER BY d.next_attempt_at LIMIT $1 * 4),
     by_sub AS (
       SELECT c.id, c.subscription_id, c.store_id, c.next_attempt_at, row_number() OVER (PARTITION BY c.subscription_id ORDER BY c.next_attempt_at) AS n FROM cand c),
     by_store AS (
       SELECT r.id, r.store_id, r.next_attempt_at, row_number() OVER (PARTITION BY r.store_id ORDER BY r.next_attempt_at) AS turn FROM by_sub r
         LEFT JOIN unnest($6::uuid[], $7::int[]) AS f(subscription_id, n) ON f.subscription_id = r.subscription_id
        WHERE r.n <= $2 - coalesce(f.n, 0)),
     picked AS (
       SELECT r.id, r.store_id FROM by_store r LEFT JOIN unnest($8::uuid[], $9::int[]) AS g(store_id, n) ON g.store_id = r.store_id
        WHERE r.turn <= $10 - coalesce(g.n, 0) ORDER BY r.turn, r.next_attempt_at LIMIT $1)
     UPDATE event_deliveries d SET leased_until = now() + make_interval(secs => $5), next_attempt_at = now() + make_interval(secs => $5), attempts = d.attempts + 1, last_attempt_at = now()
       FROM picked, event_outbox o, event_subscriptions s
      WHERE d.store_id = picked.store_id AND d.id = picked.id AND o.store_id = d.store_id AND o.seq = d.event_seq AND s.store_id = d.store_id AND s.id = d.subscription_id AND d.status = 'pending' AND d.next_attempt_at <= now()
     RETURNING d.id, d.attempts, d.pending_since, o.seq, o.id AS event_id, o.store_id, o.type, o.resource_key, o.record_key_id, o.snapshot, o.created_at,
               s.id AS subscription_id, s.url, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_until, s.owner_account_id, s.owner_key_id`,
    [
      o.limit,
      o.perSubscription,
      busy(subs, o.perSubscription),
      busy(stores, o.perStore),
      o.leaseMs / 1000,
      [...subs.keys()],
      [...subs.values()],
      [...stores.keys()],
      [...stores.values()],
      o.perStore,
    ],
  );
  return found.map((r) => ({
    delivery: { id: r.id, attempts: r.attempts, pendingSince: r.pending_since },
    event: outboxEventOf(r),
    subscription: {
      id: r.subscription_id,
      storeId: r.store_id,
      url: r.url,
      secretSealed: r.secret_sealed,
      previousSecretSealed: r.previous_secret_sealed,
      previousSecretUntil: r.previous_secret_until,
      ownerAccountId: r.owner_account_id,
      ownerKeyId: r.owner_key_id,
    },
  }));
}

/**
 * Writes a batch of outcomes (lease released), releases the next delivery of each chain whose head ended, and stamps
 * the subscriptions that received.
 */
export async function complete(db: DataSource, outcomes: Outcome[]): Promise<void> {
  if (!outcomes.length) return;
  await underChainLock(db, (tx) =>
    preparedRows(
      tx,
      `WITH /* cross-store: event-delivery-outcomes */ d AS (UPDATE event_deliveries d SET status = x.status, leased_until = NULL, next_attempt_at = coalesce(x.next_at, d.next_attempt_at), response_status = x.code,
                    last_error = x.err, delivered_at = CASE WHEN x.status = 'delivered' THEN now() ELSE d.delivered_at END
               FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[], $5::text[], $6::uuid[]) AS x(id, status, next_at, code, err, store_id)
              WHERE d.store_id = x.store_id AND d.id = x.id RETURNING d.id, d.store_id, d.subscription_id, d.resource_key, x.status),
       ended AS (SELECT DISTINCT store_id, subscription_id, resource_key FROM d WHERE status <> 'pending'),
       released AS (UPDATE event_deliveries n SET next_attempt_at = now() FROM ended c
                     WHERE n.store_id = c.store_id AND n.id = (SELECT e.id FROM event_deliveries e WHERE e.store_id = c.store_id AND e.subscription_id = c.subscription_id AND e.resource_key = c.resource_key AND e.status = 'pending'
                                      AND e.id NOT IN (SELECT id FROM d) ORDER BY e.event_seq LIMIT 1)
                       AND n.next_attempt_at = ${WAITING} RETURNING 1),
       ok AS (UPDATE event_subscriptions s SET last_success_at = now() FROM (SELECT DISTINCT store_id, subscription_id FROM d WHERE status = 'delivered') ok
               WHERE s.store_id = ok.store_id AND s.id = ok.subscription_id AND (s.last_success_at IS NULL OR s.last_success_at < now() - interval '5 seconds') RETURNING 1)
       SELECT (SELECT count(*) FROM released)::int AS released`,
      [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.nextAt),
        outcomes.map((o) => o.responseStatus),
        outcomes.map((o) => o.error),
        outcomes.map((o) => o.storeId),
      ],
    ),
  );
}

const DELIVERY_COLUMNS = `d.*, o.id AS event_id, o.type AS event_type`;

export function deliveryList(storeId: string, subscriptionId: string, status: string | null): KeysetListStatement {
  const filters = [
    { column: 'store_id', value: storeId },
    { column: 'subscription_id', value: subscriptionId },
    ...(status ? [{ column: 'status', value: status }] : []),
  ];
  const ofEvent = (column: string) => `(SELECT o.${column} FROM event_outbox o WHERE o.store_id = d.store_id AND o.seq = d.event_seq)`;
  return {
    list: 'eventDeliveries',
    binding: { subscriptionId, status },
    table: 'event_deliveries',
    alias: 'd',
    filters,
    counts: null,
    columns: `d.*, ${ofEvent('id')} AS event_id, ${ofEvent('type')} AS event_type`,
  };
}

export async function deliveryOfSubscription(db: Queryable, storeId: string, subscriptionId: string, id: string): Promise<Delivery | null> {
  const [r] = await rows<DeliveryRow>(
    db,
    `SELECT ${DELIVERY_COLUMNS} FROM event_deliveries d JOIN event_outbox o ON o.store_id = $3 AND o.seq = d.event_seq WHERE d.store_id = $3 AND d.id = $1 AND d.subscription_id = $2`,
    [id, subscriptionId, storeId],
  );
  return r ? deliveryOf(r) : null;
}

/** Due again now, with a fresh retry period (one in flight keeps its lease); the delivery loops are woken. */
export async function redeliver(db: Queryable, storeId: string, id: string): Promise<void> {
  await rows(
    db,
    `WITH d AS (UPDATE event_deliveries SET status = 'pending', next_attempt_at = CASE WHEN leased_until > now() THEN next_attempt_at ELSE now() END, pending_since = now()
                   WHERE store_id = $2 AND id = $1 RETURNING id)
                  SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM d`,
    [id, storeId],
  );
}
