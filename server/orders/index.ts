import { domain, type Platform } from '../platform/domain';
import { sendInTransaction } from '../platform/jobs';
import { StoreOrderQueries } from './queries';
import { STORE_ORDER_EVENTS_QUEUE } from './queues';
import { storeOrderRoutes, type SupplierOrdersOfOrders } from './routes';
import { OrderService } from './service';

/**
 * Store orders and their parts. Its events go out on its queue inside the transaction that made them; what its
 * answers show of supplier orders comes from dispatch (`supplierOrders`, read when a request asks).
 */
export function ordersDomain(p: Platform, deps: { supplierOrders: SupplierOrdersOfOrders }) {
  const orders = new OrderService(p.db, (tx, event) => sendInTransaction(p.boss, tx, STORE_ORDER_EVENTS_QUEUE, event));
  const queries = new StoreOrderQueries(p.db, p.cursors);
  return domain({ orders, queries, routes: storeOrderRoutes(orders, deps.supplierOrders, queries) });
}
