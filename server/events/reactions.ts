import type { DataSource } from 'typeorm';
import { boundedWait } from '../platform/bounded-wait';
import { failpoint } from '../platform/failpoints';
import type { Logger } from '../platform/logger';
import { retryDelayMs } from './delivery-rules';
import type { ClaimedReaction, ReactionRoute } from './sql/rows';
import { claimReactions, endReaction } from './sql/reactions';
import type { OutboxEvent } from './types';

/** What a domain does when an event it subscribed to is recorded; it may run more than once for one event (at least once). */
export type ReactionHandler = (event: OutboxEvent) => Promise<void>;

export interface ReactionConfig {
  /** Reactions in flight in this process. */
  concurrency: number;
  leaseMs: number;
  retryMaxMs: number;
  giveUpMs: number;
}

/** A failed reaction is tried again after 2 s, doubling (with jitter) up to the events' cap. */
const RETRY_BASE_MS = 2000;

/**
 * The service's own subscribers to the outbox, by event type: each domain that reacts to another's events registers
 * its handler here when it is built (dispatch sends a part once its order is confirmed). The handler's name is stored
 * with each reaction, so it stays the same across releases.
 */
export class Reactions {
  private readonly handlers = new Map<string, { types: string[]; handle: ReactionHandler }>();
  private closed = false;

  /** While the list is built (each domain's index.ts); closed once it is assembled. */
  on(types: string[], name: string, handle: ReactionHandler): void {
    if (this.closed) throw new Error(`reaction ${name} registered after the domains were assembled`);
    if (this.handlers.has(name)) throw new Error(`reaction ${name} registered twice`);
    this.handlers.set(name, { types, handle });
  }

  close(): void {
    this.closed = true;
  }

  /** Which handler takes which type: fan-out makes a reaction for each. */
  routes(): ReactionRoute[] {
    return [...this.handlers].flatMap(([handler, h]) => h.types.map((type) => ({ type, handler })));
  }

  handlerOf(name: string): ReactionHandler | undefined {
    return this.handlers.get(name)?.handle;
  }
}

/**
 * Runs the reactions fan-out made, inside the delivery loop (one claim per pass): each under a lease, retried with
 * backoff when its handler throws, given up (kept as failed, logged) after the events' retry period.
 */
export class ReactionRunner {
  private running = 0;
  private drained: (() => void) | null = null;

  constructor(
    private readonly db: DataSource,
    private readonly reactions: Reactions,
    private readonly config: ReactionConfig,
    private readonly log: Logger,
    /** Called when a reaction ends: its slot is free for the next claim. */
    private readonly freed: () => void,
  ) {}

  /** Claims what the free slots take and starts each; answers how many. */
  async pass(): Promise<number> {
    const free = this.config.concurrency - this.running;
    if (free <= 0 || !this.reactions.routes().length) return 0;
    const claimed = await claimReactions(this.db, free, this.config.leaseMs);
    for (const r of claimed) {
      this.running++;
      void this.run(r).finally(() => {
        this.running--;
        if (this.running === 0) this.drained?.();
        this.freed();
      });
    }
    return claimed.length;
  }

  private async run(r: ClaimedReaction): Promise<void> {
    let failure: { error: string; nextAt: Date | null } | null = null;
    try {
      const handle = this.reactions.handlerOf(r.handler);
      if (!handle) throw new Error(`no handler ${r.handler} in this process`);
      failpoint('events.react');
      await handle(r.event);
    } catch (err) {
      const over = Date.now() - r.pendingSince.getTime() >= this.config.giveUpMs;
      failure = {
        error: String((err as Error)?.message ?? err).slice(0, 500),
        nextAt: over ? null : new Date(Date.now() + retryDelayMs(r.attempts, RETRY_BASE_MS, this.config.retryMaxMs)),
      };
      this.log[over ? 'error' : 'warn'](
        { err, reaction: r.handler, eventId: r.event.id, type: r.event.type, attempts: r.attempts },
        over ? 'event reaction given up' : 'event reaction failed; it is tried again',
      );
    }
    // Not written (the database away): the lease lapses and the reaction runs again.
    await endReaction(this.db, r.event.storeId, r.id, failure).catch((err: unknown) =>
      this.log.warn({ err: String(err), reaction: r.handler }, 'event reaction outcome not written'),
    );
  }

  /** Waits (bounded) for the reactions in flight; what is left runs again once its lease lapses. */
  async stop(timeoutMs: number): Promise<void> {
    if (this.running) await boundedWait(timeoutMs, (done) => (this.drained = done));
  }
}
