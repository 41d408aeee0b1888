/**
 * The own deployment's database as a managed Postgres is: a primary with a streaming standby (Postgres's own
 * asynchronous replication, through a physical slot), reached at one address that a failover switches, as a DNS name
 * or a cloud endpoint does (docs/operations.md, "Failover to a standby"). The `postgres failover` fault cuts the
 * standby's stream, lets the primary commit on for a moment (those commits are lost for real), kills the primary and
 * promotes the standby; a new standby is then made from the new primary, ready for the next failover.
 * It needs pg_basebackup (Debian's PostgreSQL, which .ci/run installs); without it the soak's own database is a
 * single server and the fault is not injected.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { sleep } from './api';
import { OwnPostgres, type Restartable } from './postgres';
import { TcpProxy } from './tcp-proxy';

/** The newest Debian PostgreSQL with pg_basebackup, or null. */
export function replicationBin(): string | null {
  const system = '/usr/lib/postgresql';
  const versions = fs.existsSync(system)
    ? fs
        .readdirSync(system)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return (
    versions.map((v) => path.join(system, v, 'bin')).find((d) => ['initdb', 'postgres', 'pg_basebackup'].every((b) => fs.existsSync(path.join(d, b)))) ?? null
  );
}

async function one<T>(url: string, sql: string): Promise<T> {
  const pool = new Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10000 });
  pool.on('error', () => undefined);
  try {
    return (await pool.query(sql)).rows[0] as T;
  } finally {
    await pool.end();
  }
}

export class ReplicatedPostgres implements Restartable {
  private link: TcpProxy | null = null;
  private standby: OwnPostgres | null = null;
  failovers = 0;

  private constructor(
    private readonly bin: string,
    private primary: OwnPostgres,
    private readonly front: TcpProxy,
    private readonly freePort: () => Promise<number>,
  ) {}

  static async start(bin: string, freePort: () => Promise<number>): Promise<ReplicatedPostgres> {
    const primary = new OwnPostgres(await freePort(), bin);
    await primary.initPrimary();
    const front = new TcpProxy(primary.port);
    await front.listen();
    const pair = new ReplicatedPostgres(bin, primary, front, freePort);
    await pair.newStandby();
    return pair;
  }

  /** The one address the service has: the primary of the moment. */
  get url(): string {
    return `postgres://postgres:soak@127.0.0.1:${this.front.port}/postgres`;
  }

  get dataDir(): string {
    return this.primary.dataDir;
  }

  /** A restart of the primary (the standby reconnects by itself). */
  stop(): Promise<void> {
    return this.primary.stop();
  }

  start(): Promise<void> {
    return this.primary.start();
  }

  /** Answers the WAL bytes the promoted standby never received. */
  async failover(): Promise<{ lostWalBytes: number }> {
    if (!this.standby || !this.link) throw new Error('no standby to promote');
    const standby = this.standby;
    this.link.cut();
    await sleep(1500); // the primary commits on: these are the commits a failover loses
    const { lsn, slots } = await one<{ lsn: string; slots: string }>(
      this.primary.url,
      `SELECT pg_current_wal_lsn()::text AS lsn, (SELECT string_agg(slot_name || ' ' || coalesce(restart_lsn::text, '-') || ' ' || active, ', ') FROM pg_replication_slots) AS slots`,
    );
    await this.primary.crash();
    const { received, replayed } = await one<{ received: string; replayed: string }>(
      standby.url,
      'SELECT coalesce(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn())::text AS received, pg_last_wal_replay_lsn()::text AS replayed',
    );
    // SOAK_LOG_DIR: where each side stood, beside the servers' own logs.
    if (process.env.SOAK_LOG_DIR)
      fs.appendFileSync(
        path.join(process.env.SOAK_LOG_DIR, 'failovers.log'),
        `${new Date().toISOString()} primary ${this.primary.port} at ${lsn} (slots ${slots}); standby ${standby.port} received ${received}, replayed ${replayed}\n`,
      );
    await one(standby.url, 'SELECT pg_promote(true, 60)');
    this.front.switchTo(standby.port);
    const { lost } = await one<{ lost: string }>(standby.url, `SELECT greatest(0, '${lsn}'::pg_lsn - '${received}'::pg_lsn)::bigint::text AS lost`);
    const old = this.primary;
    this.primary = standby;
    this.standby = null;
    await this.link.close();
    this.link = null;
    await old.destroy();
    this.failovers++;
    await this.newStandby();
    return { lostWalBytes: Number(lost) };
  }

  private async newStandby(): Promise<void> {
    this.link = new TcpProxy(this.primary.port);
    await this.link.listen();
    const standby = new OwnPostgres(await this.freePort(), this.bin);
    await standby.initStandby(this.link.port, `standby_${this.failovers}`);
    this.standby = standby;
  }

  async destroy(): Promise<void> {
    await this.front.close();
    await this.link?.close();
    await this.standby?.destroy();
    await this.primary.destroy();
  }
}
