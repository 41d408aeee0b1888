import type { DataSource } from 'typeorm';
import type { DatabaseReplication } from './config-shape';
import type { Logger } from './logger';
import { Throttle } from './logger';
import { preparedRows, rows, type Queryable } from './db';
import { errors } from './errors';

/**
 * Whether a standby that replicates through a physical slot has yet to confirm the WAL up to `lsn` (or, without one,
 * up to everything written now, answered with it), and the server's WAL timeline (a promoted standby starts a new
 * one). A slot's restart_lsn is the flush position its standby last confirmed, and the slot stays when the standby's
 * stream breaks: a standby cut off still counts, as it must (it is the one a failover promotes).
 */
export async function standbyBehind(db: Queryable, lsn?: string): Promise<{ lsn: string; behind: boolean; timeline: number }> {
  const [r] = await preparedRows<{ lsn: string; behind: boolean; timeline: number }>(
    db,
    `SELECT at.lsn::text AS lsn, EXISTS (SELECT 1 FROM pg_replication_slots s WHERE s.slot_type = 'physical' AND s.restart_lsn IS NOT NULL AND s.restart_lsn < at.lsn) AS behind,
            ('x' || substr(pg_walfile_name(at.lsn), 1, 8))::bit(32)::int AS timeline
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
 *
 * The look must be made on the server that took the commit. After a failover the pool reaches the promoted server,
 * which has no slots yet and would confirm anything; so a caller keeps the timeline known before its work (`epoch`)
 * and a different one now answers `switched`: what it wrote may be lost, and it says nothing was done.
 *
 * All of it only where the operator declares the replication asynchronous (DATABASE_REPLICATION): with `none` nothing
 * is looked up, ever (no statement per write, no second read of a first order), and everything is held at once.
 * Declared, not detected: a detection is a cached answer between two looks, and a cached "no slots" lost writes.
 */
export class Standbys {
  private timeline: number | null = null;
  private readonly throttle = new Throttle();

  constructor(
    private readonly db: DataSource,
    private readonly waitMs: number,
    private readonly log: Logger,
    private readonly replication: DatabaseReplication = 'asynchronous',
  ) {}

  /** Whether the standbys are looked at: false with DATABASE_REPLICATION=none, and then nothing here runs a statement. */
  get waits(): boolean {
    return this.replication === 'asynchronous';
  }

  /**
   * Said once at start: a server with physical slots while the replication is declared `none` (those standbys are not
   * waited for, so a failover to one may take back what was acknowledged). One statement; nothing else follows from it.
   */
  async checkDeclared(): Promise<void> {
    if (this.waits) return;
    const [r] = await rows<{ slots: number }>(this.db, `SELECT count(*)::int AS slots FROM pg_replication_slots WHERE slot_type = 'physical'`, []);
    if (r.slots > 0) this.log.warn({ slots: r.slots, variable: 'DATABASE_REPLICATION' }, 'the database has physical replication slots but DATABASE_REPLICATION is none: its standbys are not waited for (set it to asynchronous)');
  }

  /** The database's WAL timeline as last seen: kept by a caller before its work, handed to `confirm` after it. */
  epoch(): number | null {
    return this.timeline;
  }

  async confirmed(withinMs = this.waitMs, since: number | null = null): Promise<boolean> {
    return (await this.confirm(withinMs, since)) === 'held';
  }

  /** A write's answer: a failover since `since` answers 503 (the caller sends again); a standby behind is waited for, then given up on. */
  async acknowledge(since: number | null): Promise<void> {
    if ((await this.confirm(this.waitMs, since)) === 'switched') throw errors.unavailable('The database failed over while this request was answered: whether its change was kept is not known. Send it again.');
  }

  /**
   * Looked up on every call, never cached: a standby being made appears as a slot at its base backup's start, and
   * the backup may end a moment later; a write after that end is on the primary alone until the standby streams (the
   * 30-minute soak of 2026-12-06 lost writes that a 2 s cache of "no slots" had confirmed in that moment).
   */
  async confirm(withinMs: number, since: number | null): Promise<'held' | 'behind' | 'switched'> {
    if (withinMs <= 0 || !this.waits) return 'held';
    const started = Date.now();
    let { lsn, behind, timeline } = await standbyBehind(this.db);
    this.timeline = timeline;
    const switched = (t: number) => since !== null && t !== since;
    if (switched(timeline)) return this.saySwitched(since, timeline);
    while (behind && Date.now() < started + withinMs) {
      await new Promise((r) => setTimeout(r, 10));
      ({ behind, timeline } = await standbyBehind(this.db, lsn));
      if (switched(timeline)) return this.saySwitched(since, timeline);
    }
    if (behind) this.throttle.warn(this.log, { lsn, waitedMs: withinMs }, 'a database standby has not confirmed what the service is about to acknowledge');
    this.log.debug({ since, lsn, timeline, answer: behind ? 'behind' : 'held', ms: Date.now() - started }, 'standby check');
    return behind ? 'behind' : 'held';
  }

  private saySwitched(since: number | null, timeline: number): 'switched' {
    this.timeline = timeline;
    this.throttle.warn(this.log, { since, timeline }, 'the database failed over meanwhile: what was written before may be lost, so it is not acknowledged');
    return 'switched';
  }
}
