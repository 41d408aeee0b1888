/**
 * The embedded Postgres's process, seen from outside: who started it, whether it is left over from a service that
 * was killed (SIGKILL, an OOM kill, a container runtime that signals only its first process), how to stop it, and
 * a watcher that stops it when the service that started it dies.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import { EnvironmentError } from './environment';
import type { Logger } from './logger';

/** The service that started the postmaster of a data folder, written beside postmaster.pid. */
const OWNER_FILE = 'store-suppliers.owner';

interface Proc {
  state: string;
  ppid: number;
  startTime: string;
}

/** /proc/<pid>/stat: its state letter, parent and start time (null: no such process). */
function proc(pid: number): Proc | null {
  try {
    // The command sits in parentheses and may hold spaces: the fields after its closing one are fixed.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()!.split(' ');
    return { state: fields[0], ppid: Number(fields[1]), startTime: fields[19] };
  } catch {
    return null;
  }
}

/** Running, not a zombie waiting to be reaped (a reaper-less container keeps those). */
function alive(pid: number): boolean {
  const p = proc(pid);
  if (p) return p.state !== 'Z' && p.state !== 'X';
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid the folder's postmaster.pid names (null: no file, or no number in it). */
function namedPid(dir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Whether `pid` is a live postgres working in `dir` (Postgres's working folder is its data folder); null where /proc cannot tell. */
function worksIn(pid: number, dir: string): boolean | null {
  if (!fs.existsSync('/proc/self/cwd')) return null;
  if (!alive(pid)) return false;
  try {
    return fs.realpathSync(`/proc/${pid}/cwd`) === fs.realpathSync(dir);
  } catch {
    return false; // gone meanwhile, or not ours to look into: not a postmaster of this folder
  }
}

/** The postmaster running on `dir`, by its postmaster.pid. */
export function runningPostmaster(dir: string): number | null {
  const pid = namedPid(dir);
  return pid !== null && worksIn(pid, dir) ? pid : null;
}

/** Written once Postgres runs: this process started it. */
export function recordOwner(dir: string): void {
  fs.writeFileSync(path.join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid, startTime: proc(process.pid)?.startTime ?? null }));
}

/** Whether the service that started `postmaster` still runs and is still its parent. */
function ownerAlive(dir: string, postmaster: number): { pid: number } | null {
  let owner: { pid?: unknown; startTime?: unknown };
  try {
    owner = JSON.parse(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8'));
  } catch {
    owner = {};
  }
  const parent = proc(postmaster)?.ppid;
  if (typeof owner.pid !== 'number' || owner.pid !== parent || !alive(owner.pid)) return null;
  return owner.startTime === null || proc(owner.pid)?.startTime === owner.startTime ? { pid: owner.pid } : null;
}

/** Stops the postmaster: fast shutdown (SIGINT: sessions end, a checkpoint, a clean stop), then immediate if it hangs. */
export async function stopPostmaster(pid: number, fastMs = 30_000): Promise<void> {
  for (const [signal, waitMs] of [
    ['SIGINT', fastMs],
    ['SIGQUIT', 10_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return;
      throw new EnvironmentError(
        `An embedded Postgres (pid ${pid}) runs on this DATA_DIR and this process may not stop it: stop it yourself (or run the service as its user), then start again.`,
      );
    }
    for (const until = Date.now() + waitMs; Date.now() < until;) {
      if (!alive(pid)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new EnvironmentError(`The embedded Postgres left by an earlier run (pid ${pid}) did not stop: stop it yourself, then start again.`);
}

/**
 * Before a start: an embedded Postgres still running on this data folder is stopped when the service that started
 * it is gone (it was killed), and refused when that service still runs (two services on one DATA_DIR).
 */
export async function stopLeftover(dir: string, log: Logger): Promise<void> {
  const pid = namedPid(dir);
  if (pid === null) return;
  const running = worksIn(pid, dir);
  if (running === false) {
    // Left by a crash; after a reboot its pid may name another process, and Postgres would then refuse to start.
    fs.rmSync(path.join(dir, 'postmaster.pid'), { force: true });
    log.info({ pid }, 'stale postmaster.pid removed (no postgres runs on this folder)');
    return;
  }
  if (running === null) return;
  const owner = ownerAlive(dir, pid);
  if (owner)
    throw new EnvironmentError(
      `Another Store Suppliers process (pid ${owner.pid}) runs the embedded Postgres on this DATA_DIR: stop it first, or set DATA_DIR to another folder.`,
    );
  log.warn({ pid }, 'embedded postgres left running by a killed run: stopping it');
  await stopPostmaster(pid);
  log.info({ pid }, 'embedded postgres left by a killed run stopped');
}

/**
 * A tiny watcher (a shell reading a pipe only this process writes to): when the service dies however it dies, the
 * pipe closes, and the watcher stops the postmaster running in `dir`. Node cannot ask Linux to signal a child on its
 * parent's death (prctl PR_SET_PDEATHSIG), and a pipe's end is the one thing a SIGKILL cannot skip. Killed first on
 * a graceful stop, so it never acts after one.
 */
export function watchOverPostmaster(dir: string): ChildProcess {
  const real = fs.realpathSync(dir);
  const script = 'read line; p=$(head -n 1 "$1/postmaster.pid" 2>/dev/null); [ -n "$p" ] && [ "$(readlink "/proc/$p/cwd")" = "$1" ] && kill -INT "$p"';
  const watcher = spawn('/bin/sh', ['-c', script, 'store-suppliers-postgres-watch', real], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
  watcher.on('error', () => undefined);
  watcher.unref();
  // The pipe is a socket handle; unref'd it does not keep this process alive (the stream type does not show it).
  (watcher.stdin as Socket | null)?.unref();
  return watcher;
}
