/** One member of the Patroni cluster (./patroni.ts): its Patroni process, and the Postgres that Patroni runs. */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import type { MemberPorts } from './patroni-config';

export function postgresIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  return {
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  };
}

export function chownTree(dir: string): void {
  const ids = postgresIds();
  if (ids.uid === undefined) return;
  execFileSync('chown', ['-R', `${ids.uid}:${ids.gid}`, dir]);
}

export function spawnLogged(bin: string, args: string[], log: string, ids: { uid?: number; gid?: number } = {}, env: NodeJS.ProcessEnv = {}): ChildProcess {
  const fd = fs.openSync(log, 'a');
  const p = spawn(bin, args, { ...ids, stdio: ['ignore', fd, fd], env: { ...process.env, LC_ALL: 'C.UTF-8', ...env } });
  fs.closeSync(fd);
  p.on('error', () => undefined);
  return p;
}

export function exitOf(p: ChildProcess, sig: NodeJS.Signals): Promise<void> {
  const exited = new Promise<void>((r) => p.once('exit', () => r()));
  p.kill(sig);
  return exited;
}

export interface MemberState {
  name: string;
  role: string;
  state: string;
  timeline?: number;
  lag?: number | string;
}

export async function memberState(m: Member): Promise<MemberState[]> {
  const res = await fetch(`http://127.0.0.1:${m.ports.rest}/cluster`, { signal: AbortSignal.timeout(1000) });
  return ((await res.json()) as { members: MemberState[] }).members;
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone already
  }
}

/** Every process id under `pid` (itself first), from /proc. */
export function procTree(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const e of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      parent.set(Number(e), Number(fs.readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1].split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [child, p] of parent) if (p === out[i]) out.push(child);
  return out;
}

export function pidsOf(pid: number | undefined): number[] {
  return pid ? procTree(pid) : [];
}

export class Member {
  private proc: ChildProcess | null = null;

  constructor(
    readonly ports: MemberPorts,
    readonly dir: string,
    private readonly config: string,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'patroni.yml'), config);
    chownTree(dir);
  }

  /** Patroni started (again): it runs Postgres, bootstraps or copies it the first time. */
  start(): void {
    if (this.running) return;
    this.proc = spawnLogged('/usr/bin/patroni', [path.join(this.dir, 'patroni.yml')], path.join(this.dir, 'patroni.log'), postgresIds(), { HOME: this.dir });
  }

  get running(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** The postmaster's pid, from its data folder, while it runs. */
  postmaster(): number | null {
    try {
      const pid = Number(fs.readFileSync(path.join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 0);
      return pid;
    } catch {
      return null;
    }
  }

  /** The machine dies: Patroni and every Postgres process killed at once (SIGKILL). */
  kill(): void {
    const pm = this.postmaster();
    const pids = [...pidsOf(this.proc?.pid), ...pidsOf(pm ?? undefined)];
    for (const pid of pids) signal(pid, 'SIGKILL');
  }

  /** Patroni alone dies (SIGKILL); its Postgres runs on, still a primary, which nobody routes to any more. */
  killPatroni(): void {
    if (this.proc?.pid) signal(this.proc.pid, 'SIGKILL');
  }

  /** Patroni and Postgres stopped still (SIGSTOP), or let go on (SIGCONT): a partition, then its end. */
  freeze(on: boolean): void {
    const pm = this.postmaster();
    for (const pid of [...pidsOf(this.proc?.pid), ...pidsOf(pm ?? undefined)]) signal(pid, on ? 'SIGSTOP' : 'SIGCONT');
  }

  /** Patroni's own shutdown (SIGTERM): it stops Postgres (fast) and gives up the leader key. */
  async stop(): Promise<void> {
    if (this.running) await exitOf(this.proc!, 'SIGTERM');
    this.proc = null;
  }

  async destroy(): Promise<void> {
    this.freeze(false);
    const pm = this.postmaster();
    if (this.running) await exitOf(this.proc!, 'SIGKILL');
    for (const pid of pidsOf(pm ?? undefined)) signal(pid, 'SIGKILL');
  }
}

export const cmdline = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

/** One row of one statement on a connection of its own, or null when the server is not there. */
export async function one(url: string, sql: string): Promise<Record<string, any> | null> {
  // eslint-disable-line @typescript-eslint/no-explicit-any
  const pool = new Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 3000 });
  pool.on('error', () => undefined);
  try {
    return (await pool.query(sql)).rows[0] ?? null;
  } catch {
    return null;
  } finally {
    await pool.end().catch(() => undefined);
  }
}
