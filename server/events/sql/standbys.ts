import { preparedRows, type Queryable } from '../../platform/db';

/**
 * Whether a standby that replicates through a physical replication slot has yet to confirm the WAL up to `lsn` (or,
 * without one, up to everything written now, answered with it). A slot's restart_lsn is the flush position its standby
 * last confirmed, and the slot stays when the standby's stream breaks: so a standby cut off still counts, as it must
 * (it is the one a failover promotes). Without physical slots, nothing is waited for.
 */
export async function standbyBehind(db: Queryable, lsn?: string): Promise<{ lsn: string; behind: boolean }> {
  const [r] = await preparedRows<{ lsn: string; behind: boolean }>(
    db,
    `SELECT at.lsn::text AS lsn, EXISTS (SELECT 1 FROM pg_replication_slots s WHERE s.slot_type = 'physical' AND s.restart_lsn IS NOT NULL AND s.restart_lsn < at.lsn) AS behind
       FROM (SELECT coalesce($1::pg_lsn, pg_current_wal_insert_lsn()) AS lsn) at`,
    [lsn ?? null],
  );
  return r;
}
