import { DEFAULT_DELIVERY_WATCH } from '../../connections';
import { ApiError } from '../../platform/errors';
import type { DataSource } from 'typeorm';
import type { SupplierOrderRecords } from '../records';
import { deliveryDue, moveDeliveryDue } from '../sql/delivery';
import { evaluate, UNWATCHED } from './watch';

/** Orders looked at per sweep: a backlog (a long outage of the sweeps) drains over several. */
const PER_SWEEP = 200;

/**
 * The delivery watch's sweep, run with the dispatch sweeper in every worker: only the orders whose next threshold came
 * due (an index on when), never a poll of every order. It calls no supplier: what the supplier says comes from
 * read-backs (notifications and the safety net); this sees only time pass. A threshold that now holds raises the
 * attention through the one transition; a look that raises nothing moves the due time on. Two workers sweeping at
 * once: the write is by compare and set on the delivery state read, so one of them writes.
 */
export class DeliveryWatchSweep {
  constructor(
    private readonly db: DataSource,
    private readonly records: Pick<SupplierOrderRecords, 'change'>,
  ) {}

  async sweep(now = new Date()): Promise<number> {
    let raised = 0;
    for (const { so, watch: stored } of await deliveryDue(this.db, PER_SWEEP)) {
      const watch = { ...DEFAULT_DELIVERY_WATCH, ...stored };
      const r = evaluate(so.delivery ?? UNWATCHED, so, watch, now);
      if (!r.turn) {
        await moveDeliveryDue(this.db, so, so.delivery, r.dueAt);
        continue;
      }
      try {
        await this.records.change(so, { type: 'deliveryWatched', watch });
        raised++;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'concurrentChange')) throw err;
      }
    }
    return raised;
  }
}
