import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { type Boss, insertInTransaction, type QueueSpec } from '../platform/jobs';
import { wakeRunners } from './sql/reads';
import { connectionsWithOrder } from './sql/safety-net';
import type { PartRef } from './supplier-order';

/** One dispatch job per order part, whatever triggers it. */
export const DISPATCH_QUEUE = 'dispatch.supplier-order';
export { WORK_CHANNEL } from './sql/reads';
/** The read-back safety net's sweeps (./safety-net.ts). */
export const SAFETY_NET_QUEUE = 'readback.safety-net';
/** One sweep waiting and one running at most; the chain and the minutely schedule meet on this key. */
export const SWEEP_KEY = 'sweep';
/** Supplier orders read back from their supplier: asked for by a notification (orderReadBacks) or the safety net. */
export const READBACK_QUEUE = 'readback.supplier-order';
/** Read-backs each worker runs at once: one supplier that answers slowly must not hold every other connection's behind it. */
export const READBACK_CONCURRENCY = 4;
/** One read-back waiting per supplier order of a connection, however many notifications (and sweeps) ask. */
export const readBackKey = (connectionId: string, supplierOrderId: string) => `${connectionId}:${supplierOrderId}`;

/**
 * The runner fetches, and completes finished jobs, at most every 25 ms: a part waits that long at most to start, and
 * a busy runner makes about 40 fetches and completions a second rather than one of each per part.
 */
export const DISPATCH_BATCH_WINDOW_MS = 25;

export const singletonKeyOf = (so: { orderId: string; partKey: string }) => `supplier-order:${so.orderId}:${so.partKey}`;

/**
 * The dispatch queue: `exclusive` admits one queued-or-active job per order part; a dead worker's job comes back
 * once its heartbeat lapses. Jobs carry their connection as their group (and the supplier as its tier), so the
 * per-connection limit is enforced when jobs are claimed, across every process.
 */
/** Claims with the supplier (./claims/): sent once, then read back until decided; one waiting and one running per claim. */
export const CLAIM_QUEUE = 'dispatch.claim';
export const claimJobKey = (claimId: string) => `claim:${claimId}`;
export interface ClaimJobData {
  claimId: string;
  storeId: string;
}

export const DISPATCH_QUEUES: QueueSpec[] = [
  { name: DISPATCH_QUEUE, policy: 'exclusive', retryLimit: 50, retryDelay: 2, retryBackoff: true, retryDelayMax: 300, heartbeatSeconds: 10, notify: true },
  { name: SAFETY_NET_QUEUE, policy: 'stately', retryLimit: 1 },
  // A read-back held by a worker that was killed is retried once its heartbeat lapses, not after pg-boss's 15-minute expiry.
  { name: READBACK_QUEUE, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true, heartbeatSeconds: 10, notify: true },
  { name: CLAIM_QUEUE, policy: 'stately', retryLimit: 8, retryDelay: 10, retryBackoff: true, heartbeatSeconds: 10, notify: true },
];

/** Puts claim jobs on their queue: now, or after some seconds (the next look at an open claim). */
export class ClaimQueue {
  constructor(private readonly boss: () => Boss) {}

  async request(c: { id: string; storeId: string }, afterSeconds = 0): Promise<void> {
    await this.boss().send(CLAIM_QUEUE, { claimId: c.id, storeId: c.storeId } satisfies ClaimJobData, {
      singletonKey: claimJobKey(c.id),
      ...(afterSeconds ? { startAfter: afterSeconds } : {}),
    });
  }
}

/** A supplier order's read-back: its connection and store. */
export interface OrderReadBack {
  connectionId: string;
  storeId: string;
  supplierOrderId: string;
  orderNumber?: string;
}

/** What a supplier's notification asks of dispatch (the notifications domain is given it): who has a supplier order, and its read-back, queued in the caller's transaction. */
export const orderReadBacks = (boss: () => Boss, db: Queryable) => ({
  holders: (connectionIds: string[], supplierOrderId: string) => connectionsWithOrder(db, connectionIds, supplierOrderId),
  ask: (tx: Queryable, asks: OrderReadBack[]) =>
    insertInTransaction(
      boss(),
      tx,
      READBACK_QUEUE,
      asks.map((data) => ({ data, singletonKey: readBackKey(data.connectionId, data.supplierOrderId) })),
    ),
});

export type { PartRef } from './supplier-order';

/** A dispatch job's data: the part's record and its store. */
export interface DispatchJobData {
  supplierOrderId: string;
  storeId: string;
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
    const id = await this.boss().send(DISPATCH_QUEUE, dispatchJobData(so), {
      singletonKey: singletonKeyOf(so),
      group: { id: so.connectionId, tier: so.supplierKey },
    });
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
