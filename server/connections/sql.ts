import { affected, Queryable, rows } from '../platform/db';
import type { ConnectionMode } from '../suppliers/adapter';
import type { Health, SupplierConnection } from './types';

// The connections domain's SQL statements; its services call these and hold no SQL text of their own.

// --- Reads

/** A connection row, as the table has it or as `to_jsonb` gives it inside another statement (times as text). */
export interface ConnectionRow {
  id: string;
  store_id: string;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  supplier_key: string;
  mode: ConnectionMode;
  enabled: boolean;
  credentials_sealed: string | null;
  account_label: string;
  settings: SupplierConnection['settings'];
  automation: SupplierConnection['automation'];
  health: SupplierConnection['health'];
  consecutive_failures: number;
  circuit_open_until: Date | string | null;
  last_webhook_at: Date | string | null;
  disconnected_at: Date | string | null;
  registered_notification_address: string | null;
  supplier_account_key: string | null;
}

const at = (v: Date | string | null): Date | null => (v === null ? null : v instanceof Date ? v : new Date(v));

/** A connection row as the domain's type, without TypeORM's hydration. */
export function connectionOf(r: ConnectionRow): SupplierConnection {
  return {
    id: r.id,
    storeId: r.store_id,
    createdByAccountId: r.created_by_account_id,
    createdByKeyId: r.created_by_key_id,
    createdAt: at(r.created_at)!,
    updatedAt: at(r.updated_at)!,
    supplierKey: r.supplier_key,
    mode: r.mode,
    enabled: r.enabled,
    credentialsSealed: r.credentials_sealed,
    accountLabel: r.account_label,
    settings: r.settings,
    automation: r.automation,
    health: r.health,
    consecutiveFailures: r.consecutive_failures,
    circuitOpenUntil: at(r.circuit_open_until),
    lastWebhookAt: at(r.last_webhook_at),
    disconnectedAt: at(r.disconnected_at),
    registeredNotificationAddress: r.registered_notification_address,
    supplierAccountKey: r.supplier_account_key,
  };
}

export async function connectionById(db: Queryable, id: string): Promise<SupplierConnection | null> {
  const [r] = await rows<ConnectionRow>(db, 'SELECT * FROM supplier_connections WHERE id = $1', [id]);
  return r ? connectionOf(r) : null;
}

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
/** A sign-in as its callback finds it: the address's id, and the member and browser it was opened by (if it was). */
export interface UsedSignIn extends SignInState {
  id: string;
  opened_by_account_id: string | null;
  browser_digest: string | null;
}
/** A sign-in as its address finds it; `spent` once used or expired. */
export interface SignInToOpen extends SignInState {
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

/** Uses the state once, while it has not expired; null otherwise. */
export async function useSignInState(db: Queryable, nonce: string): Promise<UsedSignIn | null> {
  const [st] = await rows<UsedSignIn>(
    db,
    `UPDATE supplier_sign_in_states SET used_at = now()
      WHERE nonce = $1 AND used_at IS NULL AND expires_at > now()
      RETURNING id, store_id, account_id, api_key_id, supplier_key, mode, redirect_uri, opened_by_account_id, browser_digest`,
    [nonce],
  );
  return st ?? null;
}

export async function signInToOpen(db: Queryable, storeId: string, id: string): Promise<SignInToOpen | null> {
  const [st] = await rows<SignInToOpen>(
    db,
    `SELECT nonce, store_id, account_id, api_key_id, supplier_key, mode, redirect_uri, expires_at, opened_by_account_id,
            (used_at IS NOT NULL OR expires_at <= now()) AS spent
       FROM supplier_sign_in_states WHERE id = $1 AND store_id = $2`,
    [id, storeId],
  );
  return st ?? null;
}

/** Binds a sign-in not yet used to the member who opens it and their browser's digest (again by the same member only). */
export async function bindSignInBrowser(db: Queryable, id: string, accountId: string, browserDigest: string): Promise<boolean> {
  const bound = await affected(
    db,
    `UPDATE supplier_sign_in_states SET opened_by_account_id = $2, browser_digest = $3
      WHERE id = $1 AND used_at IS NULL AND expires_at > now() AND (opened_by_account_id IS NULL OR opened_by_account_id = $2)`,
    [id, accountId, browserDigest],
  );
  return bound > 0;
}

/** The record scope of a key that is not revoked; null for a revoked or unknown key. */
export async function liveKeyScope(db: Queryable, apiKeyId: string): Promise<'own' | 'account' | null> {
  const [key] = await rows<{ record_scope: 'own' | 'account' }>(db, 'SELECT record_scope FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [apiKeyId]);
  return key?.record_scope ?? null;
}

// --- The connection row, for the domain's services

/** The store's live connections in the caller's record scope, newest first. */
export async function liveConnectionsOfStore(db: Queryable, storeId: string, ownKeyId: string | null): Promise<SupplierConnection[]> {
  const found = await rows<ConnectionRow>(
    db,
    `SELECT * FROM supplier_connections WHERE store_id = $1 AND disconnected_at IS NULL AND ($2::uuid IS NULL OR created_by_key_id = $2)
      ORDER BY created_at DESC, id DESC`,
    [storeId, ownKeyId],
  );
  return found.map(connectionOf);
}

/** A live connection of the store. */
export async function liveConnectionInStore(db: Queryable, storeId: string, id: string): Promise<SupplierConnection | null> {
  const [r] = await rows<ConnectionRow>(db, 'SELECT * FROM supplier_connections WHERE id = $1 AND store_id = $2 AND disconnected_at IS NULL', [id, storeId]);
  return r ? connectionOf(r) : null;
}

/** The store's live connection to the supplier in that mode (there is at most one). */
export async function liveConnectionTo(db: Queryable, storeId: string, supplierKey: string, mode: ConnectionMode): Promise<SupplierConnection | null> {
  const [r] = await rows<ConnectionRow>(
    db,
    'SELECT * FROM supplier_connections WHERE store_id = $1 AND supplier_key = $2 AND mode = $3 AND disconnected_at IS NULL',
    [storeId, supplierKey, mode],
  );
  return r ? connectionOf(r) : null;
}

export async function liveConnections(db: Queryable): Promise<SupplierConnection[]> {
  return (await rows<ConnectionRow>(db, 'SELECT * FROM supplier_connections WHERE disconnected_at IS NULL ORDER BY created_at')).map(connectionOf);
}

/** A second live connection of the store to the same supplier and mode raises the unique violation (23505). */
export async function insertConnection(db: Queryable, c: Omit<SupplierConnection, 'createdAt' | 'updatedAt'>): Promise<SupplierConnection> {
  const [r] = await rows<ConnectionRow>(
    db,
    `INSERT INTO supplier_connections (id, store_id, supplier_key, mode, enabled, credentials_sealed, account_label, settings, automation, health, consecutive_failures,
                                       circuit_open_until, last_webhook_at, disconnected_at, registered_notification_address, supplier_account_key, created_by_account_id, created_by_key_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING *`,
    [
      c.id, c.storeId, c.supplierKey, c.mode, c.enabled, c.credentialsSealed, c.accountLabel, JSON.stringify(c.settings), JSON.stringify(c.automation),
      c.health === null ? null : JSON.stringify(c.health), c.consecutiveFailures, c.circuitOpenUntil, c.lastWebhookAt, c.disconnectedAt,
      c.registeredNotificationAddress, c.supplierAccountKey, c.createdByAccountId, c.createdByKeyId,
    ],
  );
  return connectionOf(r);
}

/** The fields of a connection its services change, and their columns (jsonb ones are written as JSON). */
const CHANGEABLE = {
  enabled: 'enabled',
  credentialsSealed: 'credentials_sealed',
  accountLabel: 'account_label',
  settings: 'settings',
  automation: 'automation',
  health: 'health',
  consecutiveFailures: 'consecutive_failures',
  circuitOpenUntil: 'circuit_open_until',
  registeredNotificationAddress: 'registered_notification_address',
  supplierAccountKey: 'supplier_account_key',
} as const;
const JSON_FIELDS = new Set(['settings', 'automation', 'health']);

/** Sets the fields given (the others stay), stamps the change, and answers the connection as it is now. */
export async function updateConnection(db: Queryable, id: string, changes: Partial<Pick<SupplierConnection, keyof typeof CHANGEABLE>>): Promise<SupplierConnection> {
  const values: unknown[] = [id];
  const sets = Object.entries(changes)
    .filter(([field, value]) => value !== undefined && field in CHANGEABLE)
    .map(([field, value]) => {
      values.push(JSON_FIELDS.has(field) && value !== null ? JSON.stringify(value) : value);
      return `${CHANGEABLE[field as keyof typeof CHANGEABLE]} = $${values.length}`;
    });
  const [r] = await rows<ConnectionRow>(db, `UPDATE supplier_connections SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`, values);
  return connectionOf(r);
}
