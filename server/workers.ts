import type { Boss, QueueSpec } from './platform/jobs';
import type { Services } from './composition';
import type { OrderReadBack, ProductReadBack } from './notifications/service';
import { NOTIFICATION_QUEUES, READBACK_QUEUES, SAFETY_NET_QUEUE, SWEEP_KEY } from './notifications/queues';
import { CATALOGUE_QUEUES, IMPORT_QUEUE, SYNC_QUEUES } from './catalogue/queues';
import { DISPATCH_QUEUE, DISPATCH_QUEUES, WORK_CHANNEL } from './dispatch/queues';
import { HOUSEKEEPING_QUEUE, IDENTITY_QUEUES } from './identity/queues';
import { JobRunner, JobRunnerOptions } from './platform/job-runner';
import type { StoreOrderEvent } from './orders/events';
import { ORDER_QUEUES, STORE_ORDER_EVENTS_QUEUE } from './orders/queues';
import { nextStep } from './dispatch/steps';
import { SafetyNet } from './notifications/safety-net';
import { CONNECTION_QUEUES, CREDENTIAL_RENEWAL_QUEUE, nextRenewalSweep, RENEWAL_SWEEP_KEY } from './connections/queues';

/** Every queue, as each domain declares it (name, policy, retries): created at start by platform/jobs. */
export const QUEUES: QueueSpec[] = [...IDENTITY_QUEUES, ...CONNECTION_QUEUES, ...NOTIFICATION_QUEUES, ...CATALOGUE_QUEUES, ...DISPATCH_QUEUES, ...ORDER_QUEUES];

/**
 * Polling stays short beside LISTEN/NOTIFY: a notification only wakes workers when a job is created,
 * not when a delayed job or a retry becomes due. A worker otherwise waits an interval after every job,
 * so a backlog (a burst of submits, work piled up during an outage) is fetched continuously until a
 * fetch comes back empty.
 */
export const POLLING = { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 2, burstWhenReadyExceeds: 1 };
/** The dispatch runner's options in a process; the benchmark's no-op baseline uses the same. */
export function dispatchRunnerOptions(s: Pick<Services, 'config' | 'registry'>): JobRunnerOptions {
  return { concurrency: s.config.dispatchConcurrency, groupConcurrency: { default: 4, tiers: s.registry.callsInFlight() }, pollMs: 2000, heartbeatSeconds: 10 };
}

/** Handlers and schedules of the worker role. Job data carries ids, never entities. Answers a graceful stop. */
export async function registerWorkers(boss: Boss, s: Services): Promise<(timeoutMs: number) => Promise<void>> {
  await boss.work(HOUSEKEEPING_QUEUE, async () => {
    const removed = await s.accounts.purgeExpiredSessions();
    await s.notifications.purgeReceipts();
    s.log.info({ removed }, 'housekeeping done');
  });
  await boss.schedule(HOUSEKEEPING_QUEUE, '17 * * * *');

  // Sign-ins that expire are renewed before they end: a chain of sweeps, which the minutely schedule restarts if it breaks.
  await boss.work(CREDENTIAL_RENEWAL_QUEUE, async () => {
    try {
      await s.credentialRenewal.sweep();
    } finally {
      await nextRenewalSweep(boss, s.config.credentialRenewalSeconds);
    }
  });
  await boss.schedule(CREDENTIAL_RENEWAL_QUEUE, '* * * * *', {}, { singletonKey: RENEWAL_SWEEP_KEY });
  await nextRenewalSweep(boss, s.config.credentialRenewalSeconds);

  await boss.work<{ importJobId: string }>(IMPORT_QUEUE, { localConcurrency: 2, ...POLLING }, async ([job]) => {
    await s.imports.runJob(job.data.importJobId);
  });

  await boss.work(SYNC_QUEUES.all, async () => {
    const n = await s.catalogueSync.scheduleAll();
    s.log.info({ connections: n }, 'hourly link sync fanned out');
  });
  await boss.schedule(SYNC_QUEUES.all, s.config.linkSyncCron);
  await boss.work<{ connectionId: string }>(SYNC_QUEUES.connection, { localConcurrency: 2 }, async ([job]) => {
    const result = await s.catalogueSync.syncConnection(job.data.connectionId);
    s.log.info({ connectionId: job.data.connectionId, ...result }, 'connection links synced');
  });

  await boss.work<ProductReadBack>(READBACK_QUEUES.product, POLLING, async ([job]) => {
    await s.catalogueSync.readBackProduct(job.data.connectionId, job.data.supplierProductId);
  });

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
  // Open supplier orders are read back on the queue above even when no notification comes: a chain of sweeps,
  // which the minutely schedule restarts should it ever break (a crash between a sweep and its successor).
  const safetyNet = new SafetyNet(s.db, boss, s.log, s.config.readBackIntervalSeconds);
  await boss.work(SAFETY_NET_QUEUE, async () => {
    await safetyNet.sweep();
  });
  await boss.schedule(SAFETY_NET_QUEUE, '* * * * *', {}, { singletonKey: SWEEP_KEY });
  await safetyNet.next();
  return async (timeoutMs) => {
    s.dispatch.sweeper.stop();
    offWake();
    await runner.stop(timeoutMs);
  };
}
