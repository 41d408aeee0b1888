import type { DataSource } from 'typeorm';
import { affected, type Queryable, rows } from '../../platform/db';
import { isoTime, type KeysetListStatement } from '../../platform/pagination';
import type { SealedValues } from '../../platform/sealed';
import { OWNER_ENDED, type DisabledReason, type Subscription } from '../types';
import { type SubscriptionRow, subscriptionOf } from './rows';

// A store's event subscriptions. The owner check reads the store's owner and staff (the stores domain's tables) and
// the owner's key (identity's api_keys) in its one statement; nothing outside event_subscriptions is written.

/** Switches a subscription off with its reason; `unlessSuccessSince`: only if nothing was delivered since then. */
export async function switchOff(db: Queryable, storeId: string, id: string, reason: DisabledReason, unlessSuccessSince?: Date): Promise<boolean> {
  return (
    (await affected(
      db,
      `UPDATE event_subscriptions SET enabled = false, disabled_reason = $2, updated_at = now()
        WHERE store_id = $4 AND id = $1 AND enabled AND ($3::timestamptz IS NULL OR last_success_at IS NULL OR last_success_at < $3)`,
      [id, JSON.stringify(reason), unlessSuccessSince ?? null, storeId],
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
    `WITH /* cross-store: subscription-owner-sweep */ ownerless AS (
       SELECT es.id, es.store_id, CASE WHEN es.owner_key_id IS NOT NULL AND (k.id IS NULL OR k.revoked_at IS NOT NULL) THEN 'keyRevoked' ELSE 'ownerAccessEnded' END AS code
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
       FROM ownerless o WHERE es.store_id = o.store_id AND es.id = o.id
     RETURNING es.id, o.code`,
    [OWNER_ENDED.keyRevoked, OWNER_ENDED.ownerAccessEnded],
  );
}

/** A store's subscriptions are counted and added under this lock (with the store): the limit holds across processes. */
const SUBSCRIPTIONS_LOCK = 727274102;

/** The new subscription, or null when the store already has `limit`. */
export async function insertSubscription(
  db: DataSource,
  s: Pick<Subscription, 'id' | 'storeId' | 'url' | 'description' | 'eventTypes' | 'secretSealed' | 'ownerAccountId' | 'ownerKeyId'>,
  limit: number,
  made?: (tx: Queryable, id: string) => Promise<void>,
): Promise<Subscription | null> {
  return db.transaction(async (tx) => {
    await rows(tx, 'SELECT pg_advisory_xact_lock($1, hashtext($2))', [SUBSCRIPTIONS_LOCK, s.storeId]);
    const [r] = await rows<SubscriptionRow>(
      tx,
      `INSERT INTO event_subscriptions (id, store_id, url, description, event_types, secret_sealed, owner_account_id, owner_key_id)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8 WHERE (SELECT count(*) FROM event_subscriptions WHERE store_id = $2) < $9 RETURNING *`,
      [s.id, s.storeId, s.url, s.description, s.eventTypes, s.secretSealed, s.ownerAccountId, s.ownerKeyId, limit],
    );
    if (r) await made?.(tx, r.id);
    return r ? subscriptionOf(r) : null;
  });
}

/** One subscription of a store; with `ownKeyId`, only one that key owns. Every write below names the subscription's store too. */
export async function subscriptionInStore(db: Queryable, storeId: string, id: string, ownKeyId: string | null): Promise<Subscription | null> {
  const [r] = await rows<SubscriptionRow>(db, 'SELECT * FROM event_subscriptions WHERE id = $1 AND store_id = $2 AND ($3::uuid IS NULL OR owner_key_id = $3)', [
    id,
    storeId,
    ownKeyId,
  ]);
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

const ownerSet = (n: number) =>
  `owner_account_id = coalesce($${n}, owner_account_id), owner_key_id = CASE WHEN $${n}::uuid IS NULL THEN owner_key_id ELSE $${n + 1}::uuid END`;

/** Changes the given fields (and the owner); switching on clears the reason and gives the waiting deliveries a fresh retry period. */
export async function updateSubscription(
  db: Queryable,
  storeId: string,
  id: string,
  c: { url?: string; description?: string | null; eventTypes?: string[]; enabled?: boolean },
  owner: Owner | null,
): Promise<Subscription> {
  const [r] = await rows<SubscriptionRow>(
    db,
    `WITH s AS (UPDATE event_subscriptions SET url = coalesce($2, url), description = CASE WHEN $3 THEN $4 ELSE description END, event_types = coalesce($5, event_types),
                       enabled = coalesce($6, enabled), disabled_reason = CASE WHEN $6 IS NULL THEN disabled_reason WHEN $6 THEN NULL ELSE $7::jsonb END, ${ownerSet(8)}, updated_at = now()
                 WHERE store_id = $10 AND id = $1 RETURNING *),
     fresh AS (UPDATE event_deliveries d SET pending_since = now() FROM s WHERE $6::boolean AND d.store_id = $10 AND d.subscription_id = s.id AND d.status = 'pending')
     SELECT * FROM s`,
    [
      id,
      c.url ?? null,
      'description' in c,
      c.description ?? null,
      c.eventTypes ?? null,
      c.enabled ?? null,
      JSON.stringify({ code: 'switchedOff', message: 'Switched off by a member of the store.', at: new Date().toISOString() }),
      owner?.accountId ?? null,
      owner?.keyId ?? null,
      storeId,
    ],
  );
  return subscriptionOf(r);
}

/** A new secret, and its new owner; the one it replaces keeps signing beside it until `previousUntil` (null: not at all). */
export async function rotateSecret(
  db: Queryable,
  storeId: string,
  id: string,
  secretSealed: string,
  previousUntil: Date | null,
  owner: Owner,
): Promise<Subscription> {
  const [r] = await rows<SubscriptionRow>(
    db,
    `UPDATE event_subscriptions SET previous_secret_sealed = CASE WHEN $3::timestamptz IS NULL THEN NULL ELSE secret_sealed END, previous_secret_until = $3,
            secret_sealed = $2, ${ownerSet(4)}, updated_at = now() WHERE store_id = $6 AND id = $1 RETURNING *`,
    [id, secretSealed, previousUntil, owner.accountId, owner.keyId, storeId],
  );
  return subscriptionOf(r);
}

/**
 * Each subscription's signing secret, and the previous one kept beside it after a rotation: the keyring's reseal reads
 * them across stores, each by `<store id>:<id>`, and replaces one in its own store.
 */
export const SUBSCRIPTION_SECRETS: SealedValues[] = (
  [
    ['subscriptionSecrets', 'secret_sealed'],
    ['subscriptionPreviousSecrets', 'previous_secret_sealed'],
  ] as const
).map(([name, column]) => ({
  name,
  list: (db, limit) =>
    rows<{ id: string; sealed: string }>(
      db,
      `SELECT /* cross-store: reseal-subscription-secrets */ store_id || ':' || id AS id, ${column} AS sealed FROM event_subscriptions WHERE ${column} IS NOT NULL ORDER BY id LIMIT $1`,
      [limit ?? null],
    ),
  replace: async (db, key, was, now) => {
    const [storeId, id] = key.split(':');
    return (
      (await affected(db, `UPDATE event_subscriptions SET ${column} = $3 WHERE store_id = $4 AND id = $1 AND ${column} = $2`, [id, was, now, storeId])) > 0
    );
  },
}));

export async function deleteSubscription(db: Queryable, storeId: string, id: string): Promise<void> {
  await affected(db, 'DELETE FROM event_subscriptions WHERE store_id = $2 AND id = $1', [id, storeId]);
}
