/**
 * What a piece of work costs, in measures that hold on a shared machine: CPU time of a process (from /proc, not
 * wall time) and SQL statements counted by Postgres itself (pg_stat_statements, per database role), so the service's
 * statements are told apart from the benchmark's own.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import type { Pool } from 'pg';

const TICKS = (() => {
  try {
    return Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Fields after the process name (which may hold spaces): state is [0], ppid [1], utime [11], stime [12], cutime [13], cstime [14]. */
function statFields(pid: number): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // gone
  }
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSecondsOf(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) / TICKS : 0;
}

/** CPU seconds a process has spent in the kernel (system calls: sockets, pipes) so far. */
export function systemSecondsOf(pid: number): number {
  const f = statFields(pid);
  return f ? Number(f[12]) / TICKS : 0;
}

/**
 * CPU seconds of a Postgres server: the postmaster with its ended children (reaped into its cutime and cstime),
 * plus every backend alive now. A connection that ends during a measurement brings its whole life along, so
 * long-lived pools (the service's) measure exactly.
 */
export function postgresCpuSeconds(postmasterPid: number): number {
  const own = statFields(postmasterPid);
  if (!own) return 0;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (f && Number(f[1]) === postmasterPid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / TICKS;
}

/** The role a benchmark's process connects as, so that Postgres counts its statements apart. */
export async function countedRole(admin: Pool, databaseUrl: string, role: string): Promise<string> {
  await admin.query(`DO $$ BEGIN CREATE ROLE ${role} LOGIN SUPERUSER PASSWORD 'bench'; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
  if (process.env.BENCH_STATEMENTS === 'all')
    await admin.query(`ALTER ROLE ${role} SET pg_stat_statements.track = 'all'; ALTER ROLE ${role} SET pg_stat_statements.track_planning = on`);
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements').catch(() => undefined);
  const u = new URL(databaseUrl);
  u.username = role;
  u.password = 'bench';
  return u.toString();
}

/** Statements a role has run in this database so far (every round trip: queries, BEGIN, COMMIT, LISTEN); null without pg_stat_statements. */
export async function statementsOf(db: Pool, role: string): Promise<number | null> {
  try {
    const { rows } = await db.query(
      `SELECT coalesce(sum(calls), 0)::bigint AS n FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
        WHERE r.rolname = $1 AND s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [role],
    );
    return Number(rows[0].n);
  } catch {
    return null;
  }
}

export interface Cost {
  wallSeconds: number;
  /** CPU seconds of the measured process (the service, or the benchmark's own for an in-process baseline). */
  cpuSeconds: number;
  /** The part of it spent in the kernel. */
  systemSeconds: number;
  postgresCpuSeconds: number;
  /** CPU seconds of the benchmark process (load generator, sandbox supplier, pollers). */
  benchCpuSeconds: number;
  statements: number | null;
}

/** Starts measuring now; `stop` answers what was used since. */
export async function meter(o: { pid?: number; postmasterPid?: number; db: Pool; role: string }): Promise<{ stop(): Promise<Cost> }> {
  const bench = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const cpu = () => (o.pid ? cpuSecondsOf(o.pid) : bench());
  const sys = () => (o.pid ? systemSecondsOf(o.pid) : process.cpuUsage().system / 1e6);
  const pg = () => (o.postmasterPid ? postgresCpuSeconds(o.postmasterPid) : 0);
  const t0 = Date.now();
  const [c0, k0, p0, b0, s0] = [cpu(), sys(), pg(), bench(), await statementsOf(o.db, o.role)];
  return {
    stop: async () => {
      const s1 = await statementsOf(o.db, o.role);
      return {
        wallSeconds: (Date.now() - t0) / 1000,
        cpuSeconds: cpu() - c0,
        systemSeconds: sys() - k0,
        postgresCpuSeconds: pg() - p0,
        benchCpuSeconds: bench() - b0,
        statements: s0 === null || s1 === null ? null : s1 - s0,
      };
    },
  };
}

/** "service 41.2 s CPU, Postgres 60.3 s, bench 20.1 s in 80.0 s wall (2 cores: 160 s)": where the machine's time went. */
export function cpuSplit(c: Cost, cores: number, label = 'service'): string {
  const s = (x: number) => `${x.toFixed(1)} s`;
  return `${label} ${s(c.cpuSeconds)} CPU (${s(c.systemSeconds)} of it in the kernel), Postgres ${s(c.postgresCpuSeconds)}, bench process ${s(c.benchCpuSeconds)}, in ${s(c.wallSeconds)} wall (${cores} cores: ${s(c.wallSeconds * cores)} available)`;
}

/**
 * The statements a role ran, by the time Postgres spent on them (for a look at where it goes: BENCH_STATEMENTS=1;
 * BENCH_STATEMENTS=all also counts the statements triggers and functions run, see countedRole).
 */
export async function topStatements(db: Pool, role: string, n = 15): Promise<Array<{ calls: number; ms: number; planMs: number; query: string }>> {
  const { rows } = await db.query(
    `SELECT calls::int, round(total_exec_time)::int AS ms, round(total_plan_time)::int AS "planMs", left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS query
       FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
      WHERE r.rolname = $1 AND s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT $2`,
    [role, n],
  );
  return rows;
}

/** Resident memory of a process now, in MB. */
export function rssMbOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Samples a process's resident memory every 200 ms; `stop` answers the peak in MB. */
export function rssPeak(pid: number): { stop(): number } {
  let peak = rssMbOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMbOf(pid))), 200);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, rssMbOf(pid));
    },
  };
}
