import type { DataSource } from 'typeorm';
import type { Boss, QueueSpec } from '../platform/jobs';
import { wakeRunners } from './sql/reads';
import type { PartRef } from './supplier-order';

/** One dispatch job per order part, whatever triggers it. */
export const DISPATCH_QUEUE = 'dispatch.supplier-order';
export { WORK_CHANNEL } from './sql/reads';
/** The read-back safety net's sweeps (./safety-net.ts). */
export const SAFETY_NET_QUEUE = 'readback.safety-net';
/** One sweep waiting and one running at most; the chain and the minutely schedule meet on this key. */
export const SWEEP_KEY = 'sweep';

/**
 * The runner fetches, and completes finished jobs, at most every 25 ms: a part waits that long at most to start, and
 * a busy runner makes about 40 fetches and completions a second rather than one of each per part.
 */
export const DISPATCH_BATCH_WINDOW_MS = 25;

export const singletonKeyOf = (so: { orderId: string; groupKey: string }) => `supplier-order:${so.orderId}:${so.groupKey}`;

/**
 * The dispatch queue: `exclusive` admits one queued-or-active job per order part; a dead worker's job comes back
 * once its heartbeat lapses. Jobs carry their connection as their group (and the supplier as its tier), so the
 * per-connection limit is enforced when jobs are claimed, across every process.
 */
export const DISPATCH_QUEUES: QueueSpec[] = [
  { name: DISPATCH_QUEUE, policy: 'exclusive', retryLimit: 50, retryDelay: 2, retryBackoff: true, retryDelayMax: 300, heartbeatSeconds: 10, notify: true },
  { name: SAFETY_NET_QUEUE, policy: 'stately', retryLimit: 1 },
];

export type { PartRef } from './supplier-order';

/** A dispatch job's data. `storeId` is absent from jobs queued before it was added; those read it from the record. */
export interface DispatchJobData {
  supplierOrderId: string;
  storeId?: string;
}

/** The store rides with the job, so that every statement of the job can name it (one shard under Citus). */
export const dispatchJobData = (so: Pick<PartRef, 'id' | 'storeId'>): DispatchJobData => ({ supplierOrderId: so.id, storeId: so.storeId });

/** Puts dispatch jobs on the queue and wakes the runners. */
export class DispatchQueue {
  constructor(
    private readonly boss: () => Boss,
    private readonly db: DataSource,
  ) {}

  /** True when a job was queued; false when one already waits or runs for the part (it will see the record as it is now). */
  async request(so: PartRef): Promise<boolean> {
    const id = await this.boss().send(DISPATCH_QUEUE, dispatchJobData(so), { singletonKey: singletonKeyOf(so), group: { id: so.connectionId, tier: so.supplierKey } });
    if (id) await this.wake();
    return !!id;
  }

  /** Many at once (the sweeper): one statement; parts that already have a job are skipped by the queue. */
  async requestMany(parts: PartRef[]): Promise<void> {
    if (!parts.length) return;
    await this.boss().insert(
      DISPATCH_QUEUE,
      parts.map((so) => ({ data: dispatchJobData(so), singletonKey: singletonKeyOf(so), group: { id: so.connectionId, tier: so.supplierKey } })),
    );
    await this.wake();
  }

  private async wake(): Promise<void> {
    await wakeRunners(this.db);
  }
}
