/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * A primary with a streaming standby (Postgres's own asynchronous replication), reached through one address that a
 * failover switches, as a DNS name or a managed database's endpoint does: issue 43's failover drill. Debian's
 * PostgreSQL (installed by .ci/run) gives pg_basebackup; the standby replicates through a link the drill can cut, so
 * the commits made after the cut are really lost when the primary dies.
 */
import { Pool } from 'pg';
import { OwnPostgres } from './own-postgres';
import { replicationBin } from '../../bench/soak/replicated';
import { TcpProxy } from '../../bench/soak/tcp-proxy';

/** A folder with initdb, postgres and pg_basebackup of one version (the soak's look-up: the newest Debian PostgreSQL). */
export function replicationTools(): string {
  const dir = replicationBin();
  if (!dir) throw new Error("No PostgreSQL with pg_basebackup: install Debian's postgresql package (.ci/run does).");
  return dir;
}

async function one<T>(url: string, sql: string): Promise<T> {
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    return (await pool.query(sql)).rows[0] as T;
  } finally {
    await pool.end();
  }
}

/** Rows of one query on one server (the primary or the standby directly, or the front), on a connection of its own. */
export async function rowsAt<T = any>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const pool = new Pool({ connectionString: url, max: 1 });
  pool.on('error', () => undefined);
  try {
    return (await pool.query(sql, params)).rows as T[];
  } finally {
    await pool.end();
  }
}

export class ReplicatedPostgres {
  private constructor(
    readonly primary: OwnPostgres,
    readonly standby: OwnPostgres,
    /** What the service connects to: the primary, then after failover the promoted standby. */
    readonly front: TcpProxy,
    /** The standby's replication stream runs through it. */
    readonly link: TcpProxy,
  ) {}

  static async start(): Promise<ReplicatedPostgres> {
    const bin = replicationTools();
    const primary = new OwnPostgres(bin);
    await primary.init();
    primary.configure(
      ['wal_level = replica', 'max_wal_senders = 4', 'wal_keep_size = 256MB', 'hot_standby = on'],
      ['host replication all 127.0.0.1/32 scram-sha-256'],
    );
    await primary.start();
    const link = new TcpProxy(primary.port);
    await link.listen();
    const standby = new OwnPostgres(bin);
    await standby.standbyOf(link.port);
    await standby.start();
    const front = new TcpProxy(primary.port);
    await front.listen();
    return new ReplicatedPostgres(primary, standby, front, link);
  }

  /** The service's address for `database`: always the front, whichever server is behind it. */
  url(database = 'postgres'): string {
    return `postgres://postgres:test@127.0.0.1:${this.front.port}/${database}`;
  }

  /** Waits until the standby has replayed everything the primary has written. */
  async caughtUp(timeoutMs = 30000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { lsn } = await one<{ lsn: string }>(this.primary.url(), 'SELECT pg_current_wal_lsn()::text AS lsn');
      const { behind } = await one<{ behind: boolean }>(this.standby.url(), `SELECT coalesce(pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn, true) AS behind`);
      if (!behind) return;
      if (Date.now() > deadline) throw new Error('the standby did not catch up');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The standby stops receiving: what the primary commits from now on exists only there. */
  cutReplication(): void {
    this.link.cut();
  }

  /**
   * The primary dies (immediate shutdown), the standby is promoted and the front switched to it. Answers how many
   * bytes of WAL the standby never received: the commits lost.
   */
  async failover(): Promise<{ lostWalBytes: number }> {
    const { lsn } = await one<{ lsn: string }>(this.primary.url(), 'SELECT pg_current_wal_lsn()::text AS lsn');
    await this.primary.crash();
    const { received } = await one<{ received: string }>(
      this.standby.url(),
      'SELECT coalesce(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn())::text AS received',
    );
    await one(this.standby.url(), 'SELECT pg_promote(true, 60)');
    this.front.switchTo(this.standby.port);
    const { lost } = await one<{ lost: string }>(this.standby.url(), `SELECT ('${lsn}'::pg_lsn - '${received}'::pg_lsn)::bigint::text AS lost`);
    return { lostWalBytes: Number(lost) };
  }

  async destroy(): Promise<void> {
    await this.front.close();
    await this.link.close();
    await this.primary.destroy();
    await this.standby.destroy();
  }
}
