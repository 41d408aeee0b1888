import { affected, type Queryable, rows } from '../../platform/db';
import type { ConnectionMode } from '../../suppliers/adapter';
import type { SupplierConnection } from '../types';
import { type ConnectionRow, connectionOf } from './rows';

// Connections read and written by the domain's services (health and the circuit are in ./health.ts). Every statement
// names the connection's store (`store_id = $1`), so it stays on one shard when the tables are distributed by store;
// the few that span stores say why in a leading comment (listed in docs/scaling.md).

/** A connection as its statements find it: by its store and id. */
export type StoreConnection = Pick<SupplierConnection, 'storeId' | 'id'>;

/** Connections on one supplier account live in several stores: they share its one notification address. */
const SHARED_ACCOUNT = 'SELECT /* cross-store: shared-supplier-account */';

/** A connection of the store, in any state. */
export async function connectionInStore(db: Queryable, storeId: string, id: string): Promise<SupplierConnection | null> {
  const [r] = await rows<ConnectionRow>(db, 'SELECT * FROM supplier_connections WHERE store_id = $1 AND id = $2', [storeId, id]);
  return r ? connectionOf(r) : null;
}

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
  const [r] = await rows<ConnectionRow>(db, 'SELECT * FROM supplier_connections WHERE store_id = $1 AND id = $2 AND disconnected_at IS NULL', [storeId, id]);
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

/** Every store's live connections: the start's sweep of notification addresses, and the keyring's reseal. */
export async function liveConnections(db: Queryable): Promise<SupplierConnection[]> {
  return (
    await rows<ConnectionRow>(
      db,
      'SELECT /* cross-store: live-connections-sweep */ * FROM supplier_connections WHERE disconnected_at IS NULL ORDER BY created_at',
    )
  ).map(connectionOf);
}

/** A second live connection of the store to the same supplier and mode raises the unique violation (23505). */
export async function insertConnection(db: Queryable, c: Omit<SupplierConnection, 'createdAt' | 'updatedAt'>): Promise<SupplierConnection> {
  const [r] = await rows<ConnectionRow>(
    db,
    `INSERT INTO supplier_connections (id, store_id, supplier_key, mode, enabled, credentials_sealed, account_label, settings, automation, health, consecutive_failures,
                                       circuit_open_until, last_webhook_at, disconnected_at, registered_notification_address, supplier_account_key, created_by_account_id, created_by_key_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) RETURNING *`,
    [
      c.id,
      c.storeId,
      c.supplierKey,
      c.mode,
      c.enabled,
      c.credentialsSealed,
      c.accountLabel,
      JSON.stringify(c.settings),
      JSON.stringify(c.automation),
      c.health === null ? null : JSON.stringify(c.health),
      c.consecutiveFailures,
      c.circuitOpenUntil,
      c.lastWebhookAt,
      c.disconnectedAt,
      c.registeredNotificationAddress,
      c.supplierAccountKey,
      c.createdByAccountId,
      c.createdByKeyId,
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
  consecutiveFailures: 'consecutive_failures',
  circuitOpenUntil: 'circuit_open_until',
  registeredNotificationAddress: 'registered_notification_address',
  supplierAccountKey: 'supplier_account_key',
} as const;
const JSON_FIELDS = new Set(['settings', 'automation', 'health']);

/** Sets the fields given (the others stay), stamps the change, and answers the connection as it is now. */
export async function updateConnection(
  db: Queryable,
  conn: StoreConnection,
  changes: Partial<Pick<SupplierConnection, keyof typeof CHANGEABLE>>,
): Promise<SupplierConnection> {
  const values: unknown[] = [conn.storeId, conn.id];
  const sets = Object.entries(changes)
    .filter(([field, value]) => value !== undefined && field in CHANGEABLE)
    .map(([field, value]) => {
      values.push(JSON_FIELDS.has(field) && value !== null ? JSON.stringify(value) : value);
      return `${CHANGEABLE[field as keyof typeof CHANGEABLE]} = $${values.length}`;
    });
  const [r] = await rows<ConnectionRow>(
    db,
    `UPDATE supplier_connections SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE store_id = $1 AND id = $2 RETURNING *`,
    values,
  );
  return connectionOf(r);
}

/** Stores the sealed credentials only while the row still holds `expected`; true when written. */
export async function replaceCredentials(db: Queryable, conn: StoreConnection, expected: string, sealed: string): Promise<boolean> {
  return (
    (await affected(
      db,
      'UPDATE supplier_connections SET credentials_sealed = $4 WHERE store_id = $1 AND id = $2 AND credentials_sealed = $3 AND disconnected_at IS NULL',
      [conn.storeId, conn.id, expected, sealed],
    )) > 0
  );
}

/** True when this call disconnected it (it was live). */
export async function disconnect(tx: Queryable, conn: StoreConnection): Promise<boolean> {
  return (
    (await affected(
      tx,
      'UPDATE supplier_connections SET credentials_sealed = NULL, enabled = false, disconnected_at = now(), updated_at = now() WHERE store_id = $1 AND id = $2 AND disconnected_at IS NULL',
      [conn.storeId, conn.id],
    )) > 0
  );
}

/** The other live connections on the supplier account. */
export async function otherLiveConnections(db: Queryable, accountKey: string, except: string): Promise<string[]> {
  const found = await rows<{ id: string }>(
    db,
    `${SHARED_ACCOUNT} id FROM supplier_connections WHERE supplier_account_key = $1 AND disconnected_at IS NULL AND id <> $2`,
    [accountKey, except],
  );
  return found.map((r) => r.id);
}

/** Which of these account keys have more than one live connection. */
export async function sharedAccountKeys(db: Queryable, keys: string[]): Promise<string[]> {
  const found = await rows<{ key: string }>(
    db,
    `${SHARED_ACCOUNT} supplier_account_key AS key FROM supplier_connections WHERE supplier_account_key = ANY($1) AND disconnected_at IS NULL GROUP BY 1 HAVING count(*) > 1`,
    [keys],
  );
  return found.map((r) => r.key);
}

/** The newest other connection on the account that can take calls, if any. */
export async function successorOnAccount(db: Queryable, accountKey: string, leaving: string): Promise<SupplierConnection | null> {
  const [next] = await rows<ConnectionRow>(
    db,
    `${SHARED_ACCOUNT} * FROM supplier_connections WHERE supplier_account_key = $1 AND disconnected_at IS NULL AND enabled AND credentials_sealed IS NOT NULL AND id <> $2
      ORDER BY created_at DESC, id DESC LIMIT 1`,
    [accountKey, leaving],
  );
  return next ? connectionOf(next) : null;
}

/** A live connection as the renewal needs it. */
export interface RenewableConnection {
  id: string;
  storeId: string;
  supplierKey: string;
  mode: ConnectionMode;
  settings: Record<string, unknown>;
  credentialsSealed: string;
}

export async function liveConnectionsOf(db: Queryable, supplierKeys: string[]): Promise<RenewableConnection[]> {
  return rows<RenewableConnection>(
    db,
    `SELECT /* cross-store: credential-renewal-sweep */ id, store_id AS "storeId", supplier_key AS "supplierKey", mode, settings, credentials_sealed AS "credentialsSealed" FROM supplier_connections
      WHERE supplier_key = ANY($1) AND disconnected_at IS NULL AND credentials_sealed IS NOT NULL ORDER BY id`,
    [supplierKeys],
  );
}

/**
 * The connections' last notification time, as a step of the notifications' statement that writes `receipts` (rows
 * with `connection_id`) for the store given as the parameter `storeParam` (`$1`...).
 */
export const notifiedStep = (receipts: string, storeParam: string) =>
  `UPDATE supplier_connections SET last_webhook_at = now() WHERE store_id = ${storeParam} AND id IN (SELECT connection_id FROM ${receipts}) RETURNING id`;
