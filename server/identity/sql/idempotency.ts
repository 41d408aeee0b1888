import { affected, rows, type Queryable } from '../../platform/db';
import type { KeyClaim } from '../../platform/http/idempotency';

// The identity domain's statements on callers' idempotency keys (docs/decisions.md, "Idempotency keys (issue 56)").

export interface KeyRow {
  fingerprint: string;
  token: string;
  lapsed: boolean;
  made_ref: string | null;
  answer_status: number | null;
  answer_sealed: string | null;
}

/**
 * Takes the key for this request: a new key, or one whose request died before making anything (its lease lapsed, the
 * same request). Otherwise the row as it is, for the caller to replay or refuse. A concurrent claim of the same new key
 * waits on the primary key until the first commits, then sees it.
 */
export async function claimKey(db: Queryable, c: KeyClaim, leaseSeconds: number): Promise<{ taken: boolean; row: KeyRow | null }> {
  const [mine] = await rows(
    db,
    `INSERT INTO idempotency_keys (account_id, scope, key, fingerprint, token, lease_until) VALUES ($6, $1, $2, $3, $4, now() + make_interval(secs => $5))
     ON CONFLICT (account_id, scope, key) DO UPDATE SET token = EXCLUDED.token, lease_until = EXCLUDED.lease_until
       WHERE idempotency_keys.answer_status IS NULL AND idempotency_keys.made_ref IS NULL
         AND idempotency_keys.lease_until < now() AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
     RETURNING token`,
    [c.scope, c.key, c.fingerprint, c.token, leaseSeconds, c.accountId],
  );
  if (mine) return { taken: true, row: null };
  const [row] = await rows<KeyRow>(
    db,
    `SELECT fingerprint, token, lease_until < now() AS lapsed, made_ref, answer_status, answer_sealed FROM idempotency_keys WHERE account_id = $3 AND scope = $1 AND key = $2`,
    [c.scope, c.key, c.accountId],
  );
  return { taken: false, row: row ?? null };
}

export async function renewKey(db: Queryable, c: KeyClaim, leaseSeconds: number): Promise<void> {
  await affected(
    db,
    'UPDATE idempotency_keys SET lease_until = now() + make_interval(secs => $4) WHERE account_id = $5 AND scope = $1 AND key = $2 AND token = $3',
    [c.scope, c.key, c.token, leaseSeconds, c.accountId],
  );
}

/** In the create's transaction: false when the claim is no longer this request's (the create then rolls back). */
export async function markMade(tx: Queryable, c: KeyClaim, ref: string): Promise<boolean> {
  return (
    (await affected(
      tx,
      'UPDATE idempotency_keys SET made_ref = $4 WHERE account_id = $5 AND scope = $1 AND key = $2 AND token = $3 AND answer_status IS NULL',
      [c.scope, c.key, c.token, ref, c.accountId],
    )) > 0
  );
}

/** The answer, once: a second writer (a recovery racing the first request) leaves the first one's. */
export async function keepAnswer(db: Queryable, c: KeyClaim, status: number, sealed: string): Promise<void> {
  await affected(
    db,
    'UPDATE idempotency_keys SET answer_status = $3, answer_sealed = $4, lease_until = now() WHERE account_id = $5 AND scope = $1 AND key = $2 AND answer_status IS NULL',
    [c.scope, c.key, status, sealed, c.accountId],
  );
}

/** Gives the key back when nothing was made; when something was, lets a retry recover it at once. */
export async function releaseKey(db: Queryable, c: KeyClaim): Promise<void> {
  await affected(
    db,
    `WITH gone AS (DELETE FROM idempotency_keys WHERE account_id = $4 AND scope = $1 AND key = $2 AND token = $3 AND made_ref IS NULL AND answer_status IS NULL RETURNING 1)
     UPDATE idempotency_keys SET lease_until = now() WHERE account_id = $4 AND scope = $1 AND key = $2 AND token = $3 AND made_ref IS NOT NULL AND answer_status IS NULL`,
    [c.scope, c.key, c.token, c.accountId],
  );
}

/** Keys older than `hours` go (the hourly housekeeping); answers are kept at least that long. */
export async function sweepKeys(db: Queryable, hours: number): Promise<number> {
  return affected(
    db,
    'DELETE /* cross-store: idempotency-key-sweep */ FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) AND lease_until < now()',
    [hours],
  );
}

// Kept answers are sealed values like any other: a rotation of APP_SECRET seals them again (platform/sealed.ts). Their
// id joins account, scope and key with '/' (neither an account id nor a scope holds one; a key may).
export const sealedAnswers = (db: Queryable, limit?: number) =>
  rows<{ id: string; sealed: string }>(
    db,
    `SELECT /* cross-store: idempotency-answers-reseal */ account_id::text || '/' || scope || '/' || key AS id, answer_sealed AS sealed FROM idempotency_keys
     WHERE answer_sealed IS NOT NULL ORDER BY account_id, scope, key LIMIT $1`,
    [limit ?? null],
  );

export async function replaceSealedAnswer(db: Queryable, id: string, was: string, now: string): Promise<boolean> {
  const [accountId, scope] = id.split('/', 2);
  const key = id.slice(accountId.length + scope.length + 2);
  const sql = 'UPDATE idempotency_keys SET answer_sealed = $5 WHERE account_id = $1 AND scope = $2 AND key = $3 AND answer_sealed = $4';
  return (await affected(db, sql, [accountId, scope, key, was, now])) > 0;
}
