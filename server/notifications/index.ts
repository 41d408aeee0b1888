import type { SupplierGateway } from '../connections';
import { domainModule, type Platform } from '../platform/domain';
import type { SupplierRegistry } from '../suppliers/registry';
import { notificationRoutes } from './routes';
import { type OrderReadBacks, NotificationService, type ProductReadBacks } from './service';

/**
 * What suppliers send: the notification address. A notification only asks for read-backs, of the domains that keep
 * what it names and work their queues (the catalogue: supplier products; dispatch: supplier orders), through what
 * they provide; so it is built after them.
 */
export const notificationsModule = domainModule({
  name: 'notifications',
  needs: ['suppliers', 'connections', 'catalogue', 'dispatch'],
  provides: [],
  migrations: [],
  routesFirst: true,
  build(
    p: Platform,
    deps: {
      suppliers: { registry: SupplierRegistry };
      connections: { gateway: SupplierGateway };
      catalogue: { productReadBacks: ProductReadBacks };
      dispatch: { orderReadBacks: OrderReadBacks };
    },
  ) {
    const readBacks = { order: deps.dispatch.orderReadBacks, product: deps.catalogue.productReadBacks };
    const notifications = new NotificationService(p.db, deps.suppliers.registry, deps.connections.gateway, readBacks);
    return {
      notifications,
      routes: notificationRoutes(notifications),
      housekeeping: async () => {
        await notifications.purgeReceipts();
        return {};
      },
    };
  },
});
