import type { ConnectionService } from '../connections/service';
import type { SupplierGateway } from '../connections/gateway';
import { READBACK_QUEUES } from '../notifications/queues';
import type { OrderReadBack } from '../notifications/service';
import type { OrderService } from '../orders/service';
import { domain, type Platform } from '../platform/domain';
import { POLLING } from '../platform/jobs';
import { JobRunner, type JobRunnerOptions } from '../platform/job-runner';
import { ListenFeed } from '../platform/listen';
import type { SupplierRegistry } from '../suppliers/registry';
import { DispatchCommands } from './commands';
import { supplierOrderRenderer } from './events';
import { DispatchJob, type ShopperCapture } from './job';
import { DISPATCH_QUEUE, DispatchQueue, WORK_CHANNEL } from './queues';
import { CHANGE_CHANNEL, SupplierOrderRecords } from './records';
import { supplierOrderRoutes } from './routes';
import { openSupplierOrderCount } from './sql';
import { DispatchSubscriptions } from './subscriptions';
import { DispatchSweeper } from './sweeper';
import { SupplierOrderReads } from './views';
import { SupplierOrderWaiter } from './waiter';

/** The dispatch runner's options in a process; the benchmark's no-op baseline uses the same (bench/dispatch-shop.ts). */
export function dispatchRunnerOptions(p: Pick<Platform, 'config'>, registry: SupplierRegistry): JobRunnerOptions {
  return { concurrency: p.config.dispatchConcurrency, groupConcurrency: { default: 4, tiers: registry.callsInFlight() }, pollMs: 2000, heartbeatSeconds: 10 };
}

/**
 * Supplier orders: commands for routes, the dispatch job and its runner, the sweeper, the supplier-order read-back
 * and the subscriber to store-order events (which the orders domain delivers), with the LISTEN feed that wakes
 * waiters and runners.
 */
export function dispatchDomain(p: Platform, deps: { gateway: SupplierGateway; registry: SupplierRegistry; orders: OrderService; connections: ConnectionService; captures: ShopperCapture; storeDropshipping: (storeId: string) => Promise<boolean> }) {
  const { config, db, log } = p;
  const feed = new ListenFeed(p.databaseUrl, [CHANGE_CHANNEL, WORK_CHANNEL], log);
  const records = new SupplierOrderRecords(db);
  const queue = new DispatchQueue(() => p.boss, db);
  const waiter = new SupplierOrderWaiter(records, feed, config.dispatchWaitMs);
  const commands = new DispatchCommands(records, queue, waiter, deps.orders);
  const job = new DispatchJob(records, deps.gateway, deps.registry, deps.captures, { retryLimit: config.dispatchRetryLimit, retryBaseSeconds: config.dispatchRetryBaseSeconds }, log);
  const sweeper = new DispatchSweeper(records, queue, { intervalMs: config.dispatchSweepSeconds * 1000, staleSeconds: config.dispatchSweepStaleSeconds }, log);
  const subscriptions = new DispatchSubscriptions(deps.orders, records, commands, queue, deps.storeDropshipping, log);
  const reads = new SupplierOrderReads(db, p.cursors);
  deps.connections.addImpactCounter(async (connectionId) => ({ openSupplierOrders: await openSupplierOrderCount(db, connectionId) }));
  return domain({
    feed, records, queue, commands, job, reads, subscriptions,
    eventRenderers: { supplierOrder: supplierOrderRenderer(reads) },
    routes: supplierOrderRoutes(commands, reads, deps.orders),
    async work(boss) {
      // Many slots, a per-connection limit enforced when jobs are claimed, woken by every send.
      const runner = new JobRunner<{ supplierOrderId: string }>(
        boss,
        DISPATCH_QUEUE,
        dispatchRunnerOptions(p, deps.registry),
        async (j) => {
          await job.run(j.data.supplierOrderId);
        },
        log,
        // Asked for while a job ran (a pay, a cancel) after its last look: its job is completed now, so send another.
        // One read for the whole batch of completed jobs.
        async (jobs) => {
          await queue.requestMany(await records.stepDueAmong(jobs.map((j) => j.data.supplierOrderId)));
        },
      );
      const offWake = feed.on(WORK_CHANNEL, () => runner.poke());
      runner.start();
      sweeper.start();
      await boss.work<OrderReadBack>(READBACK_QUEUES.order, POLLING, async ([j]) => {
        await job.readBack(j.data.connectionId, j.data.supplierOrderId);
      });
      return async (timeoutMs: number) => {
        sweeper.stop();
        offWake();
        await runner.stop(timeoutMs);
      };
    },
  });
}
export type Dispatch = ReturnType<typeof dispatchDomain>;
