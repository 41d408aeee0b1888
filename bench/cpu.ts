/**
 * CPU time of the processes a benchmark drives, read from /proc/<pid>/stat before and after a load: unlike
 * requests per second, the CPU a request costs holds on a machine other work shares.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { Pool } from 'pg';

let tickUs: number | undefined;
/** One clock tick of /proc/<pid>/stat in µs (CLK_TCK, 100 on Linux). */
function tick(): number {
  if (tickUs === undefined) {
    const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    tickUs = 1e6 / (hz > 0 ? hz : 100);
  }
  return tickUs;
}

/** Fields 3 on of /proc/<pid>/stat (after the command name, which may hold spaces), or null once the process is gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** User and system CPU time the process has used so far, in µs (`withReaped`: plus its children that ended). */
function cpuSplit(pid: number, withReaped = false): { user: number; system: number } {
  const f = statFields(pid);
  if (!f) return { user: 0, system: 0 };
  // utime, stime (fields 14, 15); cutime, cstime (16, 17): children that ended and were waited for.
  const user = Number(f[11]) + (withReaped ? Number(f[13]) : 0);
  const system = Number(f[12]) + (withReaped ? Number(f[14]) : 0);
  return { user: user * tick(), system: system * tick() };
}

/** User + system CPU time the process has used so far, in µs. */
export function cpuUs(pid: number, withReaped = false): number {
  const { user, system } = cpuSplit(pid, withReaped);
  return user + system;
}

let postgresDataDir: string | null = null;
let postmaster: number | null = null;

/** Points database CPU figures at the embedded Postgres whose data lives in `dataDir` (none with DATABASE_URL). */
export function watchPostgres(dataDir: string | null): void {
  postgresDataDir = dataDir;
  postmaster = null;
}

/** The postmaster: the `postgres` process started on that data directory (looked for until found). */
function findPostmaster(): number | null {
  if (postmaster !== null && statFields(postmaster)) return postmaster;
  postmaster = null;
  if (!postgresDataDir) return null;
  for (const pid of processes()) {
    const cmd = readCmdline(pid);
    if (cmd[0]?.endsWith('/postgres') && cmd.includes(postgresDataDir)) postmaster = pid;
  }
  return postmaster;
}

function processes(): number[] {
  return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
}

function readCmdline(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** CPU the whole Postgres server has used so far (postmaster, its live backends, and those that ended), in µs. */
export function databaseCpuUs(): number | null {
  const server = findPostmaster();
  if (server === null) return null;
  let total = cpuUs(server, true);
  for (const pid of processes()) {
    const f = statFields(pid);
    if (f && Number(f[1]) === server) total += cpuUs(pid);
  }
  return total;
}

let statementsDb: Pool | null = null;

/**
 * Counts the statements run in the database at `url` from now on (pg_stat_statements, which the embedded
 * Postgres preloads; without it the counts are left out).
 */
export async function countStatements(url: string): Promise<void> {
  await statementsDb?.end();
  statementsDb = new Pool({ connectionString: url, max: 1 });
  try {
    await statementsDb.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await statementsDb.query('SELECT count(*) FROM pg_stat_statements');
  } catch {
    await statementsDb.end();
    statementsDb = null;
  }
}

export async function stopCountingStatements(): Promise<void> {
  await statementsDb?.end();
  statementsDb = null;
}

/** Statements completed so far in that database; each call counts itself once, afterwards (taken off in `metered`). */
async function statements(): Promise<number | null> {
  if (!statementsDb) return null;
  const r = await statementsDb.query('SELECT coalesce(sum(calls), 0)::bigint AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())');
  return Number(r.rows[0].n);
}

/** What one side of a comparison cost: CPU per request of its process and of the database, over its load windows. */
export interface CpuUse {
  requests: number;
  /** User + system time of the process; `processSystemUs` the system (kernel) part of it. */
  processUs: number;
  processSystemUs: number;
  databaseUs: number | null;
  /** The benchmark process itself (the load generator, autocannon), which shares the machine. */
  generatorUs: number;
  /** SQL statements run in the benchmark's database (pg_stat_statements), when counted. */
  statements: number | null;
  /** Monotonic µs (the clock of V8's profiles) of each load window, to cut the process's CPU profile to them. */
  windows: Array<[number, number]>;
  /** Where the process wrote its CPU profile, when it ran with one. */
  profileDir?: string;
}

export const perRequest = (use: CpuUse, of: 'processUs' | 'processSystemUs' | 'databaseUs' | 'generatorUs' | 'statements'): number | null => {
  const v = use[of];
  return v === null || !use.requests ? null : v / use.requests;
};

export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** Runs `work` while metering `pid` and the database; adds what it used to `into`. */
export async function metered<T extends { total: number }>(pid: number | undefined, into: CpuUse, work: () => Promise<T>): Promise<T> {
  const s0 = await statements();
  const p0 = pid ? cpuSplit(pid) : { user: 0, system: 0 };
  const d0 = databaseCpuUs();
  const g0 = process.cpuUsage();
  const t0 = monotonicUs();
  const out = await work();
  const t1 = monotonicUs();
  const g1 = process.cpuUsage(g0);
  const d1 = databaseCpuUs();
  const s1 = await statements();
  const p1 = pid ? cpuSplit(pid) : p0;
  into.processUs += p1.user + p1.system - p0.user - p0.system;
  into.processSystemUs += p1.system - p0.system;
  if (s0 !== null && s1 !== null) into.statements = (into.statements ?? 0) + s1 - s0 - 1;
  into.generatorUs += g1.user + g1.system;
  if (d0 !== null && d1 !== null) into.databaseUs = (into.databaseUs ?? 0) + d1 - d0;
  into.requests += out.total;
  into.windows.push([t0, t1]);
  return out;
}

export const emptyUse = (profileDir?: string): CpuUse => ({ requests: 0, processUs: 0, processSystemUs: 0, databaseUs: null, generatorUs: 0, statements: null, windows: [], profileDir });
