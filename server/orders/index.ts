import type { Actor } from '../identity/permissions';
import type { EventRenderer } from '../events';
import { Orders1764028800000 } from '../migrations/1764028800000-Orders';
import { PartNeedsAttention1764288000001 } from '../migrations/1764288000001-PartNeedsAttention';
import { StoreOrderFromParts1764288000002 } from '../migrations/1764288000002-StoreOrderFromParts';
import { PaymentEventSource1764460800111 } from '../migrations/1764460800111-PaymentEventSource';
import { OrderMarkedPaid1764460800112 } from '../migrations/1764460800112-OrderMarkedPaid';
import { StoreOrderCountSlots1764460800261 } from '../migrations/1764460800261-StoreOrderCountSlots';
import { OrderItemProductTitle1764720000320 } from '../migrations/1764720000320-OrderItemProductTitle';
import { StoreOrderStatusInCode1764806400331 } from '../migrations/1764806400331-StoreOrderStatusInCode';
import { OrderItemRecordedCost1765152000410 } from '../migrations/1765152000410-OrderItemRecordedCost';
import { PaymentEventOrder1765152000400 } from '../migrations/1765152000400-PaymentEventOrder';
import { ProfitSums1765324800800 } from '../migrations/1765324800800-ProfitSums';
import { ProfitDeltas1765411200520 } from '../migrations/1765411200520-ProfitDeltas';
import type { DataSource } from 'typeorm';
import { domainModule, type Platform } from '../platform/domain';
import type { Boss } from '../platform/jobs';
import type { AnyRoute } from '../platform/http/route';
import type { Logger } from '../platform/logger';
import { orderPartRenderer, storeOrderPaymentRenderer } from './part-events';
import { PartMoves } from './part-moves';
import { OrderPayments } from './payments';
import { StoreOrderQueries } from './queries';
import { RETIRED_EVENTS_QUEUE } from './queues';
import { storeOrderRoutes } from './routes';
import { ProfitFold } from './profit-fold';
import { ProfitReports } from './report';
import { profitReportRoutes } from './report-routes';
import { type OrderStores, OrderService } from './service';
import { recordRetiredEvent } from './sql/payments';
import type { SupplierOrdersOfOrders } from './views';

// What the other domains use of the orders domain: its services (the part moves dispatch runs inside its own
// statement, the store order following) and the words of orders.
export type { OrderService } from './service';
export type { PartMoves } from './part-moves';
export type { OrderPayments, ProviderPaymentEvent } from './payments';
export type { SupplierOrdersOfOrders } from './views';
export type * from './types';

/**
 * Store orders, their parts and the shopper's payment. Its events (with the changes, through the outbox) are what
 * other domains react to. Its routes show each order's supplier orders, which the dispatch domain keeps: they are
 * built late (`lateRoutes`), from what dispatch provides, once the whole list is built.
 */
export const ordersModule = domainModule({
  name: 'orders',
  needs: ['stores', 'events'],
  provides: ['orders', 'orderPayments', 'partMoves'],
  migrations: [Orders1764028800000, PartNeedsAttention1764288000001, StoreOrderFromParts1764288000002, PaymentEventSource1764460800111, OrderMarkedPaid1764460800112, StoreOrderCountSlots1764460800261, OrderItemProductTitle1764720000320, StoreOrderStatusInCode1764806400331, PaymentEventOrder1765152000400, OrderItemRecordedCost1765152000410, ProfitSums1765324800800, ProfitDeltas1765411200520],
  build(p: Platform, deps: { stores: OrderStores; events: { renderers: { register(kind: string, r: EventRenderer): void } } }) {
    const orders = new OrderService(p.db, deps.stores);
    const orderPayments = new OrderPayments(p.db, orders);
    const queries = new StoreOrderQueries(p.db, p.cursors);
    deps.events.renderers.register('orderPart', orderPartRenderer(p.db));
    deps.events.renderers.register('storeOrder', storeOrderPaymentRenderer);
    return {
      orders, orderPayments, queries, partMoves: new PartMoves(),
      routes: [...profitReportRoutes(new ProfitReports(p.db, p.cursors))] as AnyRoute[],
      async work(boss: Boss) {
        await drainRetiredQueue(boss, p.db, p.log);
        const fold = new ProfitFold(p.db, p.log);
        fold.start();
        return () => fold.stop();
      },
    };
  },
  lateRoutes: {
    needs: ['dispatch'],
    build: (self, later: { dispatch: { supplierOrdersOfOrders: SupplierOrdersOfOrders } }) => storeOrderRoutes(self.orders, self.orderPayments, later.dispatch.supplierOrdersOfOrders, self.queries),
  },
});

/**
 * What a deployment left on the retired queue (./queues.ts) is recorded as the outbox events it stands for when a
 * worker starts; the queue goes once nothing is left on it. A job still held by a worker that died comes back after
 * its heartbeat lapses: it is taken by the worker this registers then, and the queue goes at a later start.
 */
async function drainRetiredQueue(boss: Boss, db: DataSource, log: Logger): Promise<void> {
  if (!(await boss.getQueue(RETIRED_EVENTS_QUEUE))) return;
  type Retired = { orderId: string; kind: string; actor: Actor };
  let drained = 0;
  for (let jobs = await boss.fetch<Retired>(RETIRED_EVENTS_QUEUE, { batchSize: 100 }); jobs.length; jobs = await boss.fetch<Retired>(RETIRED_EVENTS_QUEUE, { batchSize: 100 })) {
    for (const job of jobs) await recordRetiredEvent(db, job.data);
    await boss.complete(RETIRED_EVENTS_QUEUE, jobs.map((j) => j.id));
    drained += jobs.length;
  }
  // The queue's own counts are refreshed by pg-boss's monitor, not at once: the jobs themselves say what is left.
  const left = (await boss.findJobs<Retired>(RETIRED_EVENTS_QUEUE)).filter((j) => j.state === 'created' || j.state === 'retry' || j.state === 'active').length;
  if (left > 0) {
    await boss.work<Retired>(RETIRED_EVENTS_QUEUE, async ([job]) => recordRetiredEvent(db, job.data));
  } else {
    await boss.deleteQueue(RETIRED_EVENTS_QUEUE).catch(() => undefined);
  }
  log.info({ drained, removed: left === 0 }, 'retired store order event queue drained into the outbox');
}
