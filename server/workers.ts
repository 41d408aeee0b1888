import type { Boss, QueueSpec } from './platform/jobs';
import type { Services } from './composition';
import { READBACK_QUEUES } from './webhooks/service';

export const QUEUE = {
  housekeeping: 'housekeeping.sessions',
} as const;

export const QUEUES: QueueSpec[] = [
  { name: QUEUE.housekeeping, policy: 'singleton', retryLimit: 2 },
  // One read-back waiting per supplier order or product, however many notifications arrive.
  { name: READBACK_QUEUES.order, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true },
  { name: READBACK_QUEUES.product, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true },
];

/** Handlers and schedules of the worker role. Job data carries ids, never entities. */
export async function registerWorkers(boss: Boss, s: Services): Promise<void> {
  await boss.work(QUEUE.housekeeping, async () => {
    const removed = await s.accounts.purgeExpiredSessions();
    s.log.info({ removed }, 'expired sessions purged');
  });
  await boss.schedule(QUEUE.housekeeping, '17 * * * *');
}
