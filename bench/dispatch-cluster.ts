/**
 * `npm run bench -- dispatch-cluster` (run by name only): dispatch on the Patroni cluster with a synchronous standby
 * (bench/soak/patroni.ts: every commit waits until the synchronous standby has flushed it; the service, declared
 * asynchronous, finds that and waits for nothing itself) against the same run on the bench's one server (no standby,
 * DATABASE_REPLICATION=none). 2,000 parts over 2 stores, rounds alternating one server, cluster, cluster, one server,
 * each on a fresh database with its own service and sandbox; the figure is the cluster's parts per second over the
 * one server's (each the mean of its rounds).
 */
import { startBoss } from '../server/platform/jobs';
import { createLogger } from '../server/platform/logger';
import { DISPATCH_QUEUE } from '../server/dispatch/queues';
import { checkOnce, drain, partsOf, queueParts, sentOf, shops } from './dispatch-shop';
import { developerKey, type Figure, freshDatabase, startBenchSandbox, startBenchService } from './lib';
import { PatroniCluster } from './soak/patroni';

const COMMAND = 'npm run bench -- dispatch-cluster';
const STORES = 2;
const PARTS = Number(process.env.BENCH_CLUSTER_PARTS ?? 2000);

/** One round: every part dispatched and checked once at the sandbox; parts per second. */
async function round(adminUrl: string, env: Record<string, string>): Promise<number> {
  const url = await freshDatabase(adminUrl, 'cluster').catch(async () => freshDatabase(adminUrl, 'cluster'));
  const sandbox = await startBenchSandbox();
  const svc = await startBenchService(url, { SUPPLIER_TIMEOUT_MS: '3000', ...env }, { sandboxUrl: sandbox.baseUrl });
  const boss = await startBoss(svc.databaseUrl, [], createLogger('silent'), { supervise: false, schedule: false, superviseSeconds: 30 });
  try {
    const many = await shops(svc, sandbox, STORES, PARTS / STORES, { key: (await developerKey(svc)).key, products: 10 });
    await queueParts(boss, svc.db, DISPATCH_QUEUE, partsOf(many));
    const run = await drain(sentOf(svc.db, many), PARTS, 600_000);
    await checkOnce(svc.db, sandbox, many);
    if (run.done < PARTS) throw new Error(`only ${run.done} of ${PARTS} parts were sent`);
    return run.perSecond;
  } finally {
    await boss.stop({ graceful: false }).catch(() => undefined);
    await svc.stop();
    await sandbox.close();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export async function dispatchCluster(databaseUrl: string): Promise<Figure[]> {
  const single = Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString();
  const cluster = await PatroniCluster.start({ synchronous: true, fsync: true });
  try {
    const one: number[] = [];
    const three: number[] = [];
    const onCluster = () => round(cluster.directUrl(), { DATABASE_REPLICATION: 'asynchronous' });
    one.push(await round(single, { DATABASE_REPLICATION: 'none' }));
    three.push(await onCluster());
    three.push(await onCluster());
    one.push(await round(single, { DATABASE_REPLICATION: 'none' }));
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(', ');
    return [
      {
        name: `Dispatch on a Patroni cluster with a synchronous standby, ${PARTS.toLocaleString('en')} parts over ${STORES} stores`,
        subject: { value: Number(mean(three).toFixed(1)), unit: `parts/s (rounds ${fmt(three)})` },
        baseline: { value: Number(mean(one).toFixed(1)), unit: `parts/s (rounds ${fmt(one)})` },
        baselineLabel: 'the same run on one server, no standby',
        ratio: mean(three) / mean(one),
        command: COMMAND,
        notes: `Three Patroni members (Debian's PostgreSQL, etcd, HAProxy on /primary; synchronous_mode on, so synchronous_standby_names names one standby and every commit waits for its flush) on this one machine, against the bench's own embedded server (fsync on in both, so a synchronous standby's flush is a disk write as the primary's is); the service declared asynchronous found the database synchronous and ran no statement for standbys. Rounds alternate one server, cluster, cluster, one server.`,
      },
    ];
  } finally {
    await cluster.destroy();
  }
}
