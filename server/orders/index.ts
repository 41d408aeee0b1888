import type { EventRenderer } from '../events';
import { Orders1764028800000 } from '../migrations/1764028800000-Orders';
import { PartNeedsAttention1764288000001 } from '../migrations/1764288000001-PartNeedsAttention';
import { StoreOrderFromParts1764288000002 } from '../migrations/1764288000002-StoreOrderFromParts';
import { PaymentEventSource1764460800111 } from '../migrations/1764460800111-PaymentEventSource';
import { OrderMarkedPaid1764460800112 } from '../migrations/1764460800112-OrderMarkedPaid';
import { StoreOrderCountSlots1764460800261 } from '../migrations/1764460800261-StoreOrderCountSlots';
import { OrderItemProductTitle1764720000320 } from '../migrations/1764720000320-OrderItemProductTitle';
import { StoreOrderStatusInCode1764806400331 } from '../migrations/1764806400331-StoreOrderStatusInCode';
import { OrderItemLinkCurrency1765411200100 } from '../migrations/1765411200100-OrderItemLinkCurrency';
import { OrderItemRecordedCost1765152000410 } from '../migrations/1765152000410-OrderItemRecordedCost';
import { PaymentEventOrder1765152000400 } from '../migrations/1765152000400-PaymentEventOrder';
import { ProfitSums1765324800800 } from '../migrations/1765324800800-ProfitSums';
import { ProfitSplit1765584000543 } from '../migrations/1765584000543-ProfitSplit';
import { ProfitRefunds1765584000560 } from '../migrations/1765584000560-ProfitRefunds';
import { ProfitDeltas1765411200520 } from '../migrations/1765411200520-ProfitDeltas';
import { OrderPaymentRecords1765584000530 } from '../migrations/1765584000530-OrderPaymentRecords';
import type { DataSource } from 'typeorm';
import { domainModule, type Platform } from '../platform/domain';
import type { AnyRoute } from '../platform/http/route';
import { orderPartRenderer, storeOrderPaymentRenderer } from './part-events';
import { PartMoves } from './part-moves';
import { OrderPayments } from './payments';
import { StoreOrderQueries } from './queries';
import { storeOrderRoutes } from './routes';
import { ProfitFold } from './profit-fold';
import { ProfitReports } from './report';
import { profitReportRoutes } from './report-routes';
import { type OrderStores, OrderService } from './service';
import type { SupplierOrdersOfOrders } from './views';

// What the other domains use of the orders domain: its services (the part moves dispatch runs inside its own
// statement, the store order following) and the words of orders.
export type { OrderService } from './service';
export type { ItemsMove, PartMoves } from './part-moves';
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
  migrations: [
    Orders1764028800000,
    PartNeedsAttention1764288000001,
    StoreOrderFromParts1764288000002,
    PaymentEventSource1764460800111,
    OrderMarkedPaid1764460800112,
    StoreOrderCountSlots1764460800261,
    OrderItemProductTitle1764720000320,
    StoreOrderStatusInCode1764806400331,
    PaymentEventOrder1765152000400,
    OrderItemRecordedCost1765152000410,
    ProfitSums1765324800800,
    OrderItemLinkCurrency1765411200100,
    ProfitDeltas1765411200520,
    OrderPaymentRecords1765584000530,
    ProfitSplit1765584000543,
    ProfitRefunds1765584000560,
  ],
  build(p: Platform, deps: { stores: OrderStores; events: { renderers: { register(kind: string, r: EventRenderer): void } } }) {
    const orders = new OrderService(p.db, deps.stores);
    const orderPayments = new OrderPayments(p.db, orders);
    const queries = new StoreOrderQueries(p.db, p.cursors);
    deps.events.renderers.register('orderPart', orderPartRenderer(p.db));
    deps.events.renderers.register('storeOrder', storeOrderPaymentRenderer);
    return {
      orders,
      orderPayments,
      queries,
      partMoves: new PartMoves(),
      routes: [...profitReportRoutes(new ProfitReports(p.db, p.cursors))] as AnyRoute[],
      async work() {
        const fold = new ProfitFold(p.db, p.log);
        fold.start();
        return () => fold.stop();
      },
    };
  },
  lateRoutes: {
    needs: ['dispatch'],
    build: (self, later: { dispatch: { supplierOrdersOfOrders: SupplierOrdersOfOrders } }) =>
      storeOrderRoutes(self.orders, self.orderPayments, later.dispatch.supplierOrdersOfOrders, self.queries),
  },
});
