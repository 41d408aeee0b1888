import { boundedWait } from './bounded-wait';

/**
 * The wake-ups and the drain of a polling loop (the job runner, the event delivery loop): a poke wakes it from its
 * sleep, and one that comes while it works makes it go round again at once; a stop waits, bounded, for the work in
 * flight to end.
 */
export class LoopSignals {
  /** Set by a poke; the loop clears it as it starts a round. */
  poked = false;
  private wake: (() => void) | null = null;
  private drained: (() => void) | null = null;

  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  /** Sleeps `ms`, or until poked. */
  async sleep(ms: number): Promise<void> {
    await boundedWait(ms, (done) => (this.wake = done));
    this.wake = null;
  }

  /** Says that the last work in flight ended. */
  drain(): void {
    this.drained?.();
  }

  /** Waits until `drain` is said, or `timeoutMs` at most. */
  waitDrained(timeoutMs: number): Promise<void> {
    return boundedWait(timeoutMs, (done) => (this.drained = done));
  }
}
