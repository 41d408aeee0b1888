import type { ListenFeed } from '../platform/listen';
import { CHANGE_CHANNEL, SupplierOrderRecords } from './records';
import type { SupplierOrder } from './supplier-order';
import { nextStep } from './steps';

/** Nothing is due: the job has done everything the record asks for (sent, paid, cancelled, or paused). */
const settledNow = (so: SupplierOrder) => nextStep(so) === null;

/** Looks again at least this often while waiting, in case a notification was lost. */
const RECHECK_MS = 1000;

/**
 * Waits, bounded, until a supplier order is settled, woken by the database notification every change of the record
 * sends (sql.ts writeChange); answers the record as it then is.
 */
export class SupplierOrderWaiter {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly feed: ListenFeed,
    private readonly waitMs: number,
  ) {}

  async until(id: string, storeId: string, done: (so: SupplierOrder) => boolean = settledNow): Promise<{ so: SupplierOrder; settled: boolean }> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      // Listen before reading, so a change between the read and the wait is not missed.
      let wake: () => void = () => undefined;
      const changed = new Promise<void>((resolve) => (wake = resolve));
      const off = this.feed.on(CHANGE_CHANNEL, (payload) => payload === id && wake());
      try {
        const so = await this.records.loadOrFail(id, storeId);
        if (done(so)) return { so, settled: true };
        const left = deadline - Date.now();
        if (left <= 0) return { so, settled: false };
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([changed, new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.min(left, RECHECK_MS))))]);
        clearTimeout(timer);
      } finally {
        off();
      }
    }
  }
}
