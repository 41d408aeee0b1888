import type { ConnectionService, SupplierGateway } from '../connections';
import type { EventRenderer, ReactionHandler } from '../events';
import { DispatchSteps1764288000000 } from '../migrations/1764288000000-DispatchSteps';
import { ReadBackAskedAt1764201600181 } from '../migrations/1764201600181-ReadBackAskedAt';
import { SupplierOrderCountSlots1764460800260 } from '../migrations/1764460800260-SupplierOrderCountSlots';
import { Reroutes1764892800341 } from '../migrations/1764892800341-Reroutes';
import { LandedCosts1765324800000 } from '../migrations/1765324800000-LandedCosts';
import { SupplierOrderReturns1765324800500 } from '../migrations/1765324800500-SupplierOrderReturns';
import { DispatchRouting } from './routing';
import { SupplierOrderEarlier1765411200110 } from '../migrations/1765411200110-SupplierOrderEarlier';
import { SupplierOrderRouting1765324800900 } from '../migrations/1765324800900-SupplierOrderRouting';
import type { OrderService, PartMoves, SupplierOrdersOfOrders } from '../orders';
import { domainModule, type Platform } from '../platform/domain';
import { failpoint } from '../platform/failpoints';
import { type Boss, POLLING } from '../platform/jobs';
import { JobRunner, type JobRunnerOptions } from '../platform/job-runner';
import { ListenFeed } from '../platform/listen';
import type { SupplierRegistry } from '../suppliers/registry';
import { DispatchCommands } from './commands';
import { supplierOrderRenderer } from './events';
import { DispatchJob } from './job';
import type { ShopperCapture } from './payment-steps';
import type { StoreRates } from './landed';
import { Rerouter } from './reroute';
import {
  CLAIM_QUEUE,
  type ClaimJobData,
  ClaimQueue,
  DISPATCH_BATCH_WINDOW_MS,
  DISPATCH_QUEUE,
  DISPATCH_QUEUES,
  type DispatchJobData,
  DispatchQueue,
  type OrderReadBack,
  orderReadBacks,
  READBACK_CONCURRENCY,
  READBACK_QUEUE,
  SAFETY_NET_QUEUE,
  SWEEP_KEY,
  WORK_CHANNEL,
} from './queues';
import { CHANGE_CHANNEL, SupplierOrderRecords } from './records';
import { supplierOrderRoutes } from './routes';
import { SafetyNet } from './safety-net';
import { profitSchema, supplierOrderSchema } from './schemas';
import { profitOfStoreOrder } from './landed';
import { openSupplierOrderCount } from './sql/reads';
import { DispatchSubscriptions, SEND_ON_ORDER_EVENTS, STORE_ORDER_REACTIONS, storeOrderEventOf } from './subscriptions';
import { DispatchSweeper } from './sweeper';
import { RewindWatch } from './rewind';
import { DatabaseIdentity1765324800777 } from '../migrations/1765324800777-DatabaseIdentity';
import { SupplierOrderReads } from './views';
import { SupplierOrderReadBack } from './read-back';
import type { SupplierOrder } from './supplier-order';
import { SupplierOrderWaiter } from './waiter';
import { DeliveryWatch1765497600000 } from '../migrations/1765497600000-DeliveryWatch';
import { SupplierCredits1765584000541 } from '../migrations/1765584000541-SupplierCredits';
import { SupplierClaims1765497600001 } from '../migrations/1765497600001-SupplierClaims';
import type { MemberAccess } from '../identity/owner-access';
import { DeliveryWatchSweep } from './delivery/sweep';
import { ClaimCommands } from './claims/service';
import { ClaimJob } from './claims/job';
import { ClaimOutcomes } from './claims/outcome';
import { claimRoutes } from './claims/routes';
import type { ShopperRefunds } from '../payments/refunds';
import { PartReturns1765670400317 } from '../migrations/1765670400317-PartReturns';
import { ReturnCommands } from './returns/service';
import { returnRoutes } from './returns/routes';

/** The dispatch runner's options in a process; the benchmark's no-op baseline uses the same (bench/dispatch-shop.ts). */
export function dispatchRunnerOptions(p: Pick<Platform, 'config'>, registry: SupplierRegistry): JobRunnerOptions {
  return {
    concurrency: p.config.dispatchConcurrency,
    groupConcurrency: { default: 4, tiers: registry.callsInFlight() },
    pollMs: 2000,
    heartbeatSeconds: 10,
    batchWindowMs: DISPATCH_BATCH_WINDOW_MS,
  };
}

interface DispatchNeeds {
  suppliers: { registry: SupplierRegistry };
  connections: { gateway: SupplierGateway; connections: ConnectionService };
  orders: { orders: OrderService; partMoves: PartMoves };
  payments: { captures: ShopperCapture; refunds: ShopperRefunds };
  stores: { storeDropshipping(storeId: string): Promise<boolean> };
  events: { renderers: { register(kind: string, r: EventRenderer): void }; reactions: { on(types: string[], name: string, handle: ReactionHandler): void } };
  rates: { rates: StoreRates };
  identity: { ownerAccess: MemberAccess };
}

/**
 * Supplier orders: commands for routes, the dispatch job and its runner, the sweeper, the supplier-order read-back
 * and its safety net, and the reaction to store order events (an internal subscriber of the events domain), with
 * the LISTEN feed that wakes waiters and runners. It gives the orders domain what store orders show of their
 * supplier orders.
 */
export const dispatchModule = domainModule({
  name: 'dispatch',
  needs: ['identity', 'suppliers', 'connections', 'orders', 'payments', 'stores', 'events', 'rates'],
  provides: ['feed', 'supplierOrdersOfOrders', 'orderReadBacks', 'openSupplierOrders'],
  queues: DISPATCH_QUEUES,
  migrations: [
    ReadBackAskedAt1764201600181,
    DispatchSteps1764288000000,
    SupplierOrderCountSlots1764460800260,
    Reroutes1764892800341,
    LandedCosts1765324800000,
    SupplierOrderReturns1765324800500,
    DatabaseIdentity1765324800777,
    SupplierOrderRouting1765324800900,
    SupplierOrderEarlier1765411200110,
    DeliveryWatch1765497600000,
    SupplierClaims1765497600001,
    SupplierCredits1765584000541,
    PartReturns1765670400317,
  ],
  build(p: Platform, deps: DispatchNeeds) {
    const { config, db, log } = p;
    const registry = deps.suppliers.registry;
    const orders = deps.orders.orders;
    const feed = new ListenFeed(p.config.databaseSessionUrl || p.databaseUrl, [CHANGE_CHANNEL, WORK_CHANNEL], log);
    const records = new SupplierOrderRecords(db, deps.connections.connections, deps.orders.partMoves);
    const queue = new DispatchQueue(() => p.boss, db);
    const waiter = new SupplierOrderWaiter(records, feed, config.dispatchWaitMs);
    const commands = new DispatchCommands(records, queue, waiter, orders);
    const send = async (so: SupplierOrder) => void (await queue.request(so));
    const rerouter = new Rerouter(records, send, deps.stores.storeDropshipping);
    const retries = { retryLimit: config.dispatchRetryLimit, retryBaseSeconds: config.dispatchRetryBaseSeconds };
    const job = new DispatchJob(
      records,
      deps.connections.gateway,
      registry,
      deps.payments.captures,
      retries,
      log,
      rerouter,
      deps.rates.rates,
      new DispatchRouting(records, config.routingQuoteTimeoutMs, send),
      p.standbys,
    );
    // After shipping: the delivery watch's sweep, and claims with the supplier (./delivery/, ./claims/).
    const claimQueue = new ClaimQueue(() => p.boss);
    const outcomes = new ClaimOutcomes(db, records, deps.orders.partMoves, deps.rates.rates, send);
    const claims = new ClaimCommands(db, records, deps.connections.gateway, outcomes, claimQueue);
    const claimJob = new ClaimJob(db, records, deps.connections.gateway, outcomes, claimQueue, deps.identity.ownerAccess, config.claimCheckSeconds);
    // Returns on the store's side (./returns/): the shopper refunded through the payments domain's refunds.
    const returns = new ReturnCommands(db, records, orders, deps.payments.refunds);
    const watchSweep = new DeliveryWatchSweep(db, records);
    const afterShipping = { sweep: async () => ({ raised: await watchSweep.sweep(), claims: await claimJob.requeueDue() }) };
    const readBack = new SupplierOrderReadBack(records, deps.connections.gateway, deps.rates.rates, log, (so) => claimJob.followUp(so));
    const rewind = new RewindWatch(db, records, registry, log);
    const sweeper = new DispatchSweeper(
      records,
      queue,
      rewind,
      { intervalMs: config.dispatchSweepSeconds * 1000, staleSeconds: config.dispatchSweepStaleSeconds },
      log,
      deps.rates.rates,
      afterShipping,
    );
    const subscriptions = new DispatchSubscriptions(orders, records, commands, queue, log);
    const reads = new SupplierOrderReads(db, p.cursors);
    deps.events.renderers.register('supplierOrder', supplierOrderRenderer(reads));
    deps.events.reactions.on(STORE_ORDER_REACTIONS, SEND_ON_ORDER_EVENTS, (e) => subscriptions.onStoreOrderEvent(storeOrderEventOf(e)));
    // What store orders show of their supplier orders (the orders domain's routes, built once the list is built).
    const supplierOrdersOfOrders: SupplierOrdersOfOrders = {
      schema: supplierOrderSchema,
      ofOrders: (storeId, ids, showCustomer) => reads.ofOrders(storeId, ids, showCustomer),
      profit: { schema: profitSchema, ofOrder: (parts, fees, refunded) => profitOfStoreOrder(parts, fees, refunded) },
    };
    return {
      feed,
      records,
      queue,
      commands,
      job,
      reads,
      subscriptions,
      supplierOrdersOfOrders,
      claims,
      claimJob,
      watchSweep,
      // What others ask of dispatch: a notification's read-backs; the count a connection's disconnect shows.
      orderReadBacks: orderReadBacks(() => p.boss, db),
      openSupplierOrders: (connectionId: string, storeId: string) => openSupplierOrderCount(db, storeId, connectionId),
      routes: [...supplierOrderRoutes(commands, reads, orders), ...claimRoutes(claims, reads), ...returnRoutes(returns, reads)],
      async work(boss: Boss) {
        // Many slots, a per-connection limit enforced when jobs are claimed, woken by every send.
        const runner = new JobRunner<DispatchJobData>(
          boss,
          DISPATCH_QUEUE,
          dispatchRunnerOptions(p, registry),
          async (j) => {
            await job.run(j.data.supplierOrderId, j.data.storeId);
          },
          log,
          // Asked for while a job ran (a pay, a cancel) after its last look: its job is completed now, so send another.
          // One read for the whole batch of completed jobs.
          async (jobs) => {
            await queue.requestMany(await records.stepDueAmong(jobs.map((j) => ({ id: j.data.supplierOrderId, storeId: j.data.storeId }))));
          },
        );
        const offWake = feed.on(WORK_CHANNEL, () => runner.poke());
        // Before any part is sent: records restored from an older backup are reconciled first.
        await rewind.check();
        runner.start();
        sweeper.start();
        await boss.work<OrderReadBack>(READBACK_QUEUE, { ...POLLING, localConcurrency: READBACK_CONCURRENCY }, async ([j]) => {
          failpoint('dispatch.readBack');
          await readBack.run(j.data.connectionId, j.data.supplierOrderId, j.data.storeId);
        });
        // Open supplier orders are read back even when no notification comes: a chain of sweeps, which the minutely
        // schedule restarts should it ever break (a crash between a sweep and its successor).
        const safetyNet = new SafetyNet(db, boss, log, config.readBackIntervalSeconds);
        await boss.work(SAFETY_NET_QUEUE, async () => {
          await safetyNet.sweep();
        });
        await boss.schedule(SAFETY_NET_QUEUE, '* * * * *', {}, { singletonKey: SWEEP_KEY });
        await boss.work<ClaimJobData>(CLAIM_QUEUE, { ...POLLING, localConcurrency: 2 }, async ([j]) => {
          await claimJob.run(j.data.claimId, j.data.storeId);
        });
        await safetyNet.next();
        return async (timeoutMs: number) => {
          sweeper.stop();
          offWake();
          await runner.stop(timeoutMs);
        };
      },
    };
  },
});
