import { affected, Queryable, rows } from '../platform/db';
import type { ConnectionMode } from '../suppliers/adapter';
import type { Health } from './entities';

// The connections domain's SQL statements; its services call these and hold no SQL text of their own.

// --- Circuit breaker (kept in the connection row, so every process sees the same state)

/** The one caller that moves an expired open circuit's time on gets the trial call. */
export async function claimTrialCall(db: Queryable, connectionId: string, cooldownSeconds: number): Promise<boolean> {
  const claimed = await affected(
    db,
    `UPDATE supplier_connections SET circuit_open_until = now() + make_interval(secs => $2)
      WHERE id = $1 AND circuit_open_until IS NOT NULL AND circuit_open_until <= now()`,
    [connectionId, cooldownSeconds],
  );
  return claimed > 0;
}

export async function closeCircuit(db: Queryable, connectionId: string): Promise<void> {
  await affected(
    db,
    `UPDATE supplier_connections SET consecutive_failures = 0, circuit_open_until = NULL
      WHERE id = $1 AND (consecutive_failures <> 0 OR circuit_open_until IS NOT NULL)`,
    [connectionId],
  );
}

export async function countFailure(db: Queryable, connectionId: string, failureThreshold: number, cooldownSeconds: number): Promise<void> {
  await affected(
    db,
    `UPDATE supplier_connections
        SET consecutive_failures = consecutive_failures + 1,
            circuit_open_until = CASE WHEN consecutive_failures + 1 >= $2 THEN now() + make_interval(secs => $3) ELSE circuit_open_until END
      WHERE id = $1`,
    [connectionId, failureThreshold, cooldownSeconds],
  );
}

// --- Call rates

/** Takes the next free call slot of the key; answers when that slot is (epoch milliseconds). */
export async function takeCallSlot(db: Queryable, key: string, spacingMs: number): Promise<number> {
  const [row] = await rows<{ slot_ms: string | number }>(
    db,
    `INSERT INTO supplier_call_rates AS r (rate_key, next_at) VALUES ($1, clock_timestamp() + make_interval(secs => $2 / 1000.0))
     ON CONFLICT (rate_key) DO UPDATE SET next_at = greatest(r.next_at, clock_timestamp()) + make_interval(secs => $2 / 1000.0)
     RETURNING extract(epoch FROM next_at) * 1000 - $2 AS slot_ms`,
    [key, spacingMs],
  );
  return Number(row?.slot_ms ?? 0);
}

// --- Credentials and disconnects

/** Stores the sealed credentials only while the row still holds `expected`; true when written. */
export async function replaceCredentials(db: Queryable, connectionId: string, expected: string, sealed: string): Promise<boolean> {
  return (await affected(db, 'UPDATE supplier_connections SET credentials_sealed = $3 WHERE id = $1 AND credentials_sealed = $2 AND disconnected_at IS NULL', [connectionId, expected, sealed])) > 0;
}

/** True when this call disconnected it (it was live). */
export async function disconnect(tx: Queryable, connectionId: string): Promise<boolean> {
  return (await affected(tx, 'UPDATE supplier_connections SET credentials_sealed = NULL, enabled = false, disconnected_at = now(), updated_at = now() WHERE id = $1 AND disconnected_at IS NULL', [connectionId])) > 0;
}

/** Answers how many links went; their variants go with them (ON DELETE CASCADE). */
export function deleteLinksOfConnection(tx: Queryable, connectionId: string): Promise<number> {
  return affected(tx, 'DELETE FROM product_links WHERE connection_id = $1', [connectionId]);
}

// --- What a connection's state says of its supplier

export async function recordHealth(db: Queryable, connectionId: string, health: Health): Promise<void> {
  await affected(db, 'UPDATE supplier_connections SET health = $2, updated_at = now() WHERE id = $1', [connectionId, JSON.stringify(health)]);
}

/** The supplier will not take orders from the account: the connection is switched off, and its health says why. */
export async function switchOffForSupplier(db: Queryable, connectionId: string, health: Health): Promise<void> {
  await affected(db, 'UPDATE supplier_connections SET enabled = false, health = $2, updated_at = now() WHERE id = $1 AND disconnected_at IS NULL', [connectionId, JSON.stringify(health)]);
}

// --- Sign-ins renewed on schedule

/** A live connection as the renewal needs it. */
export interface RenewableConnection {
  id: string;
  supplierKey: string;
  mode: ConnectionMode;
  settings: Record<string, unknown>;
  credentialsSealed: string;
}

export async function liveConnectionsOf(db: Queryable, supplierKeys: string[]): Promise<RenewableConnection[]> {
  return rows<RenewableConnection>(
    db,
    `SELECT id, supplier_key AS "supplierKey", mode, settings, credentials_sealed AS "credentialsSealed" FROM supplier_connections
      WHERE supplier_key = ANY($1) AND disconnected_at IS NULL AND credentials_sealed IS NOT NULL ORDER BY id`,
    [supplierKeys],
  );
}

/** Sealed credentials and health in one write, only while the row still holds `expected` (a new sign-in wins). */
export async function replaceCredentialsWithHealth(db: Queryable, connectionId: string, expected: string, sealed: string, health: Health): Promise<boolean> {
  const n = await affected(
    db,
    'UPDATE supplier_connections SET credentials_sealed = $3, health = $4, updated_at = now() WHERE id = $1 AND credentials_sealed = $2 AND disconnected_at IS NULL',
    [connectionId, expected, sealed, JSON.stringify(health)],
  );
  return n > 0;
}

// --- Supplier order ids under our numbers (for suppliers that cannot look an order up by our number)

export async function rememberOrderNumber(db: Queryable, connectionId: string, orderNumber: string, supplierOrderId: string): Promise<void> {
  await affected(
    db,
    `INSERT INTO supplier_order_numbers (connection_id, order_number, supplier_order_id) VALUES ($1, $2, $3)
     ON CONFLICT (connection_id, order_number) DO UPDATE SET supplier_order_id = EXCLUDED.supplier_order_id`,
    [connectionId, orderNumber, supplierOrderId],
  );
}

export async function recallOrderNumber(db: Queryable, connectionId: string, orderNumber: string): Promise<string | null> {
  const [row] = await rows<{ supplier_order_id: string }>(db, 'SELECT supplier_order_id FROM supplier_order_numbers WHERE connection_id = $1 AND order_number = $2', [connectionId, orderNumber]);
  return row?.supplier_order_id ?? null;
}

// --- Shared supplier accounts

/** The other live connections on the supplier account. */
export async function otherLiveConnections(db: Queryable, accountKey: string, except: string): Promise<string[]> {
  const found = await rows<{ id: string }>(db, 'SELECT id FROM supplier_connections WHERE supplier_account_key = $1 AND disconnected_at IS NULL AND id <> $2', [accountKey, except]);
  return found.map((r) => r.id);
}

/** Which of these account keys have more than one live connection. */
export async function sharedAccountKeys(db: Queryable, keys: string[]): Promise<string[]> {
  const found = await rows<{ key: string }>(db, 'SELECT supplier_account_key AS key FROM supplier_connections WHERE supplier_account_key = ANY($1) AND disconnected_at IS NULL GROUP BY 1 HAVING count(*) > 1', [keys]);
  return found.map((r) => r.key);
}

/** The newest other connection on the account that can take calls, if any. */
export async function successorOnAccount(db: Queryable, accountKey: string, leaving: string): Promise<string | null> {
  const [next] = await rows<{ id: string }>(
    db,
    `SELECT id FROM supplier_connections WHERE supplier_account_key = $1 AND disconnected_at IS NULL AND enabled AND credentials_sealed IS NOT NULL AND id <> $2
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [accountKey, leaving],
  );
  return next ? next.id : null;
}

// --- Supplier sign-in

export interface SignInState {
  store_id: string;
  account_id: string;
  api_key_id: string | null;
  supplier_key: string;
  mode: ConnectionMode;
  redirect_uri: string;
}

export async function saveSignInState(db: Queryable, nonce: string, s: SignInState, expiresAt: Date): Promise<void> {
  await affected(
    db,
    `INSERT INTO supplier_sign_in_states (nonce, store_id, account_id, api_key_id, supplier_key, mode, redirect_uri, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [nonce, s.store_id, s.account_id, s.api_key_id, s.supplier_key, s.mode, s.redirect_uri, expiresAt],
  );
}

/** Uses the state once, while it has not expired; null otherwise. */
export async function useSignInState(db: Queryable, nonce: string): Promise<SignInState | null> {
  const [st] = await rows<SignInState>(
    db,
    `UPDATE supplier_sign_in_states SET used_at = now()
      WHERE nonce = $1 AND used_at IS NULL AND expires_at > now()
      RETURNING store_id, account_id, api_key_id, supplier_key, mode, redirect_uri`,
    [nonce],
  );
  return st ?? null;
}

/** The record scope of a key that is not revoked; null for a revoked or unknown key. */
export async function liveKeyScope(db: Queryable, apiKeyId: string): Promise<'own' | 'account' | null> {
  const [key] = await rows<{ record_scope: 'own' | 'account' }>(db, 'SELECT record_scope FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [apiKeyId]);
  return key?.record_scope ?? null;
}
