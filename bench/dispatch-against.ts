/**
 * `npm run bench -- dispatch-against`: this build's dispatch against other commits' builds (bench/builds.ts), in one
 * run, rounds alternating (A B B A, or A B C C B A), each on a fresh database with its own service and sandbox:
 * 10,000 parts over 10 stores, and 10,000 parts in one store (the worst case for anything kept per store).
 * BENCH_AGAINST names the commits (comma-separated; default b552fc1, the last commit before issues 40-45),
 * BENCH_AGAINST_ROUNDS the rounds per build (default 2), BENCH_AGAINST_SHAPES which of the two shapes (`10x1000,1x10000`).
 */
import { Pool } from 'pg';
import { startBoss } from '../server/platform/jobs';
import { createLogger } from '../server/platform/logger';
import { DISPATCH_QUEUE } from '../server/dispatch/queues';
import { builtCommit, serviceFlagsOf } from './builds';
import { countedRole, meter } from './cost';
import { checkOnce, drain, partsOf, queueParts, sentOf, shops } from './dispatch-shop';
import { atCommit, sampleWaits, splitOf, type Waits } from './dispatch-waits';
import { benchPostgres, developerKey, type Figure, freshDatabase, startBenchSandbox, startBenchService } from './lib';

const SERVICE_ROLE = 'bench_dispatch_service';
const COMMAND = 'npm run bench -- dispatch-against';
const FULL_RUN_MS = Number(process.env.BENCH_DISPATCH_FULL_RUN_MS ?? 900_000);

interface Build {
  label: string;
  build?: { root: string; flags: string[] };
}
interface Shape {
  stores: number;
  parts: number;
}
interface Round {
  perSecond: number;
  cpuMs: number;
  statements: number;
  execMs: number;
  postgresCpuMs: number;
  waits: Waits;
  /** The statements that took the most execution time, per part. */
  top: Array<{ id: string; query: string; calls: number; ms: number }>;
}

/** One round: a fresh database, this build's or another's service, the shops seeded, every part dispatched and checked. */
async function round(adminUrl: string, b: Build, shape: Shape): Promise<Round> {
  const url = await freshDatabase(adminUrl, 'against');
  const sandbox = await startBenchSandbox();
  const admin = new Pool({ connectionString: url, max: 1 });
  const serviceUrl = await countedRole(admin, url, SERVICE_ROLE);
  const svc = await startBenchService(url, { SUPPLIER_TIMEOUT_MS: '3000', DATABASE_URL: serviceUrl }, { sandboxUrl: sandbox.baseUrl, build: b.build });
  const boss = await startBoss(svc.databaseUrl, [], createLogger('silent'), { supervise: false, schedule: false, superviseSeconds: 30 });
  try {
    const key = (await developerKey(svc)).key;
    const many = await shops(svc, sandbox, shape.stores, shape.parts / shape.stores, { key, products: 10 });
    await svc.db.query('SELECT pg_stat_statements_reset()');
    const m = await meter({ pid: svc.pid, postmasterPid: benchPostgres.postmasterPid, db: svc.db, role: SERVICE_ROLE });
    const sampler = await sampleWaits(url, SERVICE_ROLE);
    await queueParts(boss, svc.db, DISPATCH_QUEUE, partsOf(many));
    const run = await drain(sentOf(svc.db, many), shape.parts, FULL_RUN_MS);
    const cost = await m.stop();
    const waits = await sampler.stop();
    const { rows: statements } = await svc.db.query<{ id: string; query: string; calls: string; ms: number }>(
      `SELECT queryid::text AS id, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query, calls, total_exec_time::float8 AS ms FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid
        WHERE r.rolname = $1 AND s.dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC`,
      [SERVICE_ROLE],
    );
    const ms = statements.reduce((a, r) => a + Number(r.ms), 0);
    const top = statements
      .slice(0, 4)
      .map((r) => ({ id: r.id, query: r.query, calls: Number(r.calls) / Math.max(1, run.done), ms: Number(r.ms) / Math.max(1, run.done) }));
    await checkOnce(svc.db, sandbox, many);
    const per = (x: number) => x / Math.max(1, run.done);
    return {
      perSecond: run.perSecond,
      cpuMs: per(cost.cpuSeconds * 1000),
      statements: per(cost.statements ?? NaN),
      execMs: per(ms),
      postgresCpuMs: per(cost.postgresCpuSeconds * 1000),
      waits,
      top,
    };
  } finally {
    await boss.stop({ graceful: false }).catch(() => undefined);
    await svc.stop();
    await admin.end();
    await sandbox.close();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const fmt = (x: number, d = 2) => x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d });

/** Each build's statements that took the most execution time (its first round), per part, split into work and waiting by their samples. */
function topRows(builds: Build[], rounds: Round[][]): string[] {
  const out = [
    "| Build | Statement (shortened) | Calls per part | Exec ms per part | Exec ms per call: work, waiting, and its commit's waits |",
    '|---|---|---|---|---|',
  ];
  rounds.forEach((rs, i) => {
    for (const t of rs[0].top)
      out.push(
        `| ${builds[i].label} | \`${t.query.replace(/\|/g, '\\|').replace(/`/g, "'")}…\` | ${fmt(t.calls)} | ${fmt(t.ms)} | ${splitOf(rs[0].waits, t.id, t.ms / Math.max(1e-9, t.calls))} |`,
      );
  });
  return out;
}

/** The builds' waits side by side: each wait's mean number of backends in it, its share of the active backends. */
function waitRows(builds: Build[], rounds: Round[][]): string[] {
  const of = (rs: Round[]) => {
    const m = new Map<string, number>();
    let samples = 0;
    for (const r of rs) {
      samples += r.waits.samples;
      for (const [k, n] of r.waits.byWhat) m.set(k, (m.get(k) ?? 0) + n);
    }
    return { m, samples, all: [...m.values()].reduce((a, b) => a + b, 0) };
  };
  const per = rounds.map(of);
  const keys = [...new Set(per.flatMap((p) => [...p.m.keys()]))]
    .map((k) => ({ k, n: Math.max(...per.map((p) => (p.m.get(k) ?? 0) / Math.max(1, p.all))) }))
    .filter((x) => x.n >= 0.01)
    .sort((a, b) => b.n - a.n);
  const cell = (p: ReturnType<typeof of>, k: string) =>
    `${fmt((p.m.get(k) ?? 0) / Math.max(1, p.samples))} (${((100 * (p.m.get(k) ?? 0)) / Math.max(1, p.all)).toFixed(0)} %)`;
  return [
    `| Wait event (\`work\`: none) | ${builds.map((b) => `${b.label}: backends (share)`).join(' | ')} |`,
    `|---|${builds.map(() => '---|').join('')}`,
    ...keys.map(({ k }) => `| ${k}${atCommit(k) ? ' (at commit)' : ''} | ${per.map((p) => cell(p, k)).join(' | ')} |`),
    `| **All active backends** | ${per.map((p) => fmt(p.all / Math.max(1, p.samples))).join(' | ')} |`,
  ];
}

export async function dispatchAgainst(databaseUrl: string): Promise<Figure[]> {
  const adminUrl = Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString();
  const commits = (process.env.BENCH_AGAINST ?? 'b552fc1')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);
  const builds: Build[] = [
    { label: 'this build' },
    ...commits.map((c) => {
      const b = builtCommit(c);
      return { label: `\`${b.commit.slice(0, 7)}\``, build: { root: b.root, flags: serviceFlagsOf(b.root) } };
    }),
  ];
  const perBuild = Number(process.env.BENCH_AGAINST_ROUNDS ?? 2);
  // A B B A …: each build as often first as last, so a drift of the machine's load falls on all alike.
  const order = Array.from({ length: perBuild }, (_, i) => (i % 2 ? [...builds].reverse() : builds)).flat();
  const shapes = (process.env.BENCH_AGAINST_SHAPES ?? '10x1000,1x10000').split(',').map((s) => {
    const [stores, each] = s.split('x').map(Number);
    return { stores, parts: stores * each };
  });
  const figures: Figure[] = [];
  for (const shape of shapes) {
    const rounds = builds.map(() => [] as Round[]);
    for (const b of order) {
      process.stderr.write(`bench: dispatch-against ${b.label} ${shape.stores} × ${shape.parts / shape.stores}\n`);
      const r = await round(adminUrl, b, shape);
      rounds[builds.indexOf(b)].push(r);
      // Each round as it ends, so a run cut short still says what it measured.
      process.stderr.write(
        `bench:   ${Math.round(r.perSecond)} parts/s, service ${fmt(r.cpuMs)} ms CPU, ${fmt(r.statements)} statements, Postgres ${fmt(r.execMs)} ms execution and ${fmt(r.postgresCpuMs)} ms CPU, per part\n`,
      );
    }
    const name =
      shape.stores === 1
        ? `${shape.parts.toLocaleString('en')} parts in one store (its one connection)`
        : `${shape.parts.toLocaleString('en')} parts (${shape.stores} stores × ${(shape.parts / shape.stores).toLocaleString('en')})`;
    const measures: Array<[string, (r: Round) => number, number, string]> = [
      ['Parts dispatched per second', (r) => r.perSecond, 0, 'ratio ≥ 0.95'],
      ['Service CPU per part (ms)', (r) => r.cpuMs, 2, '≤ 0.85'],
      ['Statements per part', (r) => r.statements, 2, '≤ 3.05'],
      ['Postgres execution time per part, all statements (ms)', (r) => r.execMs, 2, '≤ 4.5'],
      ['Postgres CPU per part (ms)', (r) => r.postgresCpuMs, 2, ''],
    ];
    const cells = (f: (r: Round) => number, d: number) => rounds.map((rs) => `${fmt(mean(rs.map(f)), d)} (${rs.map((r) => fmt(f(r), d)).join(', ')})`);
    const ratio = (f: (r: Round) => number, i: number) => mean(rounds[0].map(f)) / Math.max(1e-9, mean(rounds[i].map(f)));
    const [head, base] = [builds[0], builds[1]];
    figures.push({
      name: `Dispatch of ${name}, no added supplier latency, against ${base.label}`,
      subject: {
        value: Math.round(mean(rounds[0].map((r) => r.perSecond))),
        unit: `parts/s (mean of ${perBuild} rounds: ${rounds[0].map((r) => Math.round(r.perSecond)).join(', ')})`,
      },
      baseline: { value: Math.round(mean(rounds[1].map((r) => r.perSecond))), unit: `parts/s (${rounds[1].map((r) => Math.round(r.perSecond)).join(', ')})` },
      baselineLabel: `the same dispatch by the service built from ${base.label} (bench/builds.ts), rounds alternating with this build's in the same run`,
      ratio: ratio((r) => r.perSecond, 1),
      command: `BENCH_AGAINST=${commits.join(',')} ${COMMAND}`,
      notes:
        `Goal ≥ 0.95. Each round: a fresh database, the build's service (its own Node flags, role \`all\`, default dispatch slots) and a fresh sandbox, ${name} seeded as the dispatch benchmark seeds them, the jobs queued in one go, counted until every part left \`queued\`, then checked (each part ordered exactly once at the sandbox). ` +
        `Service CPU per part: ${rounds.map((rs, i) => `${builds[i].label} ${fmt(mean(rs.map((r) => r.cpuMs)))} ms`).join(', ')}; statements per part: ${rounds.map((rs, i) => `${builds[i].label} ${fmt(mean(rs.map((r) => r.statements)))}`).join(', ')}; ` +
        `Postgres execution time per part: ${rounds.map((rs, i) => `${builds[i].label} ${fmt(mean(rs.map((r) => r.execMs)))} ms`).join(', ')} (the section "Dispatch against other builds" has every round).`,
    });
    const section = figures.find((f) => f.section?.id === 'dispatch-against')?.section ?? {
      id: 'dispatch-against',
      title: 'Dispatch against other builds (same run, rounds alternating)',
      lines: [],
    };
    section.lines.push(
      `### ${name}, no added supplier latency (\`${figures[figures.length - 1].command}\`)`,
      '',
      `Order of the rounds: ${order.map((b) => b.label).join(', ')}. Each cell: the mean, then each round. Ratio: ${head.label} ÷ each other build (for time and counts below 1 is better).`,
      '',
      `| Measure | ${builds.map((b) => b.label).join(' | ')} | ${builds
        .slice(1)
        .map((b) => `Ratio to ${b.label}`)
        .join(' | ')} | Goal |`,
      `|---|${builds.map(() => '---|').join('')}${builds
        .slice(1)
        .map(() => '---|')
        .join('')}---|`,
      ...measures.map(
        ([label, f, d, goal]) =>
          `| ${label} | ${cells(f, d).join(' | ')} | ${builds
            .slice(1)
            .map((_, i) => fmt(ratio(f, i + 1)))
            .join(' | ')} | ${goal} |`,
      ),
      '',
      "The service's backends meanwhile (pg_stat_activity every 25 ms, as in the per-statement section): the mean number of active backends in each wait event, and its share of all active backends.",
      '',
      ...waitRows(builds, rounds),
      '',
      "Each build's four statements that took the most execution time (pg_stat_statements, its first round), their time split by their own samples into work and waiting, as in the per-statement section:",
      '',
      ...topRows(builds, rounds),
      '',
    );
    if (!figures.some((f) => f.section === section)) figures[0].section = section;
  }
  return figures;
}
