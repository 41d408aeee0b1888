import { EventEmitter } from 'node:events';
import { Client } from 'pg';
import { applicationName } from './generation';
import { type Logger, Throttle } from './logger';

/**
 * One LISTEN connection per process, shared by everything that waits for a database notification. It reconnects
 * after a drop; a waiter never depends on it alone (every wait also reads the record again on a timer), so a
 * notification lost while reconnecting only delays an answer.
 */
export class ListenFeed {
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private readonly events = new EventEmitter();
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  /** Connects failed (or dropped) in a row: the wait before the next grows with it. */
  private failures = 0;
  private readonly throttle = new Throttle();

  constructor(
    private readonly connectionString: string,
    private readonly channels: string[],
    private readonly log: Logger,
  ) {
    this.events.setMaxListeners(0);
  }

  /** Calls `fn` with the payload of every notification on `channel` until the returned function is called. */
  on(channel: string, fn: (payload: string) => void): () => void {
    void this.ensure();
    this.events.on(channel, fn);
    return () => this.events.off(channel, fn);
  }

  /** Resolves with the next payload on `channel` that `match` accepts, or null after `ms`. */
  next(channel: string, match: (payload: string) => boolean, ms: number): Promise<string | null> {
    return new Promise((resolve) => {
      const off = this.on(channel, (payload) => {
        if (!match(payload)) return;
        clearTimeout(timer);
        off();
        resolve(payload);
      });
      const timer = setTimeout(() => {
        off();
        resolve(null);
      }, ms);
    });
  }

  private ensure(): Promise<void> {
    if (this.client || this.closed) return Promise.resolve();
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  /** Tries again after a drop or a failed connect, waiting longer each time it fails in a row (1 s, 2 s ... 10 s). */
  private again(): void {
    if (this.closed || this.retry) return;
    const wait = Math.min(10_000, 1000 * 2 ** Math.min(this.failures++, 4));
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.ensure();
    }, wait);
    this.retry.unref();
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.connectionString,
      application_name: applicationName('store-suppliers-listen'),
      connectionTimeoutMillis: 10_000,
      keepAlive: true,
    });
    client.on('notification', (n) => this.events.emit(n.channel, n.payload ?? ''));
    client.on('error', (err) => {
      this.throttle.warn(this.log, { err: String(err) }, 'listen connection lost');
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
      this.again();
    });
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN "${channel}"`);
      if (this.closed) return void (await client.end().catch(() => undefined));
      this.client = client;
      if (this.failures) this.log.info({ channels: this.channels }, 'listen connection back');
      this.failures = 0;
    } catch (err) {
      this.throttle.warn(this.log, { err: String(err) }, 'listen connection failed');
      await client.end().catch(() => undefined);
      this.again();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => undefined);
  }
}
