import { affected, Queryable, rows } from '../platform/db';
import type { SupplierConnection } from '../connections/types';
import { connectionOf, type ConnectionRow } from '../connections/sql';

// The notifications domain's SQL statements; its services call these and hold no SQL text of their own.

/** Receipts are kept a day. */
export async function purgeReceipts(db: Queryable): Promise<void> {
  await affected(db, `DELETE FROM supplier_notification_receipts WHERE received_at < now() - interval '1 day'`);
}

/**
 * Connections by id, each with the ids of the other live connections on its supplier account.
 */
export async function connectionsWithAccount(db: Queryable, ids: string[]): Promise<Array<{ conn: SupplierConnection; others: string[] }>> {
  const found = await rows<ConnectionRow & { others: string[] }>(
    db,
    `SELECT c.*, CASE WHEN c.supplier_account_key IS NULL THEN ARRAY[]::uuid[]
                      ELSE ARRAY(SELECT o.id FROM supplier_connections o WHERE o.supplier_account_key = c.supplier_account_key AND o.disconnected_at IS NULL AND o.id <> c.id) END AS others
       FROM supplier_connections c WHERE c.id = ANY($1)`,
    [ids],
  );
  return found.map((r) => ({ conn: connectionOf(r), others: r.others }));
}

/**
 * The receipts of a batch (an event id seen before is a replay: not written) and the connections' last notification
 * time, in one statement. Answers the fresh ones.
 */
export function writeReceipts(tx: Queryable, connectionIds: string[], eventIds: string[]): Promise<Array<{ connection_id: string; event_id: string }>> {
  return rows(
    tx,
    `WITH input AS (SELECT DISTINCT connection_id, event_id FROM unnest($1::uuid[], $2::text[]) AS u(connection_id, event_id)),
          receipt AS (
            INSERT INTO supplier_notification_receipts (connection_id, event_id)
            SELECT i.connection_id, i.event_id FROM input i JOIN supplier_connections c ON c.id = i.connection_id ORDER BY 1, 2
            ON CONFLICT DO NOTHING RETURNING connection_id, event_id
          ),
          touched AS (UPDATE supplier_connections SET last_webhook_at = now() WHERE id IN (SELECT connection_id FROM receipt) RETURNING id)
     SELECT connection_id, event_id FROM receipt`,
    [connectionIds, eventIds],
  );
}

/** Which of the account's connections have this supplier order. */
export async function connectionsWithOrder(db: Queryable, account: string[], supplierOrderId: string): Promise<string[]> {
  const found = await rows<{ id: string }>(db, 'SELECT DISTINCT connection_id AS id FROM supplier_orders WHERE connection_id = ANY($1) AND supplier_order_id = $2', [account, supplierOrderId]);
  return found.map((r) => r.id);
}

/** Which of the account's connections link this supplier product. */
export async function connectionsWithProduct(db: Queryable, account: string[], supplierProductId: string): Promise<string[]> {
  const found = await rows<{ id: string }>(db, 'SELECT DISTINCT connection_id AS id FROM product_links WHERE connection_id = ANY($1) AND supplier_product_id = $2', [account, supplierProductId]);
  return found.map((r) => r.id);
}

// --- The read-back safety net

/**
 * Open supplier orders due, oldest first, from live connections whose circuit is closed: neither changed (every
 * read-back writes the row) nor asked for by the safety net for `dueAfterSeconds`; at most `perConnection` each.
 */
export function dueOrders(db: Queryable, o: { dueAfterSeconds: number; maxAgeDays: number; perConnection: number; perSweep: number }): Promise<Array<{ id: string; connection_id: string; supplier_order_id: string }>> {
  // Statuses the supplier still moves on its own (as in the partial index of migration ReadBackAskedAt). Queued and
  // failed orders belong to the dispatch job, which reads them itself.
  return rows(
    db,
    `SELECT id, connection_id, supplier_order_id FROM (
       SELECT so.id, so.connection_id, so.supplier_order_id, GREATEST(so.updated_at, so.read_back_asked_at) AS seen,
              row_number() OVER (PARTITION BY so.connection_id ORDER BY GREATEST(so.updated_at, so.read_back_asked_at)) AS n
         FROM supplier_orders so
         JOIN supplier_connections c ON c.id = so.connection_id
        WHERE so.status IN ('submitted', 'confirmed', 'processing', 'shipped', 'needsReview') AND so.supplier_order_id IS NOT NULL
          AND GREATEST(so.updated_at, so.read_back_asked_at) < now() - make_interval(secs => $1)
          AND so.created_at > now() - make_interval(days => $2)
          AND c.disconnected_at IS NULL AND c.enabled AND c.credentials_sealed IS NOT NULL
          AND (c.circuit_open_until IS NULL OR c.circuit_open_until <= now())
     ) due
     WHERE n <= $3 ORDER BY seen LIMIT $4`,
    [o.dueAfterSeconds, o.maxAgeDays, o.perConnection, o.perSweep],
  );
}

/** A plain UPDATE: updated_at keeps meaning the last change, and no status moves. */
export async function markReadBackAsked(db: Queryable, ids: string[]): Promise<void> {
  await affected(db, 'UPDATE supplier_orders SET read_back_asked_at = now() WHERE id = ANY($1)', [ids]);
}
