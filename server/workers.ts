import type { Boss, QueueSpec } from './platform/jobs';
import type { StopWork } from './platform/domain';
import type { Services } from './composition';
import { IDENTITY_QUEUES, HOUSEKEEPING_QUEUE } from './identity/queues';
import { CONNECTION_QUEUES } from './connections/queues';
import { NOTIFICATION_QUEUES } from './notifications/queues';
import { CATALOGUE_QUEUES } from './catalogue/queues';
import { DISPATCH_QUEUES } from './dispatch/queues';
import { ORDER_QUEUES } from './orders/queues';

/** Every queue, as each domain declares it in its queues.ts (name, policy, retries): created at start by platform/jobs. */
export const QUEUES: QueueSpec[] = [...IDENTITY_QUEUES, ...CONNECTION_QUEUES, ...NOTIFICATION_QUEUES, ...CATALOGUE_QUEUES, ...DISPATCH_QUEUES, ...ORDER_QUEUES];

/**
 * The worker role: every domain's handlers and schedules, and the hourly housekeeping that runs each domain's
 * clean-up. Job data carries ids, never entities. Answers a graceful stop.
 */
export async function registerWorkers(boss: Boss, s: Services): Promise<StopWork> {
  await boss.work(HOUSEKEEPING_QUEUE, async () => {
    const removed: Record<string, number> = {};
    for (const d of s.domains) Object.assign(removed, await d.housekeeping?.());
    s.log.info({ removed }, 'housekeeping done');
  });
  await boss.schedule(HOUSEKEEPING_QUEUE, '17 * * * *');
  const stops: StopWork[] = [];
  for (const d of s.domains) {
    const stop = await d.work?.(boss);
    if (stop) stops.push(stop);
  }
  return async (timeoutMs) => {
    for (const stop of stops) await stop(timeoutMs);
  };
}
