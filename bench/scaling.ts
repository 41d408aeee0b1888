import { Pool } from 'pg';
import { performance } from 'node:perf_hooks';
import { DISPATCH_QUEUE } from '../server/dispatch/queues';
import { startBoss } from '../server/platform/jobs';
import { createLogger } from '../server/platform/logger';
import { seedProductStore } from './products-page';
import { checkOnce, drain, partsOf, queueParts, sentOf, shops } from './dispatch-shop';
import { BenchService, Figure, freshDatabase, startBenchSandbox, startBenchService } from './lib';
import { CONNECTIONS, DURATION_SECONDS, load, Load } from './load';

const PRODUCTS = 20_000;
const PARTS = Number(process.env.BENCH_SCALING_PARTS ?? 2_000);

interface Topology {
  api: BenchService[];
  workers: BenchService[];
  stop(): Promise<void>;
}

/** `n` API processes and `n` worker processes on one database (the roles of a scaled-out deployment). */
async function topology(databaseUrl: string, n: number, env: Record<string, string>): Promise<Topology> {
  const api: BenchService[] = [];
  const workers: BenchService[] = [];
  const appSecret = 'bench-scaling-'.padEnd(64, 's');
  // The first process runs the migrations; the others start after it.
  api.push(await startBenchService(databaseUrl, { APP_SECRET: appSecret, ...env }, { ...opts(env), args: ['--role', 'api'] }));
  for (let i = 1; i < n; i++) api.push(await startBenchService(databaseUrl, { APP_SECRET: appSecret, ...env }, { ...opts(env), args: ['--role', 'api'] }));
  for (let i = 0; i < n; i++)
    workers.push(await startBenchService(databaseUrl, { APP_SECRET: appSecret, ...env }, { ...opts(env), args: ['--role', 'worker'] }));
  return { api, workers, stop: async () => void (await Promise.all([...api, ...workers].map((s) => s.stop()))) };
}
const opts = (env: Record<string, string>) => (env.SANDBOX_SUPPLIER_URL ? { sandboxUrl: env.SANDBOX_SUPPLIER_URL } : {});

/** The product list under load spread over every API process (the connections split between them); requests summed. */
async function listLoad(t: Topology): Promise<{ load: Load; totalCounts: number[] }> {
  const svc = t.api[0];
  const { key, storeId } = await seedProductStore(svc, PRODUCTS);
  const urls = t.api.map((a) => `${a.baseUrl}/api/store-products/${storeId}?pageSize=25`);
  // Correctness first: every process answers the same page and the exact count.
  const pages = await Promise.all(
    urls.map(
      async (u) =>
        (await (await fetch(u, { headers: { 'X-API-Key': key } })).json()) as { result: { items: Array<{ id: string }>; pagination: { totalCount: number } } },
    ),
  );
  if (pages.some((p) => JSON.stringify(p.result.items.map((i) => i.id)) !== JSON.stringify(pages[0].result.items.map((i) => i.id))))
    throw new Error('the API processes answer different pages');
  await Promise.all(urls.map((u) => load(u, { 'X-API-Key': key }, { seconds: 1, connections: Math.ceil(CONNECTIONS / urls.length) })));
  const loads = await Promise.all(urls.map((u) => load(u, { 'X-API-Key': key }, { connections: Math.ceil(CONNECTIONS / urls.length) })));
  if (loads.some((l) => l.non2xx || l.errors || !l.total)) throw new Error(`the list under load: ${JSON.stringify(loads)}`);
  const sum = (f: (l: Load) => number) => loads.reduce((a, l) => a + f(l), 0);
  return {
    load: {
      reqPerSec: sum((l) => l.reqPerSec),
      p50: Math.max(...loads.map((l) => l.p50)),
      p99: Math.max(...loads.map((l) => l.p99)),
      total: sum((l) => l.total),
      non2xx: 0,
      errors: 0,
    },
    totalCounts: pages.map((p) => p.result.pagination.totalCount),
  };
}

/** Dispatch of PARTS queued parts by the worker processes; checked part by part at the sandbox once they stopped. */
async function dispatchRun(databaseUrl: string, n: number): Promise<{ perSecond: number; dispatched: number; seconds: number }> {
  const sandbox = await startBenchSandbox();
  const t = await topology(databaseUrl, n, { SANDBOX_SUPPLIER_URL: sandbox.baseUrl });
  let stopped = false;
  try {
    // Ten stores, so that the per-connection limit is not what bounds the run.
    const all = await shops(t.api[0], sandbox, 10, PARTS / 10);
    const boss = await startBoss(databaseUrl, [], createLogger('silent'), { supervise: false, schedule: false, superviseSeconds: 30 });
    const started = performance.now();
    await queueParts(boss, t.api[0].db, DISPATCH_QUEUE, partsOf(all));
    const d = await drain(
      sentOf(
        t.api[0].db,
        all.map((x) => x.storeId),
      ),
      PARTS,
    );
    const seconds = (performance.now() - started) / 1000;
    await boss.stop({ graceful: false });
    await t.stop();
    stopped = true;
    const check = new Pool({ connectionString: databaseUrl, max: 1 });
    const dispatched = await checkOnce(check, sandbox, all).finally(() => check.end());
    return { perSecond: d.done / (d.ms / 1000), dispatched, seconds };
  } finally {
    if (!stopped) await t.stop();
    await sandbox.close();
  }
}

/**
 * How the service grows: the same database with 2 API + 2 worker processes against 1 + 1, for the product list
 * (requests spread over the API processes) and for dispatch (jobs taken by the worker processes).
 */
export async function scalingBench(databaseUrl: string): Promise<Figure[]> {
  const lists: Record<number, { load: Load; totalCounts: number[] }> = {};
  for (const n of [1, 2]) {
    const db = await freshDatabase(databaseUrl, `scaling_list_${n}`);
    const t = await topology(db, n, {});
    try {
      lists[n] = await listLoad(t);
    } finally {
      await t.stop();
    }
    if (lists[n].totalCounts.some((c) => c !== PRODUCTS)) throw new Error(`totalCount ${lists[n].totalCounts} with ${n}+${n} processes`);
  }
  const dispatch: Record<number, { perSecond: number; dispatched: number; seconds: number }> = {};
  for (const n of [1, 2]) dispatch[n] = await dispatchRun(await freshDatabase(databaseUrl, `scaling_dispatch_${n}`), n);
  const command = 'npm run bench -- scaling';
  return [
    {
      name: `Page of 25 store products (${PRODUCTS.toLocaleString('en')} in the store), 2 API + 2 worker processes on one Postgres`,
      subject: lists[2].load,
      baseline: lists[1].load,
      baselineLabel: '1 API + 1 worker process, same load',
      ratio: lists[2].load.reqPerSec / lists[1].load.reqPerSec,
      command,
      notes:
        `Ratio = list requests per second with two API processes ÷ with one, ${CONNECTIONS} connections in all split between the API processes, ${DURATION_SECONDS} s, each topology on a fresh database. ` +
        `Correctness: every API process answered the same page and the exact totalCount (${PRODUCTS.toLocaleString('en')}). The load generator, Postgres and the service share this machine's cores, so the ratio shows what a second process adds here, not on separate machines.`,
    },
    {
      name: `Dispatch of ${PARTS.toLocaleString('en')} order parts to the sandbox supplier, 2 API + 2 worker processes on one Postgres`,
      subject: { value: Math.round(dispatch[2].perSecond), unit: `parts/s (${dispatch[2].dispatched.toLocaleString('en')} dispatched)` },
      baseline: { value: Math.round(dispatch[1].perSecond), unit: `parts/s (${dispatch[1].dispatched.toLocaleString('en')} dispatched)` },
      baselineLabel: '1 API + 1 worker process',
      ratio: dispatch[2].perSecond / dispatch[1].perSecond,
      command,
      notes:
        `Ratio = parts dispatched per second with two worker processes ÷ with one (from the first job sent until none was left or the ${60_000 / 1000} s window closed). ` +
        `Correctness, checked after the processes stopped: every dispatched part is \`submitted\` with exactly one order at the sandbox for its number, no part twice (${dispatch[1].dispatched.toLocaleString('en')} and ${dispatch[2].dispatched.toLocaleString('en')} parts). Set-up as the dispatch benchmark (bench/dispatch.ts).`,
    },
  ];
}
