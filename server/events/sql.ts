import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { affected, Params, preparedRows, Queryable, rows } from '../platform/db';
import { isoTime, type KeysetListStatement } from '../platform/pagination';
import { type Claimed, deliveryOf, type EventRows, type InFlight, type Outcome, type SubscriptionRow, subscriptionOf } from './rows';
import { ALL_TYPES, OWNER_ENDED, TEST_EVENT_TYPE, type Delivery, type DisabledReason, type Subscription } from './types';

export { type Claimed, deliveryOf, type EventRows, type InFlight, type Outcome, subscriptionOf } from './rows';

// The events domain's data module: every statement on its tables (the outbox, subscriptions, deliveries). Fan-out
// reads the subscription's key (record scope) from identity's api_keys in the same statement, and the owner check
// reads the store's owner and staff; it writes nothing outside.

/** Notified (by trigger, migration EventOutboxNotify) when a statement wrote events. */
export const OUTBOX_CHANNEL = 'event_outbox';

export function recordEvents(e: EventRows): string {
  return `INSERT INTO event_outbox (store_id, type, resource_key, record_key_id, snapshot)
          SELECT ${e.storeId}, ${e.type}, ${e.resourceKey}, ${e.recordKeyId}, ${e.snapshot} FROM ${e.from}${e.where ? ` WHERE ${e.where}` : ''}`;
}

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
 * records it made); each joins its chain (due now when the chain was empty). Answers how many events it took.
 */
export async function fanOut(db: DataSource, limit: number): Promise<number> {
  return underChainLock(db, async (tx) => {
    const [r] = await preparedRows<{ events: number }>(
      tx,
      `WITH ev AS (SELECT seq, store_id, type, resource_key, record_key_id, created_at FROM event_outbox WHERE NOT fanned_out ORDER BY seq LIMIT $1),
       pairs AS (SELECT ev.seq, s.id AS subscription_id, ev.resource_key, row_number() OVER (PARTITION BY s.id, ev.resource_key ORDER BY ev.seq) AS n FROM ev
                   JOIN event_subscriptions s ON s.store_id = ev.store_id AND s.enabled AND s.created_at <= ev.created_at AND (ev.type = ANY(s.event_types) OR '${ALL_TYPES}' = ANY(s.event_types))
                   LEFT JOIN api_keys k ON k.id = s.owner_key_id
                  WHERE s.owner_key_id IS NULL OR k.record_scope = 'account' OR ev.record_key_id = s.owner_key_id),
       made AS (INSERT INTO event_deliveries (event_seq, subscription_id, resource_key, next_attempt_at)
                SELECT p.seq, p.subscription_id, p.resource_key,
                       CASE WHEN p.n > 1 OR EXISTS (SELECT 1 FROM event_deliveries e WHERE e.subscription_id = p.subscription_id AND e.resource_key = p.resource_key AND e.status = 'pending')
                            THEN ${WAITING} ELSE now() END
                  FROM pairs p
                ON CONFLICT (event_seq, subscription_id) DO NOTHING RETURNING 1),
       done AS (UPDATE event_outbox o SET fanned_out = true FROM ev WHERE o.seq = ev.seq RETURNING 1)
       SELECT (SELECT count(*) FROM done)::int AS events, (SELECT count(*) FROM made)::int AS deliveries`,
      [limit],
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
export async function claim(db: Queryable, o: { limit: number; perSubscription: number; perStore: number; inFlight: InFlight; leaseMs: number }): Promise<Claimed[]> {
  const busy = (m: Map<string, number>, cap: number) => [...m].filter(([, n]) => n >= cap).map(([id]) => id);
  const { subscriptions: subs, stores } = o.inFlight;
  const found = await preparedRows<Record<string, any>>(
    db,
    `WITH cand AS (
       SELECT d.id, d.subscription_id, s.store_id, d.next_attempt_at FROM event_deliveries d JOIN event_subscriptions s ON s.id = d.subscription_id AND s.enabled
        WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND NOT (d.subscription_id = ANY($3::uuid[])) AND NOT (s.store_id = ANY($4::uuid[]))
        ORDER BY d.next_attempt_at LIMIT $1 * 4),
     by_sub AS (
       SELECT c.id, c.subscription_id, c.store_id, c.next_attempt_at, row_number() OVER (PARTITION BY c.subscription_id ORDER BY c.next_attempt_at) AS n FROM cand c),
     by_store AS (
       SELECT r.id, r.store_id, r.next_attempt_at, row_number() OVER (PARTITION BY r.store_id ORDER BY r.next_attempt_at) AS turn FROM by_sub r
         LEFT JOIN unnest($6::uuid[], $7::int[]) AS f(subscription_id, n) ON f.subscription_id = r.subscription_id
        WHERE r.n <= $2 - coalesce(f.n, 0)),
     picked AS (
       SELECT r.id FROM by_store r LEFT JOIN unnest($8::uuid[], $9::int[]) AS g(store_id, n) ON g.store_id = r.store_id
        WHERE r.turn <= $10 - coalesce(g.n, 0) ORDER BY r.turn, r.next_attempt_at LIMIT $1)
     UPDATE event_deliveries d SET leased_until = now() + make_interval(secs => $5), next_attempt_at = now() + make_interval(secs => $5), attempts = d.attempts + 1, last_attempt_at = now()
       FROM picked, event_outbox o, event_subscriptions s
      WHERE d.id = picked.id AND o.seq = d.event_seq AND s.id = d.subscription_id AND d.status = 'pending' AND d.next_attempt_at <= now()
     RETURNING d.id, d.attempts, d.pending_since, o.seq, o.id AS event_id, o.store_id, o.type, o.resource_key, o.record_key_id, o.snapshot, o.created_at,
               s.id AS subscription_id, s.url, s.secret_sealed, s.previous_secret_sealed, s.previous_secret_until, s.owner_account_id, s.owner_key_id`,
    [o.limit, o.perSubscription, busy(subs, o.perSubscription), busy(stores, o.perStore), o.leaseMs / 1000, [...subs.keys()], [...subs.values()], [...stores.keys()], [...stores.values()], o.perStore],
  );
  return found.map((r) => ({
    delivery: { id: r.id, attempts: r.attempts, pendingSince: r.pending_since },
    event: { seq: Number(r.seq), id: r.event_id, storeId: r.store_id, type: r.type, resourceKey: r.resource_key, recordKeyId: r.record_key_id, snapshot: r.snapshot, createdAt: r.created_at },
    subscription: {
      id: r.subscription_id, storeId: r.store_id, url: r.url, secretSealed: r.secret_sealed, previousSecretSealed: r.previous_secret_sealed,
      previousSecretUntil: r.previous_secret_until, ownerAccountId: r.owner_account_id, ownerKeyId: r.owner_key_id,
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
      `WITH d AS (UPDATE event_deliveries d SET status = x.status, leased_until = NULL, next_attempt_at = coalesce(x.next_at, d.next_attempt_at), response_status = x.code,
                    last_error = x.err, delivered_at = CASE WHEN x.status = 'delivered' THEN now() ELSE d.delivered_at END
               FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[], $5::text[]) AS x(id, status, next_at, code, err)
              WHERE d.id = x.id RETURNING d.id, d.subscription_id, d.resource_key, x.status),
       ended AS (SELECT DISTINCT subscription_id, resource_key FROM d WHERE status <> 'pending'),
       released AS (UPDATE event_deliveries n SET next_attempt_at = now() FROM ended c
                     WHERE n.id = (SELECT e.id FROM event_deliveries e WHERE e.subscription_id = c.subscription_id AND e.resource_key = c.resource_key AND e.status = 'pending'
                                      AND e.id NOT IN (SELECT id FROM d) ORDER BY e.event_seq LIMIT 1)
                       AND n.next_attempt_at = ${WAITING} RETURNING 1),
       ok AS (UPDATE event_subscriptions s SET last_success_at = now() FROM (SELECT DISTINCT subscription_id FROM d WHERE status = 'delivered') ok
               WHERE s.id = ok.subscription_id AND (s.last_success_at IS NULL OR s.last_success_at < now() - interval '5 seconds') RETURNING 1)
       SELECT (SELECT count(*) FROM released)::int AS released`,
      [outcomes.map((o) => o.id), outcomes.map((o) => o.status), outcomes.map((o) => o.nextAt), outcomes.map((o) => o.responseStatus), outcomes.map((o) => o.error)],
    ),
  );
}

/** Switches a subscription off with its reason; `unlessSuccessSince`: only if nothing was delivered since then. */
export async function switchOff(db: Queryable, id: string, reason: DisabledReason, unlessSuccessSince?: Date): Promise<boolean> {
  return (
    (await affected(
      db,
      `UPDATE event_subscriptions SET enabled = false, disabled_reason = $2, updated_at = now()
        WHERE id = $1 AND enabled AND ($3::timestamptz IS NULL OR last_success_at IS NULL OR last_success_at < $3)`,
      [id, JSON.stringify(reason), unlessSuccessSince ?? null],
    )) > 0
  );
}

/**
 * Switches off, with the reason, every subscription on whose owner's authority nothing may be sent any more: the
 * owner is neither the store's owner nor staff holding suppliers.view, or the key they acted with is revoked. One
 * statement for all stores; answers the subscriptions switched off.
 */
export async function switchOffOwnerless(db: Queryable): Promise<Array<{ id: string; code: 'keyRevoked' | 'ownerAccessEnded' }>> {
  return rows(
    db,
    `WITH ownerless AS (
       SELECT es.id, CASE WHEN es.owner_key_id IS NOT NULL AND (k.id IS NULL OR k.revoked_at IS NOT NULL) THEN 'keyRevoked' ELSE 'ownerAccessEnded' END AS code
         FROM event_subscriptions es
         JOIN stores s ON s.id = es.store_id
         LEFT JOIN store_staff st ON st.store_id = es.store_id AND st.account_id = es.owner_account_id
         LEFT JOIN api_keys k ON k.id = es.owner_key_id AND k.account_id = es.owner_account_id
        WHERE es.enabled
          AND ((es.owner_key_id IS NOT NULL AND (k.id IS NULL OR k.revoked_at IS NOT NULL))
               OR (s.owner_account_id <> es.owner_account_id AND NOT coalesce('suppliers.view' = ANY(st.permissions), false))))
     UPDATE event_subscriptions es
        SET enabled = false, updated_at = now(),
            disabled_reason = jsonb_build_object('code', o.code, 'message', CASE o.code WHEN 'keyRevoked' THEN $1::text ELSE $2::text END, 'at', ${isoTime('now()')})
       FROM ownerless o WHERE es.id = o.id
     RETURNING es.id, o.code`,
    [OWNER_ENDED.keyRevoked, OWNER_ENDED.ownerAccessEnded],
  );
}

// --- Subscriptions

/** A store's subscriptions are counted and added under this lock (with the store): the limit holds across processes. */
const SUBSCRIPTIONS_LOCK = 727274102;

/** The new subscription, or null when the store already has `limit`. */
export async function insertSubscription(
  db: DataSource,
  s: Pick<Subscription, 'id' | 'storeId' | 'url' | 'description' | 'eventTypes' | 'secretSealed' | 'ownerAccountId' | 'ownerKeyId'>,
  limit: number,
): Promise<Subscription | null> {
  return db.transaction(async (tx) => {
    await rows(tx, 'SELECT pg_advisory_xact_lock($1, hashtext($2))', [SUBSCRIPTIONS_LOCK, s.storeId]);
    const [r] = await rows<SubscriptionRow>(
      tx,
      `INSERT INTO event_subscriptions (id, store_id, url, description, event_types, secret_sealed, owner_account_id, owner_key_id)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE (SELECT count(*) FROM event_subscriptions WHERE store_id = $2) < $9 RETURNING *`,
      [s.id, s.storeId, s.url, s.description, s.eventTypes, s.secretSealed, s.ownerAccountId, s.ownerKeyId, limit],
    );
    return r ? subscriptionOf(r) : null;
  });
}

/** One subscription of a store; with `ownKeyId`, only one that key owns. */
export async function subscriptionInStore(db: Queryable, storeId: string, id: string, ownKeyId: string | null): Promise<Subscription | null> {
  const [r] = await rows<SubscriptionRow>(db, 'SELECT * FROM event_subscriptions WHERE id = $1 AND store_id = $2 AND ($3::uuid IS NULL OR owner_key_id = $3)', [id, storeId, ownKeyId]);
  return r ? subscriptionOf(r) : null;
}

export function subscriptionList(storeId: string, ownKeyId: string | null): KeysetListStatement {
  const filters = [{ column: 'store_id', value: storeId }, ...(ownKeyId ? [{ column: 'owner_key_id', value: ownKeyId }] : [])];
  return { list: 'eventSubscriptions', binding: { storeId, ownKeyId }, table: 'event_subscriptions', alias: 's', filters, columns: 's.*', counts: null };
}

/** Who a subscription acts for from now on (its new owner), set with a change of its address or secret. */
export interface Owner {
  accountId: string;
  keyId: string | null;
}

const ownerSet = (n: number) => `owner_account_id = coalesce($${n}, owner_account_id), owner_key_id = CASE WHEN $${n}::uuid IS NULL THEN owner_key_id ELSE $${n + 1}::uuid END`;

/** Changes the given fields (and the owner); switching on clears the reason and gives the waiting deliveries a fresh retry period. */
export async function updateSubscription(db: Queryable, id: string, c: { url?: string; description?: string | null; eventTypes?: string[]; enabled?: boolean }, owner: Owner | null): Promise<Subscription> {
  const [r] = await rows<SubscriptionRow>(
    db,
    `WITH s AS (UPDATE event_subscriptions SET url = coalesce($2, url), description = CASE WHEN $3 THEN $4 ELSE description END, event_types = coalesce($5, event_types),
                       enabled = coalesce($6, enabled), disabled_reason = CASE WHEN $6 IS NULL THEN disabled_reason WHEN $6 THEN NULL ELSE $7::jsonb END, ${ownerSet(8)}, updated_at = now()
                 WHERE id = $1 RETURNING *),
     fresh AS (UPDATE event_deliveries d SET pending_since = now() FROM s WHERE $6::boolean AND d.subscription_id = s.id AND d.status = 'pending')
     SELECT * FROM s`,
    [id, c.url ?? null, 'description' in c, c.description ?? null, c.eventTypes ?? null, c.enabled ?? null, JSON.stringify({ code: 'switchedOff', message: 'Switched off by a member of the store.', at: new Date().toISOString() }), owner?.accountId ?? null, owner?.keyId ?? null],
  );
  return subscriptionOf(r);
}

/** A new secret, and its new owner; the one it replaces keeps signing beside it until `previousUntil` (null: not at all). */
export async function rotateSecret(db: Queryable, id: string, secretSealed: string, previousUntil: Date | null, owner: Owner): Promise<Subscription> {
  const [r] = await rows<SubscriptionRow>(
    db,
    `UPDATE event_subscriptions SET previous_secret_sealed = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE secret_sealed END, previous_secret_until = $3,
            secret_sealed = $2, ${ownerSet(4)}, updated_at = now() WHERE id = $1 RETURNING *`,
    [id, secretSealed, previousUntil, owner.accountId, owner.keyId],
  );
  return subscriptionOf(r);
}

/** Signing secrets as sealed (the current one, or the previous one kept beside it), for the keyring's reseal. */
export type SecretColumn = 'secret_sealed' | 'previous_secret_sealed';
export const sealedSecrets = (db: Queryable, column: SecretColumn, limit?: number) =>
  rows<{ id: string; sealed: string }>(db, `SELECT id::text, ${column} AS sealed FROM event_subscriptions WHERE ${column} IS NOT NULL ORDER BY id LIMIT $1`, [limit ?? null]);
export const replaceSealedSecret = async (db: Queryable, column: SecretColumn, id: string, was: string, now: string) =>
  (await affected(db, `UPDATE event_subscriptions SET ${column} = $3 WHERE id = $1 AND ${column} = $2`, [id, was, now])) > 0;

export async function deleteSubscription(db: Queryable, id: string): Promise<void> {
  await affected(db, 'DELETE FROM event_subscriptions WHERE id = $1', [id]);
}

// --- Deliveries

const DELIVERY_COLUMNS = `d.*, o.id AS event_id, o.type AS event_type`;

export function deliveryList(subscriptionId: string, status: string | null): KeysetListStatement {
  const filters = [{ column: 'subscription_id', value: subscriptionId }, ...(status ? [{ column: 'status', value: status }] : [])];
  return {
    list: 'eventDeliveries', binding: { subscriptionId, status }, table: 'event_deliveries', alias: 'd', filters, counts: null,
    columns: `d.*, (SELECT o.id FROM event_outbox o WHERE o.seq = d.event_seq) AS event_id, (SELECT o.type FROM event_outbox o WHERE o.seq = d.event_seq) AS event_type`,
  };
}

export async function deliveryOfSubscription(db: Queryable, subscriptionId: string, id: string): Promise<Delivery | null> {
  const [r] = await rows(db, `SELECT ${DELIVERY_COLUMNS} FROM event_deliveries d JOIN event_outbox o ON o.seq = d.event_seq WHERE d.id = $1 AND d.subscription_id = $2`, [id, subscriptionId]);
  return r ? deliveryOf(r) : null;
}

/** Due again now, with a fresh retry period (one in flight keeps its lease); the delivery loops are woken. */
export async function redeliver(db: Queryable, id: string): Promise<void> {
  await rows(db, `WITH d AS (UPDATE event_deliveries SET status = 'pending', next_attempt_at = CASE WHEN leased_until > now() THEN next_attempt_at ELSE now() END, pending_since = now()
                   WHERE id = $1 RETURNING id)
                  SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM d`, [id]);
}

/** A test event for one subscription, and its delivery, in one statement; answers the delivery's id. */
export async function insertTestEvent(db: Queryable, s: Pick<Subscription, 'id' | 'storeId'>, snapshot: Record<string, unknown>): Promise<string> {
  const p = new Params();
  // Each test event is a resource of its own: test events need no order among themselves.
  const key = p.add(`subscription:${s.id}:${crypto.randomUUID()}`);
  const [r] = await rows<{ id: string }>(
    db,
    `WITH ev AS (INSERT INTO event_outbox (store_id, type, resource_key, snapshot, fanned_out) VALUES (${p.add(s.storeId)}, '${TEST_EVENT_TYPE}', ${key}, ${p.json(snapshot)}, true) RETURNING seq)
     INSERT INTO event_deliveries (event_seq, subscription_id, resource_key) SELECT seq, ${p.add(s.id)}, ${key} FROM ev RETURNING id`,
    p.values,
  );
  return r.id;
}

/** Events older than `days` with nothing left to deliver go, their deliveries with them; answers how many. */
export function purgeOld(db: Queryable, days: number): Promise<number> {
  return affected(
    db,
    `DELETE FROM event_outbox WHERE seq IN (SELECT o.seq FROM event_outbox o WHERE o.created_at < now() - make_interval(days => $1) AND o.fanned_out
        AND NOT EXISTS (SELECT 1 FROM event_deliveries d WHERE d.event_seq = o.seq AND d.status = 'pending') LIMIT 20000)`,
    [days],
  );
}
