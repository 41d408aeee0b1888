import type { Boss } from './platform/jobs';
import type { StopWork } from './platform/domain';
import type { Services } from './composition';
import { HOUSEKEEPING_QUEUE } from './identity/queues';

/** Every queue, as each domain's module declares it (name, policy, retries): created at start by platform/jobs. */
export { QUEUES } from './composition';

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
