import type { SupplierGateway } from '../connections';
import { domainModule, type Platform } from '../platform/domain';
import type { SupplierRegistry } from '../suppliers/registry';
import { NOTIFICATION_QUEUES } from './queues';
import { notificationRoutes } from './routes';
import { NotificationService } from './service';

// The read-backs a notification asks for are run by the domains that own what is read back (the catalogue: products;
// dispatch: supplier orders), on these queues.
export { READBACK_CONCURRENCY, READBACK_QUEUES, readBackKey } from './queues';
export type { OrderReadBack, ProductReadBack } from './service';

/** What suppliers send: the notification address, and the read-backs it queues. */
export const notificationsModule = domainModule({
  name: 'notifications',
  needs: ['suppliers', 'connections'],
  provides: [],
  queues: NOTIFICATION_QUEUES,
  migrations: [],
  routesFirst: true,
  build(p: Platform, deps: { suppliers: { registry: SupplierRegistry }; connections: { gateway: SupplierGateway } }) {
    const notifications = new NotificationService(p.db, deps.suppliers.registry, deps.connections.gateway, () => p.boss);
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
