import type { SupplierGateway } from '../connections/gateway';
import { domain, type Platform } from '../platform/domain';
import type { SupplierRegistry } from '../suppliers/registry';
import { SAFETY_NET_QUEUE, SWEEP_KEY } from './queues';
import { notificationRoutes } from './routes';
import { SafetyNet } from './safety-net';
import { NotificationService } from './service';

/**
 * What suppliers send: the notification address, and the read-backs it queues. The read-backs themselves are
 * run by the domains that own what is read back (catalogue: products; dispatch: supplier orders).
 */
export function notificationsDomain(p: Platform, deps: { registry: SupplierRegistry; gateway: SupplierGateway }) {
  const notifications = new NotificationService(p.db, deps.registry, deps.gateway, () => p.boss);
  return domain({
    notifications,
    routes: notificationRoutes(notifications),
    housekeeping: async () => {
      await notifications.purgeReceipts();
      return {};
    },
    async work(boss) {
      // Open supplier orders are read back even when no notification comes: a chain of sweeps, which the minutely
      // schedule restarts should it ever break (a crash between a sweep and its successor).
      const safetyNet = new SafetyNet(p.db, boss, p.log, p.config.readBackIntervalSeconds);
      await boss.work(SAFETY_NET_QUEUE, async () => {
        await safetyNet.sweep();
      });
      await boss.schedule(SAFETY_NET_QUEUE, '* * * * *', {}, { singletonKey: SWEEP_KEY });
      await safetyNet.next();
    },
  });
}
