/**
 * A Patroni cluster on one machine, from Debian's packages (installed by .ci/run): one etcd, three Patroni members
 * each running its own Debian PostgreSQL, HAProxy in front routing to the member whose Patroni answers /primary, and
 * optionally PgBouncer in transaction mode in front of HAProxy. Faults are made to the processes only: a member's
 * Patroni and Postgres killed, its Patroni alone killed, or the member frozen (a partition: it neither answers nor
 * refuses). Patroni alone decides which member leads; nothing here promotes or switches anything. A member that died
 * is started again afterwards, as a supervisor would, and Patroni makes it a replica (pg_rewind if needed).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../free-port';
import { haproxyConfig, type MemberPorts, patroniConfig, pgbouncerConfig } from './patroni-config';
import { chownTree, cmdline, exitOf, Member, memberState, type MemberState, one, postgresIds, procTree, signal, spawnLogged } from './patroni-member';

export type FailoverKind = 'node' | 'patroni' | 'freeze';

export interface ClusterOptions {
  synchronous?: boolean;
  password?: string;
  pgbouncer?: boolean;
  /** fsync on (the benchmark's): the tests' clusters run with it off, as the tests' other servers do. */
  fsync?: boolean;
}

/** The newest Debian PostgreSQL folder, or null. */
export function debianPostgres(): string | null {
  const system = '/usr/lib/postgresql';
  const versions = fs.existsSync(system)
    ? fs
        .readdirSync(system)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.map((v) => path.join(system, v, 'bin')).find((d) => fs.existsSync(path.join(d, 'pg_rewind'))) ?? null;
}

/** Whether the cluster can be made here: Patroni, etcd, HAProxy and a Debian PostgreSQL (PgBouncer when asked). */
export function clusterTools(pgbouncer = false): boolean {
  const bins = ['/usr/bin/patroni', '/usr/bin/etcd', '/usr/sbin/haproxy', ...(pgbouncer ? ['/usr/sbin/pgbouncer'] : [])];
  return bins.every((b) => fs.existsSync(b)) && debianPostgres() !== null;
}

export async function waitFor<T>(what: string, ms: number, fn: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`the cluster: ${what} (not within ${ms} ms)`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export class PatroniCluster {
  readonly members: Member[] = [];
  private etcd: ChildProcess | null = null;
  private haproxy: ChildProcess | null = null;
  private pgbouncer: ChildProcess | null = null;
  frontPort = 0;
  replicaPort = 0;
  bouncerPort = 0;
  failovers = 0;

  private constructor(
    readonly dir: string,
    readonly password: string,
    readonly synchronous: boolean,
  ) {}

  static async start(opts: ClusterOptions = {}): Promise<PatroniCluster> {
    const bin = debianPostgres();
    if (!bin || !clusterTools(opts.pgbouncer))
      throw new Error('No Patroni cluster here: install patroni, etcd-server, haproxy, pgbouncer and postgresql (.ci/run does).');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-patroni-'));
    fs.chmodSync(dir, 0o755);
    const c = new PatroniCluster(dir, opts.password ?? 'test', !!opts.synchronous);
    try {
      await c.boot(bin, opts);
    } catch (err) {
      await c.destroy();
      throw err;
    }
    return c;
  }

  private async boot(bin: string, opts: ClusterOptions): Promise<void> {
    const etcdPort = await freePort();
    const peer = await freePort();
    const etcdDir = path.join(this.dir, 'etcd');
    this.etcd = spawnLogged(
      '/usr/bin/etcd',
      [
        '--name',
        'e',
        '--data-dir',
        etcdDir,
        '--listen-client-urls',
        `http://127.0.0.1:${etcdPort}`,
        '--advertise-client-urls',
        `http://127.0.0.1:${etcdPort}`,
        '--listen-peer-urls',
        `http://127.0.0.1:${peer}`,
        '--initial-advertise-peer-urls',
        `http://127.0.0.1:${peer}`,
        '--initial-cluster',
        `e=http://127.0.0.1:${peer}`,
        '--enable-v2=true',
      ],
      path.join(this.dir, 'etcd.log'),
    );
    await waitFor('etcd up', 20000, async () => ((await fetch(`http://127.0.0.1:${etcdPort}/health`)).ok ? true : undefined));
    const ports: MemberPorts[] = [];
    for (const name of ['m1', 'm2', 'm3']) ports.push({ name, pg: await freePort(), rest: await freePort() });
    const settings = { scope: `ss${process.pid}`, etcdPort, password: this.password, synchronous: !!opts.synchronous, bin, fsync: !!opts.fsync };
    for (const p of ports) {
      const mdir = path.join(this.dir, p.name);
      this.members.push(new Member(p, mdir, patroniConfig(settings, p, mdir)));
    }
    // The first member bootstraps alone (initdb), the others then copy it: no race for the initialize key.
    this.members[0].start();
    await waitFor('a first leader', 60000, async () => ((await this.state()).find((m) => m.role === 'leader' && m.state === 'running') ? true : undefined));
    for (const m of this.members.slice(1)) m.start();
    this.frontPort = await freePort();
    this.replicaPort = await freePort();
    const cfg = path.join(this.dir, 'haproxy.cfg');
    fs.writeFileSync(cfg, haproxyConfig(ports, this.frontPort, this.replicaPort));
    this.haproxy = spawnLogged('/usr/sbin/haproxy', ['-f', cfg, '-db'], path.join(this.dir, 'haproxy.log'));
    if (opts.pgbouncer) await this.startBouncer();
    await this.healthy(120000);
  }

  private async startBouncer(): Promise<void> {
    this.bouncerPort = await freePort();
    const bdir = path.join(this.dir, 'pgbouncer');
    fs.mkdirSync(bdir);
    fs.writeFileSync(path.join(bdir, 'userlist.txt'), `"postgres" "${this.password}"\n`);
    fs.writeFileSync(path.join(bdir, 'pgbouncer.ini'), pgbouncerConfig(bdir, this.bouncerPort, this.frontPort));
    chownTree(bdir);
    // PgBouncer refuses to run as root.
    this.pgbouncer = spawnLogged('/usr/sbin/pgbouncer', [path.join(bdir, 'pgbouncer.ini')], path.join(bdir, 'stderr.log'), postgresIds());
    await waitFor('PgBouncer up', 20000, async () => ((await one(this.url(), 'SELECT 1 AS ok')) ? true : undefined));
  }

  /** The service's address: PgBouncer's when it runs, else HAProxy's primary. */
  url(database = 'postgres'): string {
    return `postgres://postgres:${this.password}@127.0.0.1:${this.bouncerPort || this.frontPort}/${database}`;
  }

  /** HAProxy's primary, without PgBouncer: for sessions (LISTEN) and the tests' own reads. */
  directUrl(database = 'postgres'): string {
    return `postgres://postgres:${this.password}@127.0.0.1:${this.frontPort}/${database}`;
  }

  memberUrl(name: string, database = 'postgres'): string {
    return `postgres://postgres:${this.password}@127.0.0.1:${this.member(name).ports.pg}/${database}`;
  }

  member(name: string): Member {
    return this.members.find((m) => m.ports.name === name)!;
  }

  /** The members as Patroni tells them (GET /cluster on the first member that answers). */
  async state(): Promise<MemberState[]> {
    for (const m of this.members) {
      const s = await memberState(m).catch(() => null);
      if (s) return s;
    }
    throw new Error('no Patroni member answers');
  }

  async leader(ms = 60000, not?: string): Promise<string> {
    return waitFor(
      `a leader${not ? ` other than ${not}` : ''}`,
      ms,
      async () => (await this.state()).find((m) => m.role === 'leader' && m.state === 'running' && m.name !== not)?.name,
    );
  }

  /** Every member running, the replicas streaming, and HAProxy's primary writable. */
  async healthy(ms = 120000): Promise<void> {
    await waitFor('every member running', ms, async () => {
      const s = await this.state();
      return s.length === this.members.length &&
        s.every((m) => ['running', 'streaming'].includes(m.state)) &&
        s.filter((m) => m.role === 'leader').length === 1 &&
        (!this.synchronous || s.some((m) => m.role === 'sync_standby'))
        ? true
        : undefined;
    });
    await waitFor('the primary through HAProxy', ms, async () =>
      (await one(this.directUrl(), 'SELECT NOT pg_is_in_recovery() AS ok'))?.ok ? true : undefined,
    );
  }

  /** The current WAL position of a member, in bytes, read on it directly. */
  async lsnOf(name: string): Promise<bigint> {
    return BigInt((await one(this.memberUrl(name), `SELECT (pg_current_wal_lsn() - '0/0')::bigint::text AS b`))!.b);
  }

  /**
   * The primary stops sending WAL (its walsenders frozen): what it commits from now on exists only there, as when the
   * network between it and its standbys fails. `false` lets them go on.
   */
  async freezeReplication(on: boolean): Promise<void> {
    const pm = this.member(await this.leader()).postmaster();
    for (const pid of pm ? procTree(pm).filter((p) => /walsender/.test(cmdline(p))) : []) signal(pid, on ? 'SIGSTOP' : 'SIGCONT');
  }

  /**
   * The leader fails (`node`: its Patroni and Postgres killed; `patroni`: its Patroni alone killed, Postgres left
   * running; `freeze`: both stopped still, a partition) and Patroni elects another. The failed member is then brought
   * back (started again, or let go on) and rejoins as a replica. Answers the WAL bytes of the old timeline that the
   * new leader never had (0 when a synchronous standby was promoted).
   */
  async failover(kind: FailoverKind, opts: { rejoin?: boolean } = {}): Promise<{ from: string; to: string; lostWalBytes: number; seconds: number }> {
    const from = await this.leader();
    const old = this.member(from);
    const started = Date.now();
    let lsn = await this.lsnOf(from);
    if (kind === 'node') old.kill();
    else if (kind === 'patroni') old.killPatroni();
    else old.freeze(true);
    const to = await this.leader(90000, from);
    const seconds = (Date.now() - started) / 1000;
    if (kind === 'patroni') lsn = await this.lsnOf(from).catch(() => lsn); // it took writes until HAProxy turned away
    const switchpoint = await waitFor("the new timeline's history", 30000, () => this.switchpoint(to));
    const lost = lsn > switchpoint ? Number(lsn - switchpoint) : 0;
    this.failovers++;
    if (opts.rejoin !== false) await this.rejoin(from, kind);
    return { from, to, lostWalBytes: lost, seconds };
  }

  /** Where the member's timeline branched off the previous one (its history file's last line), in bytes. */
  private async switchpoint(name: string): Promise<bigint | undefined> {
    const r = await one(
      this.memberUrl(name),
      `SELECT pg_read_file('pg_wal/' || lpad(upper(to_hex(timeline_id)), 8, '0') || '.history') AS h FROM pg_control_checkpoint() WHERE NOT pg_is_in_recovery()`,
    );
    const at = r?.h?.trim().split('\n').at(-1)?.split('\t')[1];
    if (!at) return undefined;
    const [hi, lo] = at.split('/').map((x: string) => BigInt(`0x${x}`));
    return (hi << 32n) + lo;
  }

  /** A failed member back: unfrozen, or its Patroni started again (it demotes or rewinds its Postgres itself). */
  async rejoin(name: string, kind: FailoverKind): Promise<void> {
    const m = this.member(name);
    if (kind === 'freeze') m.freeze(false);
    else m.start();
    await this.healthy(180000);
  }

  /** The whole cluster down (Patroni stops each Postgres: a fast shutdown, sessions cut), replicas first. */
  async stop(): Promise<void> {
    const leader = await this.leader(10000).catch(() => null);
    for (const m of [...this.members].sort((a) => (a.ports.name === leader ? 1 : -1))) await m.stop();
  }

  async start(): Promise<void> {
    for (const m of this.members) m.start();
    await this.healthy(180000);
  }

  get dataDir(): string {
    return this.dir;
  }

  async destroy(): Promise<void> {
    for (const m of this.members) await m.destroy();
    for (const p of [this.pgbouncer, this.haproxy, this.etcd]) if (p && p.exitCode === null && p.signalCode === null) await exitOf(p, 'SIGKILL');
    if (!process.env.PATRONI_KEEP) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export { one };
