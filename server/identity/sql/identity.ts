import { affected, preparedRows, Queryable, rows } from '../../platform/db';
import type { Account, ApiKey, Plan, RecordScope } from '../types';

// The identity domain's SQL statements; its services call these and hold no SQL text of their own. Store access reads
// the store's owner and staff (the stores domain's rows, built after identity: docs/architecture.md says why) in its
// one statement; none is written.

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

// Every request authenticates with one of these two: prepared, so Postgres plans each once per connection.
const KEY_ACCESS = `SELECT k.id, k.account_id, k.record_scope, k.name, k.key_last4, k.last_used_at, k.created_at, now() AS now,
            (k.last_used_at IS NULL OR k.last_used_at < now() - make_interval(secs => $2)) AS stale,
            a.email, a.name AS account_name, a.plan AS account_plan, a.is_developer, a.credits,
            s.owner_account_id, o.plan, st.permissions
       FROM api_keys k JOIN accounts a ON a.id = k.account_id ${STORE_ACCESS('k', '$3')}
      WHERE k.key_digest = $1 AND k.revoked_at IS NULL`;
const SESSION_ACCESS = `SELECT se.id, se.account_id, s.owner_account_id, o.plan, st.permissions
       FROM sessions se ${STORE_ACCESS('se', '$2')}
      WHERE se.token_digest = $1 AND se.ended_at IS NULL AND se.expires_at > now()`;

/** The live key by digest, its account, whether its last-used stamp is stale, and the account's access to the store. */
export async function keyAccess(db: Queryable, digest: Buffer, lastUsedIntervalSeconds: number, storeId: string | null): Promise<(AccessRow & KeyRow) | null> {
  const [row] = await preparedRows<AccessRow & KeyRow>(db, KEY_ACCESS, [digest, lastUsedIntervalSeconds, storeId]);
  return row ?? null;
}

/** The live session by digest and the account's access to the store. */
export async function sessionAccess(db: Queryable, digest: Buffer, storeId: string | null): Promise<(AccessRow & { id: string; account_id: string }) | null> {
  const [row] = await preparedRows<AccessRow & { id: string; account_id: string }>(db, SESSION_ACCESS, [digest, storeId]);
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
  await affected(
    db,
    `UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - make_interval(secs => $3))`,
    [id, at, intervalSeconds],
  );
}

// --- Accounts and sessions

interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  name: string;
  plan: Plan;
  is_developer: boolean;
  credits: number;
  created_at: Date;
}
const accountOf = (r: AccountRow): Account => ({
  id: r.id,
  email: r.email,
  passwordHash: r.password_hash,
  name: r.name,
  plan: r.plan,
  isDeveloper: r.is_developer,
  credits: r.credits,
  createdAt: r.created_at,
});

/** A second account with the same e-mail (in any case) raises the unique violation (23505). */
export async function insertAccount(db: Queryable, a: Pick<Account, 'id' | 'email' | 'passwordHash' | 'name'>): Promise<void> {
  await affected(db, `INSERT INTO accounts (id, email, password_hash, name, plan, is_developer, credits) VALUES ($1, $2, $3, $4, 'free', false, 0)`, [
    a.id,
    a.email,
    a.passwordHash,
    a.name,
  ]);
}

export async function accountById(db: Queryable, id: string): Promise<Account | null> {
  const [r] = await rows<AccountRow>(db, 'SELECT * FROM accounts WHERE id = $1', [id]);
  return r ? accountOf(r) : null;
}

/** By e-mail, whatever its case. */
export async function accountByEmail(db: Queryable, email: string): Promise<Account | null> {
  const [r] = await rows<AccountRow>(db, 'SELECT * FROM accounts WHERE lower(email) = lower($1)', [email]);
  return r ? accountOf(r) : null;
}

export async function setDeveloper(db: Queryable, id: string): Promise<void> {
  await affected(db, 'UPDATE accounts SET is_developer = true WHERE id = $1', [id]);
}

export async function setPlan(db: Queryable, id: string, plan: Plan): Promise<void> {
  await affected(db, 'UPDATE accounts SET plan = $2 WHERE id = $1', [id, plan]);
}

export async function insertSession(db: Queryable, s: { id: string; accountId: string; tokenDigest: Buffer; expiresAt: Date }): Promise<void> {
  await affected(db, 'INSERT INTO sessions (id, account_id, token_digest, expires_at) VALUES ($1, $2, $3, $4)', [
    s.id,
    s.accountId,
    s.tokenDigest,
    s.expiresAt,
  ]);
}

export async function endSession(db: Queryable, id: string): Promise<void> {
  await affected(db, 'UPDATE sessions SET ended_at = now() WHERE id = $1', [id]);
}

// --- API keys

interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string;
  record_scope: RecordScope;
  key_digest: Buffer;
  key_sealed: string;
  key_last4: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}
const apiKeyOf = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  recordScope: r.record_scope,
  keyDigest: r.key_digest,
  keySealed: r.key_sealed,
  keyLast4: r.key_last4,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
  createdAt: r.created_at,
});

export async function insertApiKey(db: Queryable, k: Omit<ApiKey, 'lastUsedAt' | 'revokedAt' | 'createdAt'>): Promise<ApiKey> {
  const [r] = await rows<ApiKeyRow>(
    db,
    `INSERT INTO api_keys (id, account_id, name, record_scope, key_digest, key_sealed, key_last4) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [k.id, k.accountId, k.name, k.recordScope, k.keyDigest, k.keySealed, k.keyLast4],
  );
  return apiKeyOf(r);
}

/** The account's keys, newest first. */
export async function keysOfAccount(db: Queryable, accountId: string): Promise<ApiKey[]> {
  return (await rows<ApiKeyRow>(db, 'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at DESC, id DESC', [accountId])).map(apiKeyOf);
}

export async function keyOfAccount(db: Queryable, accountId: string, id: string): Promise<ApiKey | null> {
  const [r] = await rows<ApiKeyRow>(db, 'SELECT * FROM api_keys WHERE id = $1 AND account_id = $2', [id, accountId]);
  return r ? apiKeyOf(r) : null;
}

/** Renames the key or changes its scope (a field left out stays). */
export async function updateApiKey(db: Queryable, accountId: string, id: string, c: { name?: string; recordScope?: RecordScope }): Promise<void> {
  await affected(db, 'UPDATE api_keys SET name = coalesce($3, name), record_scope = coalesce($4, record_scope) WHERE id = $1 AND account_id = $2', [
    id,
    accountId,
    c.name ?? null,
    c.recordScope ?? null,
  ]);
}

/** API keys as sealed for copying, for the keyring's reseal; a value is replaced only while unchanged. */
export const sealedKeys = (db: Queryable, limit?: number) =>
  rows<{ id: string; sealed: string }>(db, 'SELECT id::text, key_sealed AS sealed FROM api_keys ORDER BY id LIMIT $1', [limit ?? null]);
export const replaceSealedKey = async (db: Queryable, id: string, was: string, now: string) =>
  (await affected(db, 'UPDATE api_keys SET key_sealed = $3 WHERE id = $1 AND key_sealed = $2', [id, was, now])) > 0;
