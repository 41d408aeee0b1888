import { type Logger, Throttle } from './logger';

/**
 * A loop's failures in a row (the database away): how long it waits before it tries again (its poll interval,
 * doubling with each failure, at most 10 s), its warnings at most once per window, and one line when it works again.
 */
export class FailureStreak {
  private count = 0;
  readonly throttle = new Throttle();

  get failing(): boolean {
    return this.count > 0;
  }

  failed(log: Logger, fields: Record<string, unknown>, msg: string): void {
    this.count++;
    this.throttle.warn(log, fields, msg);
  }

  ok(log: Logger, fields: Record<string, unknown>, msg: string): void {
    if (this.count) log.info({ ...fields, failures: this.count }, msg);
    this.count = 0;
  }

  /** Runs one pass of the loop: a failure is counted and said (`msgs.failed`), the first success after failures too (`msgs.back`). */
  async attempt(log: Logger, fields: Record<string, unknown>, msgs: { failed: string; back: string }, pass: () => Promise<void>): Promise<void> {
    try {
      await pass();
      this.ok(log, fields, msgs.back);
    } catch (err) {
      this.failed(log, { ...fields, err: String(err) }, msgs.failed);
    }
  }

  waitMs(pollMs: number): number {
    return this.count ? Math.min(10_000, pollMs * 2 ** Math.min(this.count, 5)) : pollMs;
  }
}
