/**
 * The dispatch guard: 1,000 parts (2 stores × 500, no added supplier latency), and the SQL statements the service ran
 * per part, counted by Postgres (pg_stat_statements, the service's own role), as in the 10,000-part figure.
 * - `npm run bench -- dispatch-guard`: its figure in docs/benchmarks.md, against 1,000 no-op jobs through the same runner.
 * - `node dist/bench/dispatch-guard.js` (CI, `.ci/run`): the same run without the no-op jobs; it fails when statements
 *   per part rise above the documented figure (that row of docs/benchmarks.md) by more than 0.2, and writes
 *   dist/dispatch-guard-results.json ({ passed, failed, skipped }). Statements are a count: they hold on a loaded machine.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { DISPATCH_QUEUE, DISPATCH_QUEUES } from '../server/dispatch/queues';
import { JobRunner } from '../server/platform/job-runner';
import { startBoss } from '../server/platform/jobs';
import { createLogger } from '../server/platform/logger';
import { countedRole, meter, topStatements } from './cost';
import { stopCountingStatements } from './cpu';
import { checkOnce, drain, partsOf, queueParts, RUNNER_OPTIONS, sentOf, shops } from './dispatch-shop';
import { benchDatabase, benchPostgres, developerKey, type Figure, freshDatabase, startBenchSandbox, startBenchService } from './lib';

export const GUARD_FIGURE = 'SQL statements of the service per dispatched part, 1,000 parts over 2 stores (the CI guard)';
/** How far above the documented figure CI lets statements per part rise. */
export const GUARD_MARGIN = 0.2;
const SERVICE_ROLE = 'bench_dispatch_service';
const NOOP_ROLE = 'bench_dispatch_noop';
const root = path.resolve(__dirname, '../..');

/** The 1,000 parts dispatched, checked once at the sandbox; statements per part (and, for the benchmark, per no-op job). */
async function measure(
  databaseUrl: string,
  withNoop: boolean,
): Promise<{ perPart: number; statements: number; parts: number; seconds: number; noop?: { perJob: number; statements: number } }> {
  const sandbox = await startBenchSandbox();
  const admin = new Pool({ connectionString: databaseUrl, max: 1 });
  const svc = await startBenchService(
    databaseUrl,
    { SUPPLIER_TIMEOUT_MS: '3000', DATABASE_URL: await countedRole(admin, databaseUrl, SERVICE_ROLE) },
    { sandboxUrl: sandbox.baseUrl },
  );
  const boss = await startBoss(svc.databaseUrl, [], createLogger('silent'), { supervise: false, schedule: false, superviseSeconds: 30 });
  try {
    const two = await shops(svc, sandbox, 2, 500, { key: (await developerKey(svc)).key, products: 10 });
    let noop: { perJob: number; statements: number } | undefined;
    if (withNoop) {
      await boss.createQueue('bench.noop', DISPATCH_QUEUES[0] as never);
      const noopBoss = await startBoss(await countedRole(admin, databaseUrl, NOOP_ROLE), [], createLogger('silent'), {
        supervise: false,
        schedule: false,
        superviseSeconds: 30,
      });
      let done = 0;
      const runner = new JobRunner<unknown>(
        noopBoss,
        'bench.noop',
        RUNNER_OPTIONS,
        async () => undefined,
        createLogger('silent'),
        async (jobs) => void (done += jobs.length),
      );
      runner.start();
      const m = await meter({ db: svc.db, role: NOOP_ROLE });
      await queueParts(
        boss,
        svc.db,
        'bench.noop',
        partsOf(two).map((p) => ({ ...p, id: crypto.randomUUID(), orderId: crypto.randomUUID() })),
      );
      runner.poke();
      const ran = await drain(async () => done, 1000);
      const cost = await m.stop();
      await runner.stop(5000);
      await noopBoss.stop({ graceful: false }).catch(() => undefined);
      noop = { perJob: (cost.statements ?? NaN) / Math.max(1, ran.done), statements: cost.statements ?? NaN };
    }
    if (process.env.BENCH_STATEMENTS) await svc.db.query('SELECT pg_stat_statements_reset()');
    const m = await meter({ pid: svc.pid, postmasterPid: benchPostgres.postmasterPid, db: svc.db, role: SERVICE_ROLE });
    await queueParts(boss, svc.db, DISPATCH_QUEUE, partsOf(two));
    const run = await drain(sentOf(svc.db, two), 1000, 300_000);
    const cost = await m.stop();
    if (process.env.BENCH_STATEMENTS) process.stderr.write(`${JSON.stringify(await topStatements(svc.db, SERVICE_ROLE, 30), null, 1)}\n`);
    await checkOnce(svc.db, sandbox, two);
    if (run.done < 1000) throw new Error(`only ${run.done} of 1,000 parts were sent`);
    return { perPart: (cost.statements ?? NaN) / run.done, statements: cost.statements ?? NaN, parts: run.done, seconds: run.ms / 1000, noop };
  } finally {
    await boss.stop({ graceful: false }).catch(() => undefined);
    await svc.stop();
    await admin.end();
    await sandbox.close();
  }
}

/** How many times the benchmark runs the 1,000 parts: the figure is the highest (a count still moves a little with the pace). */
const RUNS = Number(process.env.BENCH_GUARD_RUNS ?? 5);

/** `npm run bench -- dispatch-guard`: the figure CI holds the service to. */
export async function dispatchGuardBench(databaseUrl: string): Promise<Figure[]> {
  const runs = [await measure(databaseUrl, true)];
  for (let i = 1; i < RUNS; i++)
    runs.push(await measure(await freshDatabase(Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString(), 'guard'), false));
  const got = runs.reduce((a, b) => (b.perPart > a.perPart ? b : a));
  return [
    {
      name: GUARD_FIGURE,
      subject: {
        value: Number(got.perPart.toFixed(2)),
        unit: `statements per part, the highest of ${runs.length} runs (${runs.map((r) => `${r.perPart.toFixed(2)} in ${r.seconds.toFixed(1)} s`).join(', ')})`,
      },
      baseline: { value: Number(runs[0].noop!.perJob.toFixed(2)), unit: `statements per job (${runs[0].noop!.statements.toLocaleString('en')})` },
      baselineLabel: "1,000 no-op jobs through the same runner and options: statements of the runner's pg-boss",
      ratio: got.perPart / Math.max(1e-9, runs[0].noop!.perJob),
      command: 'npm run bench -- dispatch-guard',
      notes:
        `CI's guard (\`.ci/run\`, \`node dist/bench/dispatch-guard.js\`) runs the same 1,000 parts and fails when statements per part rise above this figure by more than ${GUARD_MARGIN}. ` +
        "Counted as the 10,000-part figure counts (pg_stat_statements, the service's own role, every statement it ran meanwhile); 1,000 parts over 2 stores × 500 (a connection each, no added supplier latency), " +
        `each run on a fresh database, its parts checked ordered exactly once at the sandbox. Fewer parts than the 10,000-part figure: the periodic loops' statements weigh a little more per part, and how many the loops run moves a little with the pace, hence the highest of the runs.`,
    },
  ];
}

/** The figure as docs/benchmarks.md documents it (its row's subject), or null. */
export function documentedFigure(text: string): number | null {
  const row = text.split('\n').find((l) => l.startsWith(`| ${GUARD_FIGURE} |`));
  const m = row ? /^\| [^|]+ \| ([\d.]+) statements per part/.exec(row) : null;
  return m ? Number(m[1]) : null;
}

async function ci(): Promise<void> {
  const out = path.join(root, 'dist/dispatch-guard-results.json');
  const write = (failed: number) => {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ passed: 1 - failed, failed, skipped: 0 }));
  };
  // A failure until measured: a guard that dies on the way still leaves its result for the summary.
  write(1);
  let failed = 1;
  let pg: { adminUrl: string; stop(): Promise<void> } | null = null;
  try {
    const documented = documentedFigure(fs.readFileSync(path.join(root, 'docs/benchmarks.md'), 'utf8'));
    if (documented === null) throw new Error(`docs/benchmarks.md has no row "${GUARD_FIGURE}" (npm run bench -- dispatch-guard writes it)`);
    // One more try on a fresh port and directory: a random port may be taken by what the suite left behind.
    pg = await benchDatabase().catch((err: unknown) => {
      process.stdout.write(`dispatch guard: its Postgres did not start (${err instanceof Error ? err.message : String(err)}), trying once more\n`);
      return benchDatabase();
    });
    const got = await measure(await freshDatabase(pg.adminUrl, 'guard'), false);
    failed = got.perPart > documented + GUARD_MARGIN ? 1 : 0;
    process.stdout.write(
      `dispatch guard: ${got.perPart.toFixed(2)} statements per part (${got.statements} for ${got.parts} parts in ${got.seconds.toFixed(1)} s); documented ${documented}, limit ${(documented + GUARD_MARGIN).toFixed(2)}: ${failed ? 'FAILED' : 'passed'}\n`,
    );
  } catch (err) {
    process.stdout.write(`dispatch guard: could not measure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  } finally {
    // Its Postgres stopping ends every connection still idle in a pool (57P01): expected now, not a failure.
    process.on('uncaughtException', (err: Error & { code?: string }) => {
      if (err.code === '57P01') return;
      process.stdout.write(`dispatch guard: ${err.stack ?? err.message}\n`);
      write(1);
      process.exit(1);
    });
    await stopCountingStatements().catch(() => undefined);
    await pg?.stop().catch(() => undefined);
  }
  write(failed);
  process.exit(failed);
}

if (require.main === module) void ci();
