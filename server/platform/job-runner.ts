import type { Boss } from './jobs';
import { databaseUnavailable } from './errors';
import { FailureStreak } from './failure-streak';
import type { Logger } from './logger';
import { LoopSignals } from './loop-signals';

export interface RunnerJob<T> {
  id: string;
  retryCount: number;
  data: T;
}

export interface JobRunnerOptions {
  /** Jobs run at once by this process. */
  concurrency: number;
  /** Jobs of one group (a supplier connection) running at once across every process, per group tier. */
  groupConcurrency?: { default: number; tiers?: Record<string, number> };
  /** How long an idle runner waits before it looks again (a wake-up cuts it short). */
  pollMs: number;
  /** The queue's heartbeat; active jobs are touched at a third of it. */
  heartbeatSeconds: number;
  /**
   * The least time between two fetches (0: none). Jobs that end meanwhile are completed, and their slots filled, in
   * one call each, instead of one completion and one fetch for nearly every job on a fast queue.
   */
  batchWindowMs?: number;
}

/**
 * Runs a queue's jobs with many slots for one fetch: a single loop claims as many jobs as there are free slots in
 * one statement (pg-boss enforces the per-group limit in that statement, across processes), runs them side by side,
 * and keeps their claims alive with one heartbeat statement for all. Jobs that ended are completed together, in one
 * statement, right before the loop's next fetch (so their slots are free for it), then handed to `after` as one
 * batch. An idle runner costs one fetch per poll interval, whatever its concurrency; a wake-up (a job sent) or a
 * freed slot fetches at once.
 */
export class JobRunner<T> {
  /** Claimed and not yet completed or failed at the queue. */
  private readonly active = new Map<string, RunnerJob<T>>();
  /** Ended well, waiting to be completed with the next batch. */
  private finished: RunnerJob<T>[] = [];
  private handlersRunning = 0;
  private running = false;
  /** A wake-up that comes during a fetch makes the loop fetch again at once. */
  private readonly signals = new LoopSignals();
  private loop: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly streak = new FailureStreak();
  private readonly throttle = this.streak.throttle;

  constructor(
    private readonly boss: Boss,
    private readonly queue: string,
    private readonly opts: JobRunnerOptions,
    private readonly handler: (job: RunnerJob<T>) => Promise<void>,
    private readonly log: Logger,
    /** Runs after a batch of jobs was completed, outside their claims. */
    private readonly after?: (jobs: RunnerJob<T>[]) => Promise<void>,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
    this.heartbeat = setInterval(() => void this.touch(), Math.max(1000, (this.opts.heartbeatSeconds * 1000) / 3));
    this.heartbeat.unref();
  }

  /** Fetches now instead of at the next poll. */
  poke(): void {
    this.signals.poke();
  }

  get inFlight(): number {
    return this.active.size;
  }

  private async run(): Promise<void> {
    let lastFetch = 0;
    while (this.running) {
      const gap = (this.opts.batchWindowMs ?? 0) - (Date.now() - lastFetch);
      if (gap > 0) await new Promise((r) => setTimeout(r, gap));
      lastFetch = Date.now();
      this.signals.poked = false;
      await this.settle();
      const free = this.opts.concurrency - this.active.size;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs: RunnerJob<T>[] = await this.boss.fetch<T>(this.queue, { batchSize: free, groupConcurrency: this.opts.groupConcurrency });
          fetched = jobs.length;
          for (const job of jobs) this.begin(job);
          this.streak.ok(this.log, { queue: this.queue }, 'job fetch works again');
        } catch (err) {
          this.streak.failed(this.log, { err: String(err), queue: this.queue }, 'job fetch failed');
        }
      }
      // A full fetch means more may wait: fetch again at once. Otherwise sleep until woken or polled.
      if (fetched > 0 && fetched === free) continue;
      if (!this.running) break;
      if (this.signals.poked && (this.finished.length > 0 || this.active.size < this.opts.concurrency)) continue;
      await this.signals.sleep(this.streak.waitMs(this.opts.pollMs));
    }
  }

  private begin(job: RunnerJob<T>): void {
    this.active.set(job.id, job);
    this.handlersRunning++;
    void (async () => {
      try {
        await this.handler(job);
        this.finished.push(job);
      } catch (err) {
        const fields = { err: err instanceof Error ? err.message : String(err), queue: this.queue, jobId: job.id };
        if (databaseUnavailable(err)) this.throttle.warn(this.log, fields, 'job failed; the queue retries it');
        else this.log.warn(fields, 'job failed; the queue retries it');
        await this.boss
          .fail(this.queue, [{ id: job.id, retryCount: job.retryCount }], { message: err instanceof Error ? err.message : String(err) })
          .catch(() => undefined);
        this.active.delete(job.id);
      }
      if (--this.handlersRunning === 0) this.signals.drain();
      // A slot is free once this job is completed: the loop completes it and fetches now rather than at the next poll.
      this.poke();
    })();
  }

  /** Completes the jobs that ended, in one statement, then runs `after` on them. */
  private async settle(): Promise<void> {
    if (!this.finished.length) return;
    const batch = this.finished;
    this.finished = [];
    await this.boss
      .complete(
        this.queue,
        batch.map((j) => ({ id: j.id, retryCount: j.retryCount })),
      )
      .catch((err: unknown) =>
        this.throttle.warn(this.log, { err: String(err), queue: this.queue, jobs: batch.length }, 'job completion failed; the queue retries those jobs'),
      );
    for (const j of batch) this.active.delete(j.id);
    if (this.after)
      await this.after(batch).catch((err: unknown) =>
        this.throttle.warn(this.log, { err: String(err), queue: this.queue, jobs: batch.length }, 'after-job check failed'),
      );
  }

  private async touch(): Promise<void> {
    if (!this.active.size) return;
    const held = [...this.active.values()].map((j) => ({ id: j.id, retryCount: j.retryCount }));
    await this.boss
      .touch(this.queue, held)
      .catch((err: unknown) => this.throttle.warn(this.log, { err: String(err), queue: this.queue }, 'job heartbeat failed'));
  }

  /** Stops fetching and waits (bounded) for the jobs in flight; what is left is retried by the queue after its heartbeat lapses. */
  async stop(timeoutMs: number): Promise<void> {
    this.running = false;
    this.signals.poke();
    await this.loop;
    if (this.handlersRunning) await this.signals.waitDrained(timeoutMs);
    await this.settle();
    if (this.heartbeat) clearInterval(this.heartbeat);
  }
}
