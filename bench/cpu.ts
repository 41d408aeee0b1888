/**
 * CPU time of the processes a benchmark drives, read from /proc/<pid>/stat before and after a load: unlike
 * requests per second, the CPU a request costs holds on a machine other work shares.
 */
import { Pool } from 'pg';
import { postgresCpuSeconds, systemSecondsOf, cpuSecondsOf } from './cost';

/** The embedded Postgres's postmaster, whose CPU time the cost figures read (none with DATABASE_URL). */
export const benchPostgres: { postmasterPid?: number } = {};

/** User and system CPU time the process has used so far, in µs (bench/cost.ts reads /proc). */
function cpuSplit(pid: number): { user: number; system: number } {
  const system = systemSecondsOf(pid) * 1e6;
  return { user: cpuSecondsOf(pid) * 1e6 - system, system };
}

/** CPU the whole embedded Postgres has used so far, in µs; null with DATABASE_URL (no postmaster of ours). */
function databaseCpuUs(): number | null {
  return benchPostgres.postmasterPid ? postgresCpuSeconds(benchPostgres.postmasterPid) * 1e6 : null;
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
  const r = await statementsDb.query(
    'SELECT coalesce(sum(calls), 0)::bigint AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())',
  );
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

export const emptyUse = (profileDir?: string): CpuUse => ({
  requests: 0,
  processUs: 0,
  processSystemUs: 0,
  databaseUs: null,
  generatorUs: 0,
  statements: null,
  windows: [],
  profileDir,
});
