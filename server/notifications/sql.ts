import { affected, Queryable, rows } from '../platform/db';
import { connectionOf, type ConnectionRow, notifiedStep, type SupplierConnection } from '../connections';

// The notifications domain's data module: its one table (the receipts). To route a notification it reads connections
// (with their supplier account's others), and which connection has a supplier order or links a supplier product
// (dispatch's and the catalogue's rows); the connections' last notification time is the connections' step, written in
// the receipts' statement.

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
          touched AS (${notifiedStep('receipt')})
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
