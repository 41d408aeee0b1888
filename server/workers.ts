import type { Boss, QueueSpec } from './platform/jobs';
import type { Services } from './composition';

export const QUEUE = {
  housekeeping: 'housekeeping.sessions',
} as const;

export const QUEUES: QueueSpec[] = [{ name: QUEUE.housekeeping, policy: 'singleton', retryLimit: 2 }];

/** Handlers and schedules of the worker role. Job data carries ids, never entities. */
export async function registerWorkers(boss: Boss, s: Services): Promise<void> {
  await boss.work(QUEUE.housekeeping, async () => {
    const removed = await s.accounts.purgeExpiredSessions();
    s.log.info({ removed }, 'expired sessions purged');
  });
  await boss.schedule(QUEUE.housekeeping, '17 * * * *');
}
