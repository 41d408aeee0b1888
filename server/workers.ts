import type { Boss, QueueSpec } from './platform/jobs';
import type { Services } from './composition';
import { READBACK_QUEUES, ProductReadBack } from './webhooks/service';
import { IMPORT_QUEUE } from './catalog/imports';
import { SYNC_QUEUES } from './catalog/sync';
import { DISPATCH_QUEUE, RETRY_FAILED_QUEUE } from './dispatch/service';
import type { OrderReadBack } from './webhooks/service';
import { SafetyNet, SAFETY_NET_QUEUE_SPEC } from './webhooks/safety-net';

export const QUEUE = {
  housekeeping: 'housekeeping',
} as const;

export const QUEUES: QueueSpec[] = [
  { name: QUEUE.housekeeping, policy: 'singleton', retryLimit: 2 },
  // One read-back waiting per supplier order or product, however many notifications arrive.
  { name: READBACK_QUEUES.order, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true, notify: true },
  { name: READBACK_QUEUES.product, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true, notify: true },
  // A worker that dies mid-import stops sending heartbeats; the job is retried and resumes at the first pending item.
  { name: IMPORT_QUEUE, policy: 'singleton', retryLimit: 20, retryDelay: 1, heartbeatSeconds: 10, notify: true },
  { name: SYNC_QUEUES.all, policy: 'singleton', retryLimit: 1 },
  { name: SYNC_QUEUES.connection, policy: 'stately', retryLimit: 2, retryDelay: 60 },
  // One queued-or-active dispatch job per order part, whatever triggered it; a dead worker's job is retried.
  { name: DISPATCH_QUEUE, policy: 'exclusive', retryLimit: 50, retryDelay: 2, retryBackoff: true, retryDelayMax: 300, heartbeatSeconds: 10, notify: true },
  { name: RETRY_FAILED_QUEUE, policy: 'standard', retryLimit: 3, retryDelay: 10 },
  SAFETY_NET_QUEUE_SPEC,
];

/**
 * Polling stays short beside LISTEN/NOTIFY: a notification only wakes workers when a job is created,
 * not when a delayed job or a retry becomes due. A worker otherwise waits an interval after every job,
 * so a backlog (a burst of submits, work piled up during an outage) is fetched continuously until a
 * fetch comes back empty.
 */
export const POLLING = { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 2, burstWhenReadyExceeds: 1 };
/** The dispatch worker's options; the benchmark's no-op baseline uses the same. */
export const DISPATCH_WORK_OPTIONS = { localConcurrency: 4, ...POLLING };

/** Handlers and schedules of the worker role. Job data carries ids, never entities. */
export async function registerWorkers(boss: Boss, s: Services): Promise<void> {
  await boss.work(QUEUE.housekeeping, async () => {
    const removed = await s.accounts.purgeExpiredSessions();
    await s.notifications.purgeReceipts();
    s.log.info({ removed }, 'housekeeping done');
  });
  await boss.schedule(QUEUE.housekeeping, '17 * * * *');

  await boss.work<{ importJobId: string }>(IMPORT_QUEUE, { localConcurrency: 2, ...POLLING }, async ([job]) => {
    await s.imports.runJob(job.data.importJobId);
  });

  await boss.work(SYNC_QUEUES.all, async () => {
    const n = await s.catalogSync.scheduleAll();
    s.log.info({ connections: n }, 'hourly link sync fanned out');
  });
  await boss.schedule(SYNC_QUEUES.all, s.config.linkSyncCron);
  await boss.work<{ connectionId: string }>(SYNC_QUEUES.connection, { localConcurrency: 2 }, async ([job]) => {
    const result = await s.catalogSync.syncConnection(job.data.connectionId);
    s.log.info({ connectionId: job.data.connectionId, ...result }, 'connection links synced');
  });

  await boss.work<ProductReadBack>(READBACK_QUEUES.product, POLLING, async ([job]) => {
    await s.catalogSync.readBackProduct(job.data.connectionId, job.data.supplierProductId);
  });

  await boss.work<{ supplierOrderId: string }>(DISPATCH_QUEUE, DISPATCH_WORK_OPTIONS, async ([job]) => {
    await s.dispatch.work(job.data.supplierOrderId);
  });
  await boss.work<{ supplierOrderId?: string }>(RETRY_FAILED_QUEUE, POLLING, async ([job]) => {
    await s.dispatch.retryFailed(job.data?.supplierOrderId);
  });
  await boss.schedule(RETRY_FAILED_QUEUE, '* * * * *');
  await boss.work<OrderReadBack>(READBACK_QUEUES.order, POLLING, async ([job]) => {
    await s.dispatch.readBack(job.data.connectionId, job.data.supplierOrderId);
  });
  // Open supplier orders are read back on the queue above even when no notification comes.
  await new SafetyNet(s.db, boss, s.log, s.config.readBackIntervalSeconds).start();
}
