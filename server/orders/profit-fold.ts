import type { DataSource } from 'typeorm';
import { failpoint } from '../platform/failpoints';
import { type Logger, Throttle } from '../platform/logger';
import { foldProfitDeltas, storesWithProfitDeltas } from './sql/profit';

/** How often each worker process folds (with up to a quarter of it added at random, so workers spread out). */
export const PROFIT_FOLD_MS = 2000;
const STORES_PER_ROUND = 100;

/**
 * Keeps the profit report's sums small to read: the deltas the parts' writes append (./sql/profit.ts) are folded into
 * profit_sums, one statement per store that has some, every couple of seconds in each worker. The report is exact
 * whether or not a fold ran (it adds what is not folded yet); folding only keeps what it adds short. One statement
 * a round when nothing waits.
 */
export class ProfitFold {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private running: Promise<void> = Promise.resolve();
  private readonly throttle = new Throttle();

  constructor(
    private readonly db: DataSource,
    private readonly log: Logger,
    private readonly intervalMs = PROFIT_FOLD_MS,
  ) {}

  /** Folds every store's deltas (up to STORES_PER_ROUND stores); answers the rows folded. */
  async fold(): Promise<number> {
    failpoint('orders.profitFold'); // a drill holds the deltas unfolded (FAILPOINTS=orders.profitFold=throw)
    let folded = 0;
    for (const storeId of await storesWithProfitDeltas(this.db, STORES_PER_ROUND)) folded += await foldProfitDeltas(this.db, storeId);
    return folded;
  }

  start(): void {
    const next = () => {
      if (this.stopped) return;
      this.timer = setTimeout(
        () => {
          this.running = this.fold().then(
            () => undefined,
            (err: unknown) => this.throttle.warn(this.log, { err: String(err) }, 'profit sums not folded'),
          );
          void this.running.then(next);
        },
        this.intervalMs * (1 + Math.random() / 4),
      );
      this.timer.unref();
    };
    next();
  }

  /** Stops after the round under way, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
