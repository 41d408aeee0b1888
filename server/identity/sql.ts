import { affected, Queryable, rows } from '../platform/db';
import type { Plan } from './entities';

// The identity domain's SQL statements; its services call these and hold no SQL text of their own.

// --- Authentication and store access

/** The account's access to a store: null columns when the store does not exist. */
export interface AccessRow {
  owner_account_id: string | null;
  plan: string | null;
  permissions: string[] | null;
}

export interface KeyRow {
  id: string;
  account_id: string;
  record_scope: 'own' | 'account';
  name: string;
  key_last4: string;
  last_used_at: Date | null;
  created_at: Date;
  now: Date;
  stale: boolean;
  email: string;
  account_name: string;
  account_plan: Plan;
  is_developer: boolean;
  credits: number;
}

// The store access of the authenticated account on $STORE (null columns when it has none), joined onto the credential row.
const STORE_ACCESS = (credential: string, storeParam: string) => `
  LEFT JOIN stores s ON s.id = ${storeParam}::uuid
  LEFT JOIN accounts o ON o.id = s.owner_account_id
  LEFT JOIN store_staff st ON st.store_id = s.id AND st.account_id = ${credential}.account_id`;

/** The live key by digest, its account, whether its last-used stamp is stale, and the account's access to the store. */
export async function keyAccess(db: Queryable, digest: Buffer, lastUsedIntervalSeconds: number, storeId: string | null): Promise<(AccessRow & KeyRow) | null> {
  const [row] = await rows<AccessRow & KeyRow>(
    db,
    `SELECT k.id, k.account_id, k.record_scope, k.name, k.key_last4, k.last_used_at, k.created_at, now() AS now,
            (k.last_used_at IS NULL OR k.last_used_at < now() - make_interval(secs => $2)) AS stale,
            a.email, a.name AS account_name, a.plan AS account_plan, a.is_developer, a.credits,
            s.owner_account_id, o.plan, st.permissions
       FROM api_keys k JOIN accounts a ON a.id = k.account_id ${STORE_ACCESS('k', '$3')}
      WHERE k.key_digest = $1 AND k.revoked_at IS NULL`,
    [digest, lastUsedIntervalSeconds, storeId],
  );
  return row ?? null;
}

/** The live session by digest and the account's access to the store. */
export async function sessionAccess(db: Queryable, digest: Buffer, storeId: string | null): Promise<(AccessRow & { id: string; account_id: string }) | null> {
  const [row] = await rows<AccessRow & { id: string; account_id: string }>(
    db,
    `SELECT se.id, se.account_id, s.owner_account_id, o.plan, st.permissions
       FROM sessions se ${STORE_ACCESS('se', '$2')}
      WHERE se.token_digest = $1 AND se.ended_at IS NULL AND se.expires_at > now()`,
    [digest, storeId],
  );
  return row ?? null;
}

export async function storeAccess(db: Queryable, storeId: string, accountId: string): Promise<AccessRow | null> {
  const [row] = await rows<AccessRow>(
    db,
    `SELECT s.owner_account_id, o.plan, st.permissions
       FROM stores s
       JOIN accounts o ON o.id = s.owner_account_id
       LEFT JOIN store_staff st ON st.store_id = s.id AND st.account_id = $2
      WHERE s.id = $1`,
    [storeId, accountId],
  );
  return row ?? null;
}

// --- Sessions and keys

/** Answers how many sessions went. */
export function purgeExpiredSessions(db: Queryable): Promise<number> {
  return affected(db, `DELETE FROM sessions WHERE expires_at < now() - interval '1 day' OR ended_at < now() - interval '1 day'`);
}

export async function revokeKey(db: Queryable, id: string, accountId: string): Promise<void> {
  await affected(db, 'UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND account_id = $2', [id, accountId]);
}

/** Stamps the key's last use, unless another stamp within the interval is already there. */
export async function stampKeyUse(db: Queryable, id: string, at: Date, intervalSeconds: number): Promise<void> {
  await affected(db, `UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - make_interval(secs => $3))`, [id, at, intervalSeconds]);
}

// --- Credits

/** Takes the credits in one conditional update, with its ledger entry; null when the balance is too low. */
export async function takeCredits(db: Queryable, e: { accountId: string; apiKeyId: string | null; action: string; amount: number; requestId: string | null }): Promise<number | null> {
  const [row] = await rows<{ credits: number }>(
    db,
    `WITH charged AS (
       UPDATE accounts SET credits = credits - $2 WHERE id = $1 AND credits >= $2 RETURNING credits
     ), ledger AS (
       INSERT INTO credit_ledger (account_id, api_key_id, action, amount, balance_after, request_id)
       SELECT $1, $3, $4, -$2, credits, $5 FROM charged
     )
     SELECT credits FROM charged`,
    [e.accountId, e.amount, e.apiKeyId, e.action, e.requestId],
  );
  return row ? row.credits : null;
}

export async function creditBalance(db: Queryable, accountId: string): Promise<number | null> {
  const [row] = await rows<{ credits: number }>(db, 'SELECT credits FROM accounts WHERE id = $1', [accountId]);
  return row ? row.credits : null;
}

/** Adds credits, with their ledger entry (and the operator's reason for a grant). */
export async function addCredits(db: Queryable, e: { accountId: string; apiKeyId: string | null; action: string; amount: number; requestId: string | null; reason?: string | null }): Promise<void> {
  await rows(
    db,
    `WITH credited AS (UPDATE accounts SET credits = credits + $2 WHERE id = $1 RETURNING credits)
     INSERT INTO credit_ledger (account_id, api_key_id, action, amount, balance_after, request_id, reason)
     SELECT $1, $3, $4, $2, credits, $5, $6 FROM credited`,
    [e.accountId, e.amount, e.apiKeyId, e.action, e.requestId, e.reason ?? null],
  );
}

export function ledgerOf(db: Queryable, accountId: string, limit: number): Promise<Array<{ id: string; action: string; amount: number; balance_after: number; api_key_id: string | null; request_id: string | null; reason: string | null; created_at: Date }>> {
  return rows(db, `SELECT id, action, amount, balance_after, api_key_id, request_id, reason, created_at FROM credit_ledger WHERE account_id = $1 ORDER BY id DESC LIMIT $2`, [accountId, limit]);
}
