import { preparedRows, type Queryable } from '../../platform/db';

/**
 * Stamps the database's identity (cluster, database oid, WAL timeline) and answers whether a reconciliation is due:
 * the stamp found differs from the identity now (a restore or a promoted standby), or an earlier one was not
 * finished. The first stamp ever is not a rewind. One statement; two workers racing write it once.
 */
export async function stampIdentity(db: Queryable): Promise<{ reconcileDue: boolean; previous: string | null; current: string }> {
  const [r] = await preparedRows<{ reconcile_due: boolean; previous: string | null; current: string }>(
    db,
    `WITH cur AS (SELECT (SELECT system_identifier::text FROM pg_control_system()) AS cluster, (SELECT oid::text FROM pg_database WHERE datname = current_database()) AS database_oid,
                         substr(pg_walfile_name(pg_current_wal_insert_lsn()), 1, 8) AS timeline),
          old AS (SELECT cluster, database_oid, timeline, reconciled FROM database_identity WHERE id = 1),
          up AS (INSERT INTO database_identity (id, cluster, database_oid, timeline, reconciled) SELECT 1, cluster, database_oid, timeline, true FROM cur
                 ON CONFLICT (id) DO UPDATE SET cluster = EXCLUDED.cluster, database_oid = EXCLUDED.database_oid, timeline = EXCLUDED.timeline, stamped_at = now(), reconciled = false
                  WHERE (database_identity.cluster, database_identity.database_oid, database_identity.timeline) IS DISTINCT FROM (EXCLUDED.cluster, EXCLUDED.database_oid, EXCLUDED.timeline)
                 RETURNING 1)
     SELECT (EXISTS (SELECT 1 FROM up) AND EXISTS (SELECT 1 FROM old)) OR coalesce((SELECT NOT reconciled FROM old), false) AS reconcile_due,
            (SELECT concat_ws('/', cluster, database_oid, timeline) FROM old) AS previous, (SELECT concat_ws('/', cluster, database_oid, timeline) FROM cur) AS current`,
  );
  return { reconcileDue: r.reconcile_due, previous: r.previous, current: r.current };
}

export async function markReconciled(db: Queryable, identity: string): Promise<void> {
  await preparedRows(db, `UPDATE database_identity SET reconciled = true WHERE id = 1 AND concat_ws('/', cluster, database_oid, timeline) = $1`, [identity]);
}

/**
 * Parts on the given suppliers that the records say were never sent (no supplier order id, not final): after a rewind
 * each may have been sent since the records' moment. Keyset-paged by id.
 */
export async function unsentOn(db: Queryable, supplierKeys: string[], after: string | null, limit: number): Promise<Array<{ id: string; store_id: string }>> {
  return preparedRows(
    db,
    `SELECT /* cross-store: rewind-reconcile */ id, store_id FROM supplier_orders
      WHERE supplier_key = ANY($1::text[]) AND supplier_order_id IS NULL AND status IN ('queued', 'failed') AND ($2::uuid IS NULL OR id > $2::uuid)
      ORDER BY id LIMIT $3`,
    [supplierKeys, after, limit],
  );
}
