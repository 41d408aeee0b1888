import { affected, type Queryable, rows } from '../../platform/db';

// The read-backs' statements: which open supplier orders the safety net (../safety-net.ts) finds due a read-back (their
// connection, the connections domain's row, read in the same statement), that one was asked for, and which connections
// a notification's read-back goes to (orderReadBacks, ../queues.ts).

/**
 * Open supplier orders due, oldest first, from connected connections whose circuit is closed, switched on or off (off
 * stops new orders, not the following of those already at the supplier): neither changed (every
 * read-back writes the row) nor asked for by the safety net for `dueAfterSeconds`; at most `perConnection` each.
 */
export function dueOrders(
  db: Queryable,
  o: { dueAfterSeconds: number; maxAgeDays: number; perConnection: number; perSweep: number },
): Promise<Array<{ id: string; store_id: string; connection_id: string; supplier_order_id: string }>> {
  // Statuses the supplier still moves on its own (as in the partial index of migration ReadBackAskedAt). Queued and
  // failed orders belong to the dispatch job, which reads them itself.
  return rows(
    db,
    `SELECT /* cross-store: read-back-safety-net */ id, store_id, connection_id, supplier_order_id FROM (
       SELECT so.id, so.store_id, so.connection_id, so.supplier_order_id, GREATEST(so.updated_at, so.read_back_asked_at) AS seen,
              row_number() OVER (PARTITION BY so.connection_id ORDER BY GREATEST(so.updated_at, so.read_back_asked_at)) AS n
         FROM supplier_orders so
         JOIN supplier_connections c ON c.store_id = so.store_id AND c.id = so.connection_id
        WHERE so.status IN ('submitted', 'confirmed', 'processing', 'shipped', 'needsReview') AND so.supplier_order_id IS NOT NULL
          AND GREATEST(so.updated_at, so.read_back_asked_at) < now() - make_interval(secs => $1)
          AND so.created_at > now() - make_interval(days => $2)
          AND c.disconnected_at IS NULL AND c.credentials_sealed IS NOT NULL
          AND (c.circuit_open_until IS NULL OR c.circuit_open_until <= now())
     ) due
     WHERE n <= $3 ORDER BY seen LIMIT $4`,
    [o.dueAfterSeconds, o.maxAgeDays, o.perConnection, o.perSweep],
  );
}

/** A plain UPDATE, one store's orders: updated_at keeps meaning the last change, and no status moves. */
export async function markReadBackAsked(db: Queryable, storeId: string, ids: string[]): Promise<void> {
  await affected(db, 'UPDATE supplier_orders SET read_back_asked_at = now() WHERE store_id = $1 AND id = ANY($2)', [storeId, ids]);
}

/** Which of the account's connections (in any of its stores) have this supplier order. */
export function connectionsWithOrder(db: Queryable, account: string[], supplierOrderId: string): Promise<Array<{ id: string; storeId: string }>> {
  return rows(
    db,
    `SELECT /* cross-store: shared-account-owners */ DISTINCT connection_id AS id, store_id AS "storeId" FROM supplier_orders WHERE connection_id = ANY($1) AND supplier_order_id = $2`,
    [account, supplierOrderId],
  );
}
