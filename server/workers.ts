import { type Boss, POLLING, type QueueSpec } from './platform/jobs';
import type { StopWork } from './platform/domain';
import type { Services } from './composition';
import type { OrderReadBack } from './notifications/service';
import { NOTIFICATION_QUEUES, READBACK_QUEUES } from './notifications/queues';
import { CATALOGUE_QUEUES } from './catalogue/queues';
import { DISPATCH_QUEUE, DISPATCH_QUEUES, WORK_CHANNEL } from './dispatch/queues';
import { HOUSEKEEPING_QUEUE, IDENTITY_QUEUES } from './identity/queues';
import { JobRunner, JobRunnerOptions } from './platform/job-runner';
import type { StoreOrderEvent } from './orders/events';
import { ORDER_QUEUES, STORE_ORDER_EVENTS_QUEUE } from './orders/queues';
import { nextStep } from './dispatch/steps';
import { CONNECTION_QUEUES } from './connections/queues';

/** Every queue, as each domain declares it (name, policy, retries): created at start by platform/jobs. */
export const QUEUES: QueueSpec[] = [...IDENTITY_QUEUES, ...CONNECTION_QUEUES, ...NOTIFICATION_QUEUES, ...CATALOGUE_QUEUES, ...DISPATCH_QUEUES, ...ORDER_QUEUES];

/** The dispatch runner's options in a process; the benchmark's no-op baseline uses the same. */
export function dispatchRunnerOptions(s: Pick<Services, 'config' | 'registry'>): JobRunnerOptions {
  return { concurrency: s.config.dispatchConcurrency, groupConcurrency: { default: 4, tiers: s.registry.callsInFlight() }, pollMs: 2000, heartbeatSeconds: 10 };
}

/**
 * Handlers and schedules of the worker role: every domain's own, and the hourly housekeeping that runs each
 * domain's clean-up. Job data carries ids, never entities. Answers a graceful stop.
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

  // Dispatch: many slots, a per-connection limit enforced when jobs are claimed, woken by every send.
  const runner = new JobRunner<{ supplierOrderId: string }>(
    boss,
    DISPATCH_QUEUE,
    dispatchRunnerOptions(s),
    async (job) => {
      await s.dispatch.job.run(job.data.supplierOrderId);
    },
    s.log,
    // Asked for while the job ran (a pay, a cancel) after it last looked: the job is settled now, so send another.
    async (job) => {
      if (!(await s.dispatch.records.stepDue(job.data.supplierOrderId))) return;
      const so = await s.dispatch.records.load(job.data.supplierOrderId);
      if (so && nextStep(so)) await s.dispatch.queue.request(so);
    },
  );
  const offWake = s.feed.on(WORK_CHANNEL, () => runner.poke());
  runner.start();
  s.dispatch.sweeper.start();
  await boss.work<StoreOrderEvent>(STORE_ORDER_EVENTS_QUEUE, POLLING, async ([job]) => {
    await s.dispatch.subscriptions.onStoreOrderEvent(job.data);
  });
  await boss.work<OrderReadBack>(READBACK_QUEUES.order, POLLING, async ([job]) => {
    await s.dispatch.job.readBack(job.data.connectionId, job.data.supplierOrderId);
  });
  return async (timeoutMs) => {
    s.dispatch.sweeper.stop();
    offWake();
    await runner.stop(timeoutMs);
    for (const stop of stops) await stop(timeoutMs);
  };
}
