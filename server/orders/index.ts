import { domain, type Platform } from '../platform/domain';
import { POLLING, sendInTransaction } from '../platform/jobs';
import type { PublishStoreOrderEvent, StoreOrderEvent } from './events';
import { orderPartRenderer, storeOrderPaymentRenderer } from './part-events';
import { OrderPayments } from './payments';
import { StoreOrderQueries } from './queries';
import { STORE_ORDER_EVENTS_QUEUE } from './queues';
import { storeOrderRoutes } from './routes';
import type { SupplierOrdersOfOrders } from './views';
import { OrderService } from './service';

/**
 * Store orders, their parts and the shopper's payment. Its events go out on its queue inside the transaction that made them and are
 * handed to `onEvent` (dispatch's subscriber); what its answers show of supplier orders comes from dispatch
 * (`supplierOrders`, read when a request asks). Orders imports nothing of dispatch: both are given.
 */
export function ordersDomain(p: Platform, deps: { supplierOrders: SupplierOrdersOfOrders; onEvent: (event: StoreOrderEvent) => Promise<void> }) {
  const publish: PublishStoreOrderEvent = (tx, event) => sendInTransaction(p.boss, tx, STORE_ORDER_EVENTS_QUEUE, event);
  const orders = new OrderService(p.db, publish);
  const orderPayments = new OrderPayments(p.db, orders, publish);
  const queries = new StoreOrderQueries(p.db, p.cursors);
  return domain({
    orders, orderPayments, queries,
    eventRenderers: { orderPart: orderPartRenderer(p.db), storeOrder: storeOrderPaymentRenderer },
    routes: storeOrderRoutes(orders, orderPayments, deps.supplierOrders, queries),
    async work(boss) {
      await boss.work<StoreOrderEvent>(STORE_ORDER_EVENTS_QUEUE, POLLING, async ([job]) => {
        await deps.onEvent(job.data);
      });
    },
  });
}
