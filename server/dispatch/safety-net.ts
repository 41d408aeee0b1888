import type { DataSource } from 'typeorm';
import type { Boss } from '../platform/jobs';
import type { Logger } from '../platform/logger';
import { type OrderReadBack, READBACK_QUEUE, readBackKey, SAFETY_NET_QUEUE, SWEEP_KEY } from './queues';
import * as sql from './sql/safety-net';

/** An order still open this long after it was made is one the supplier will not finish; it is no longer read on schedule. */
const MAX_AGE_DAYS = 90;
/** Per sweep: a connection with a large backlog cannot crowd the others out, and the queue stays bounded. */
const PER_CONNECTION = 200;
const PER_SWEEP = 2000;

interface SafetyNetTiming {
  /** How often a sweep looks for due orders. */
  sweepSeconds: number;
  /** Read-backs of one sweep are spread over this long. */
  jitterSeconds: number;
  /** An order not read (nor otherwise touched) for this long is due. */
  dueAfterSeconds: number;
}

/**
 * Sweeps, jitter and due age from the interval, so that an order is read back at most one interval after
 * it was last read: due after (interval − sweep − jitter), found by the next sweep, read within the jitter.
 */
export function safetyNetTiming(intervalSeconds: number): SafetyNetTiming {
  const sweepSeconds = Math.min(60, Math.max(1, Math.floor(intervalSeconds / 4)));
  const jitterSeconds = Math.min(15, sweepSeconds);
  return { sweepSeconds, jitterSeconds, dueAfterSeconds: Math.max(0, intervalSeconds - sweepSeconds - jitterSeconds) };
}

/**
 * The read-back safety net: no supplier order depends on a notification arriving. Open orders not read for
 * about an interval get a read-back job on dispatch's read-back queue (same singleton key, so it coalesces
 * with one a notification asked for), which applies status, costs and shipping the one way a read-back does.
 */
export class SafetyNet {
  readonly timing: SafetyNetTiming;

  constructor(
    private readonly db: DataSource,
    private readonly boss: Boss,
    private readonly log: Logger,
    intervalSeconds: number,
  ) {
    this.timing = safetyNetTiming(intervalSeconds);
  }

  /**
   * Orders due, oldest first, from connected connections whose circuit is closed, switched off ones included: an
   * order paid at the supplier still ships there (a supplier without notifications tells nobody; only this finds it). Due: neither changed
   * (every read-back writes the row) nor asked for by the safety net for the due age.
   */
  async due(): Promise<Array<OrderReadBack & { id: string }>> {
    const rows = await sql.dueOrders(this.db, {
      dueAfterSeconds: this.timing.dueAfterSeconds,
      maxAgeDays: MAX_AGE_DAYS,
      perConnection: PER_CONNECTION,
      perSweep: PER_SWEEP,
    });
    return rows.map((r) => ({ id: r.id, storeId: r.store_id, connectionId: r.connection_id, supplierOrderId: r.supplier_order_id }));
  }

  /** One sweep: read-backs for every due order, spread over the jitter; then the next sweep. */
  async sweep(): Promise<number> {
    const due = await this.due();
    let queued = 0;
    for (const { connectionId, supplierOrderId, storeId } of due) {
      const startAfter = new Date(Date.now() + Math.floor(Math.random() * this.timing.jitterSeconds * 1000));
      const data: OrderReadBack = { connectionId, supplierOrderId, storeId };
      // null: a read-back for the order is already waiting (a notification's, say); it serves.
      if (await this.boss.send(READBACK_QUEUE, data, { singletonKey: readBackKey(connectionId, supplierOrderId), startAfter })) queued++;
    }
    if (due.length) {
      // One statement per store: each stays on its store's shard.
      const byStore = new Map<string, string[]>();
      for (const d of due) byStore.set(d.storeId!, [...(byStore.get(d.storeId!) ?? []), d.id]);
      for (const [storeId, ids] of byStore) await sql.markReadBackAsked(this.db, storeId, ids);
      this.log.info({ due: due.length, queued }, 'safety-net read-backs queued');
    }
    await this.next();
    return queued;
  }

  /** The chain of sweeps; a delayed job, so any worker process may run the next one. */
  next(): Promise<string | null> {
    return this.boss.send(SAFETY_NET_QUEUE, {}, { singletonKey: SWEEP_KEY, startAfter: this.timing.sweepSeconds });
  }
}
