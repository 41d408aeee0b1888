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
 *
 * Declared asynchronous, the database may replicate synchronously all the same (Patroni's synchronous_mode, or
 * synchronous_standby_names set by hand, with synchronous_commit at `on` or stronger): every commit then returns only
 * once a standby holds it, which is what this wait would make sure of, so nothing waits (docs/decisions.md, "The
 * database's own synchronous replication"). Looked at once at start and every SYNC_LOOK_MS, never per write: a
 * cached "synchronous" stays true under Patroni, which never promotes a standby that was not synchronous.
 */
/** How often a declared asynchronous replication is looked at again for the database's own synchronous one. */
export const SYNC_LOOK_MS = 10_000;

/**
 * Whether every commit waits for a standby: synchronous_standby_names names one, and synchronous_commit is `on`,
 * `remote_write` or `remote_apply` (`local` and `off` do not wait).
 */
export async function databaseSynchronous(db: Queryable): Promise<boolean> {
  const [r] = await rows<{ synchronous: boolean }>(
    db,
    `SELECT current_setting('synchronous_standby_names') <> '' AND current_setting('synchronous_commit') IN ('on', 'remote_write', 'remote_apply') AS synchronous`,
  );
  return r.synchronous;
}

export class Standbys {
  private timeline: number | null = null;
  private readonly throttle = new Throttle();
  /** The database replicates synchronously itself (last look): nothing is waited for. */
  private synchronous = false;
  private looker: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly waitMs: number,
    private readonly log: Logger,
    private readonly replication: DatabaseReplication = 'asynchronous',
  ) {}

  /**
   * Whether the standbys are looked at: false with DATABASE_REPLICATION=none, or while the database replicates
   * synchronously itself; then nothing here runs a statement.
   */
  get waits(): boolean {
    return this.replication === 'asynchronous' && !this.synchronous;
  }

  /**
   * Declared asynchronous: whether the database replicates synchronously itself, looked at now and then every
   * `everyMs` (one statement each time, none per write). A look that fails keeps the last answer.
   */
  async watchSynchronous(everyMs = SYNC_LOOK_MS): Promise<void> {
    if (this.replication !== 'asynchronous' || this.looker) return;
    const look = async () => {
      const was = this.synchronous;
      this.synchronous = await databaseSynchronous(this.db).catch(() => was);
      if (this.synchronous !== was)
        this.log.info(
          { synchronous: this.synchronous },
          this.synchronous
            ? 'the database replicates synchronously: the service does not wait for its standbys'
            : 'the database replicates asynchronously: the service waits for its standbys',
        );
    };
    this.looker = setInterval(() => void look(), everyMs);
    this.looker.unref();
    await look();
  }

  stop(): void {
    if (this.looker) clearInterval(this.looker);
    this.looker = null;
  }

  /**
   * Said once at start: a server with physical slots while the replication is declared `none` (those standbys are not
   * waited for, so a failover to one may take back what was acknowledged). One statement; nothing else follows from it.
   */
  async checkDeclared(): Promise<void> {
    if (this.waits) return;
    const [r] = await rows<{ slots: number }>(this.db, `SELECT count(*)::int AS slots FROM pg_replication_slots WHERE slot_type = 'physical'`, []);
    if (r.slots > 0)
      this.log.warn(
        { slots: r.slots, variable: 'DATABASE_REPLICATION' },
        'the database has physical replication slots but DATABASE_REPLICATION is none: its standbys are not waited for (set it to asynchronous)',
      );
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
    if ((await this.confirm(this.waitMs, since)) === 'switched')
      throw errors.unavailable('The database failed over while this request was answered: whether its change was kept is not known. Send it again.');
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
