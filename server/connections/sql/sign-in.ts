import { affected, type Queryable, rows } from '../../platform/db';
import type { ConnectionMode } from '../../suppliers/adapter';

// Supplier sign-ins in progress (supplier_sign_in_states).

interface SignInState {
  store_id: string;
  account_id: string;
  api_key_id: string | null;
  supplier_key: string;
  mode: ConnectionMode;
  redirect_uri: string;
}
/** A sign-in as its callback finds it: the address's id, and the member and browser it was opened by (if it was). */
interface UsedSignIn extends SignInState {
  id: string;
  opened_by_account_id: string | null;
  browser_digest: string | null;
  /** HMACs of codes that came back in another browser: never exchanged. */
  refused_code_digests: string[];
}
/** A sign-in as its address finds it; `spent` once used or expired. */
interface SignInToOpen extends SignInState {
  nonce: string;
  expires_at: Date;
  spent: boolean;
  opened_by_account_id: string | null;
}

/** Answers the sign-in's id (its address at this service). */
export async function saveSignInState(db: Queryable, nonce: string, s: SignInState, expiresAt: Date): Promise<string> {
  const [row] = await rows<{ id: string }>(
    db,
    `INSERT INTO supplier_sign_in_states (nonce, store_id, account_id, api_key_id, supplier_key, mode, redirect_uri, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [nonce, s.store_id, s.account_id, s.api_key_id, s.supplier_key, s.mode, s.redirect_uri, expiresAt],
  );
  return row.id;
}

const FOUND = 'id, store_id, account_id, api_key_id, supplier_key, mode, redirect_uri, opened_by_account_id, browser_digest, refused_code_digests';

/** The store's state, while it is neither used nor expired; null otherwise. Nothing is used up. */
export async function findSignInState(db: Queryable, storeId: string, nonce: string): Promise<UsedSignIn | null> {
  const [st] = await rows<UsedSignIn>(
    db,
    `SELECT ${FOUND} FROM supplier_sign_in_states WHERE store_id = $1 AND nonce = $2 AND used_at IS NULL AND expires_at > now()`,
    [storeId, nonce],
  );
  return st ?? null;
}

/** Uses a found state once, only while the browser it was checked against still holds it; null when another got there first. */
export async function useSignInState(db: Queryable, storeId: string, id: string, browserDigest: string): Promise<UsedSignIn | null> {
  const [st] = await rows<UsedSignIn>(
    db,
    `UPDATE supplier_sign_in_states SET used_at = now() WHERE store_id = $1 AND id = $2 AND browser_digest = $3 AND used_at IS NULL AND expires_at > now() RETURNING ${FOUND}`,
    [storeId, id, browserDigest],
  );
  return st ?? null;
}

/** At most this many codes are refused for one state; the next one uses it up (so the list cannot be filled to make room for a code). */
const MAX_REFUSED_CODES = 20;

/** Records a code that came back in another browser; the twentieth such code uses the state up. */
export async function refuseSignInCode(db: Queryable, storeId: string, id: string, codeDigest: string): Promise<void> {
  await affected(
    db,
    `UPDATE supplier_sign_in_states SET refused_code_digests = refused_code_digests || $3::text,
            used_at = CASE WHEN cardinality(refused_code_digests) + 1 >= ${MAX_REFUSED_CODES} THEN now() ELSE used_at END
      WHERE store_id = $1 AND id = $2 AND used_at IS NULL`,
    [storeId, id, codeDigest],
  );
}

export async function signInToOpen(db: Queryable, storeId: string, id: string): Promise<SignInToOpen | null> {
  const [st] = await rows<SignInToOpen>(
    db,
    `SELECT nonce, store_id, account_id, api_key_id, supplier_key, mode, redirect_uri, expires_at, opened_by_account_id,
            (used_at IS NOT NULL OR expires_at <= now()) AS spent
       FROM supplier_sign_in_states WHERE store_id = $1 AND id = $2`,
    [storeId, id],
  );
  return st ?? null;
}

/** Binds a sign-in not yet used to the member who opens it and their browser's digest (again by the same member only). */
export async function bindSignInBrowser(db: Queryable, storeId: string, id: string, accountId: string, browserDigest: string): Promise<boolean> {
  const bound = await affected(
    db,
    `UPDATE supplier_sign_in_states SET opened_by_account_id = $3, browser_digest = $4
      WHERE store_id = $1 AND id = $2 AND used_at IS NULL AND expires_at > now() AND (opened_by_account_id IS NULL OR opened_by_account_id = $3)`,
    [storeId, id, accountId, browserDigest],
  );
  return bound > 0;
}
