import type { DataSource } from 'typeorm';
import type { Logger } from './logger';
import { Throttle } from './logger';
import { preparedRows, type Queryable } from './db';

/** How long the answer that there are no standbys is trusted (a standby attached meanwhile waits that long at most). */
const NO_SLOTS_TRUSTED_MS = 2000;

/**
 * Whether a standby that replicates through a physical slot has yet to confirm the WAL up to `lsn` (or, without one,
 * up to everything written now, answered with it). A slot's restart_lsn is the flush position its standby last
 * confirmed, and the slot stays when the standby's stream breaks: a standby cut off still counts, as it must (it is
 * the one a failover promotes).
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

/**
 * Acknowledgements that a failover cannot take back (docs/decisions.md, "A database that fails over"): before the
 * service says it did something (a write's 2xx, an event sent), every standby with a physical slot has confirmed the
 * WAL written so far, which holds that commit. A standby still behind after `waitMs` is given up on for this answer
 * (said once per window): the service answers as with asynchronous replication rather than stop.
 */
export class Standbys {
  private noSlotsUntil = 0;
  private readonly throttle = new Throttle();

  constructor(
    private readonly db: DataSource,
    private readonly waitMs: number,
    private readonly log: Logger,
  ) {}

  async confirmed(withinMs = this.waitMs): Promise<boolean> {
    if (withinMs <= 0 || Date.now() < this.noSlotsUntil) return true;
    const deadline = Date.now() + withinMs;
    let { lsn, behind } = await standbyBehind(this.db);
    if (!behind) {
      if (!(await this.anySlot())) this.noSlotsUntil = Date.now() + NO_SLOTS_TRUSTED_MS;
      return true;
    }
    while (behind && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
      ({ behind } = await standbyBehind(this.db, lsn));
    }
    if (behind) this.throttle.warn(this.log, { lsn, waitedMs: withinMs }, 'a database standby has not confirmed what the service is about to acknowledge');
    return !behind;
  }

  private async anySlot(): Promise<boolean> {
    const [r] = await preparedRows<{ any: boolean }>(this.db, `SELECT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_type = 'physical') AS any`, []);
    return r.any;
  }
}
