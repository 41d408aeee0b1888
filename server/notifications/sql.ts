import { affected, Queryable, rows } from '../platform/db';
import { connectionOf, type ConnectionRow, notifiedStep, type SupplierConnection } from '../connections';

// The notifications domain's data module: its one table (the receipts). To route a notification it reads connections
// (and the others on their supplier account); which connection has a supplier order or links a supplier product it asks
// dispatch and the catalogue (./service.ts). The connections' last notification time is the connections' step, written
// in the receipts' statement. Every statement names the store; those that span stores say why in a leading comment.

/** A connection as a read-back names it. */
export interface Owner {
  id: string;
  storeId: string;
}

/** Receipts are kept a day. */
export async function purgeReceipts(db: Queryable): Promise<void> {
  await affected(db, `DELETE /* cross-store: notification-receipts-purge */ FROM supplier_notification_receipts WHERE received_at < now() - interval '1 day'`);
}

/** The store's connections among these ids, in any state. */
export async function connectionsInStore(db: Queryable, storeId: string, ids: string[]): Promise<SupplierConnection[]> {
  return (await rows<ConnectionRow>(db, 'SELECT * FROM supplier_connections WHERE store_id = $1 AND id = ANY($2)', [storeId, ids])).map(connectionOf);
}

/** The live connections on these supplier accounts, by account. */
export async function liveOnAccounts(db: Queryable, accountKeys: string[]): Promise<Map<string, Owner[]>> {
  const found = await rows<{ key: string; id: string; store_id: string }>(
    db,
    `SELECT /* cross-store: shared-supplier-account */ supplier_account_key AS key, id, store_id FROM supplier_connections WHERE supplier_account_key = ANY($1) AND disconnected_at IS NULL`,
    [accountKeys],
  );
  const byKey = new Map<string, Owner[]>();
  for (const r of found) byKey.set(r.key, [...(byKey.get(r.key) ?? []), { id: r.id, storeId: r.store_id }]);
  return byKey;
}

/**
 * The receipts of one store's notifications in a batch (an event id seen before is a replay: not written) and its
 * connections' last notification time, in one statement. Answers the fresh ones.
 */
export function writeReceipts(
  tx: Queryable,
  storeId: string,
  connectionIds: string[],
  eventIds: string[],
): Promise<Array<{ connection_id: string; event_id: string }>> {
  return rows(
    tx,
    `WITH input AS (SELECT DISTINCT connection_id, event_id FROM unnest($2::uuid[], $3::text[]) AS u(connection_id, event_id)),
          receipt AS (
            INSERT INTO supplier_notification_receipts (store_id, connection_id, event_id)
            SELECT c.store_id, i.connection_id, i.event_id FROM input i JOIN supplier_connections c ON c.store_id = $1 AND c.id = i.connection_id ORDER BY 2, 3
            ON CONFLICT DO NOTHING RETURNING connection_id, event_id
          ),
          touched AS (${notifiedStep('receipt', '$1')})
     SELECT connection_id, event_id FROM receipt`,
    [storeId, connectionIds, eventIds],
  );
}
