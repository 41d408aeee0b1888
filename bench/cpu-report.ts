/** The CPU part of docs/benchmarks.md: per figure, CPU per unit of work, its ratio, and the profile's breakdown. */
import fs from 'node:fs';
import { CpuUse, perRequest } from './cpu';
import type { Figure } from './lib';
import { breakdown, describe, Spent } from './profile';

const us = (x: number | null): string => (x === null ? '–' : `${x.toLocaleString('en', { maximumFractionDigits: x < 100 ? 1 : 0 })} µs`);

/** The profile's breakdown of one side (figures of one service share its profile, cut to their own windows). */
function spent(use: CpuUse | undefined): Spent | null {
  if (!use?.profileDir || !use.requests) return null;
  const shares = breakdown(use.profileDir, use.windows);
  if (!shares) return null;
  return { shares, userUs: (use.processUs - use.processSystemUs) / use.requests, systemUs: use.processSystemUs / use.requests };
}

/** Profiles written into folders of the benchmark's own are removed once read (BENCH_PROF keeps them). */
function removeProfiles(figures: Figure[]): void {
  if (process.env.BENCH_PROF) return;
  for (const f of figures) for (const use of [f.cpu?.service, f.cpu?.bare]) if (use?.profileDir) fs.rmSync(use.profileDir, { recursive: true, force: true });
}

export function cpuSection(figures: Figure[]): string[] {
  const withCpu = figures.filter((f) => f.cpu);
  if (!withCpu.length) return [];
  const rows = withCpu.map((f) => {
    const { service, bare, per } = f.cpu!;
    const s = perRequest(service, 'processUs')!;
    const b = bare ? perRequest(bare, 'processUs') : null;
    const db = (u: CpuUse | undefined) => (u ? us(perRequest(u, 'databaseUs')) : '–');
    const ratio = b === null ? '–' : (b / s).toFixed(2);
    const n = (u: CpuUse | undefined) => (u?.statements == null ? '–' : perRequest(u, 'statements')!.toFixed(2));
    return `| ${f.name} | ${per} | ${us(s)} | ${us(b)} | ${ratio} | ${db(service)} / ${db(bare)} | ${n(service)} / ${n(bare)} | ${us(perRequest(service, 'generatorUs'))} | ${f.ratio.toFixed(2)} |`;
  });
  const notes = withCpu.map((f) => {
    const { service, bare, per } = f.cpu!;
    const own = spent(service);
    const theirs = spent(bare);
    if (!own) return `- **${f.name}**: no profile.`;
    return `- **${f.name}**: the service's ${us(perRequest(service, 'processUs'))} per ${per}: ${describe(own, theirs)}.`;
  });
  removeProfiles(figures);
  return [
    '## CPU per unit of work',
    '',
    "CPU time (user + system) of the service process, read from `/proc/<pid>/stat` before and after each load round (10 ms ticks), divided by the requests answered in those rounds; the same for the baseline's process (the bare route's own process, or the service answering `/healthz` for notifications). Unlike requests per second, this holds on a machine shared with other work. CPU ratio = baseline ÷ service (1: the service spends no more than the bare route). Postgres: the whole embedded server (postmaster, backends, and backends that ended) over the same rounds. SQL statements: those completed in the benchmark's database in the same rounds (pg_stat_statements, preloaded by the benchmark's embedded Postgres), per unit. Load generator: the benchmark process itself (autocannon), which shares the cores. Request paths run the service with role `api`.",
    '',
    '| Figure | Per | Service CPU | Baseline CPU | CPU ratio (baseline ÷ service) | Postgres CPU (service / baseline) | SQL statements (service / baseline) | Load generator CPU | req/s ratio |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    "Where the service's CPU goes: a `--cpu-prof` profile of the service (and of the bare route's process) cut to the load rounds; each busy sample goes to the first known code from the sampled frame outwards (logging: pino; metrics: prom-client; validation: ajv; SQL: pg, typeorm, the domains' sql.ts and pagination; serialisation: koa-body and JSON outside the logger and pg; pipeline: Koa, the router and server/platform/http; domain: the rest of server/; HTTP (Node): Node's own HTTP and sockets; GC; other: V8 and native work with no JavaScript frame). The profiler samples the main thread by the wall clock, so a thread pre-empted inside a socket write (by the reader it just woke, on a busy machine) shows there far longer than it ran: native writes are left out of the shares, and the kernel's part is /proc's system time, given as its own line. The shares of the rest are scaled to /proc's user time (which also counts GC and other helper threads), in µs per unit, sorted by the difference to the baseline.",
    '',
    ...notes,
    '',
  ];
}
