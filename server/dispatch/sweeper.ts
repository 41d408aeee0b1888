import { type Logger, Throttle } from '../platform/logger';
import type { DispatchQueue } from './queues';
import type { StoreRates } from './landed';
import type { SupplierOrderRecords } from './records';
import type { RewindWatch } from './rewind';
import { SYSTEM } from './dispatch-event';

interface SweeperSettings {
  /** How often each worker process sweeps (with up to a quarter of it added at random, so workers spread out). */
  intervalMs: number;
  /** A record with a step due that nothing touched for this long is given a job (the queue skips it if it has one). */
  staleSeconds: number;
}

/**
 * The safety net under the dispatch jobs: failed orders whose backoff passed go back to queued (the automatic
 * retry), and every record with a step due and no recent change is given a job. Three statements on an idle database
 * (the first stamps the database's identity: ./rewind.ts).
 */
export class DispatchSweeper {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly throttle = new Throttle();

  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly queue: DispatchQueue,
    private readonly rewind: Pick<RewindWatch, 'check'>,
    private readonly settings: SweeperSettings,
    private readonly log: Logger,
    private readonly rates: StoreRates,
    /** After shipping: the delivery watch's due orders and the claims due a look (../dispatch/index.ts builds it). */
    private readonly afterShipping: { sweep(): Promise<unknown> } = { sweep: async () => undefined },
  ) {}

  async sweep(): Promise<{ retried: number; requeued: number }> {
    // A standby promoted under a running worker: noticed here, within a sweep (a restart notices it before any job).
    await this.rewind.check();
    let retried = 0;
    for (const so of await this.records.dueForRetry(200)) {
      let queued;
      try {
        queued = await this.records.change(so, { type: 'automaticRetry' });
      } catch {
        continue; // moved meanwhile
      }
      await this.queue.request(queued);
      retried++;
    }
    const stale = await this.records.stale(this.settings.staleSeconds, 500);
    await this.queue.requestMany(stale);
    await this.afterShipping.sweep();
    return { retried: retried + (await this.resumeOnRates()), requeued: stale.length };
  }

  /**
   * Parts paused for want of an exchange rate resume once the rate they waited for is there (fetched fresh, or
   * pinned): the pairs waited on are looked at first, then only parts of pairs that have a rate now are read, by turns
   * across stores, so parts waiting on a pair that never comes hold nobody else back.
   */
  private async resumeOnRates(): Promise<number> {
    const ready: string[] = [];
    for (const { from, to } of await this.records.pairsWaitedOn()) {
      // A pause that named no pair (none should) is retried: the pre-checks name it again if still missing.
      if (!from || !to || (await this.rates.rateFor(from, to)).available) ready.push(`${from ?? ''}>${to ?? ''}`);
    }
    if (!ready.length) return 0;
    let resumed = 0;
    for (const so of await this.records.waitingOnRate(ready, 200)) {
      let queued;
      try {
        queued = await this.records.change(so, { type: 'retry', actor: SYSTEM, resumed: 'exchangeRateAvailable' });
      } catch {
        continue; // moved meanwhile
      }
      await this.queue.request(queued);
      resumed++;
    }
    return resumed;
  }

  start(): void {
    const next = () => {
      if (this.stopped) return;
      this.timer = setTimeout(
        async () => {
          try {
            const out = await this.sweep();
            if (out.retried || out.requeued) this.log.info(out, 'dispatch sweep');
          } catch (err) {
            this.throttle.warn(this.log, { err: String(err) }, 'dispatch sweep failed');
          }
          next();
        },
        this.settings.intervalMs * (1 + Math.random() / 4),
      );
      this.timer.unref();
    };
    next();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
