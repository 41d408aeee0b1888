import type { EntityManager } from 'typeorm';
import { type DbTimeouts, Queryable, rows } from './db';
import { databaseUnavailable } from './errors';
import { applicationName } from './generation';
import { type Logger, Throttle } from './logger';

// pg-boss is ESM-only; the type comes from a type-only import, the code from a real dynamic import.
type PgBossModule = typeof import('pg-boss', { with: { 'resolution-mode': 'import' } });
export type Boss = InstanceType<PgBossModule['PgBoss']>;

export interface QueueSpec {
  name: string;
  /** pg-boss queue policy; `exclusive` admits one queued-or-active job per singleton key. */
  policy?: 'standard' | 'short' | 'singleton' | 'stately' | 'exclusive';
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  heartbeatSeconds?: number;
  retryDelayMax?: number;
  /** Wake workers through LISTEN/NOTIFY the moment a job is created, instead of at their next poll. */
  notify?: boolean;
}

/**
 * Polling stays short beside LISTEN/NOTIFY: a notification only wakes workers when a job is created,
 * not when a delayed job or a retry becomes due. A worker otherwise waits an interval after every job,
 * so a backlog (a burst of submits, work piled up during an outage) is fetched continuously until a
 * fetch comes back empty.
 */
export const POLLING = { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 2, burstWhenReadyExceeds: 1 };

export async function startBoss(
  connectionString: string,
  queues: QueueSpec[],
  log: Logger,
  opts: { supervise: boolean; schedule: boolean; superviseSeconds: number; waits?: DbTimeouts; pooled?: boolean },
): Promise<Boss> {
  const { PgBoss } = (await import('pg-boss')) as PgBossModule;
  const boss = new PgBoss({
    connectionString,
    max: 5,
    supervise: opts.supervise,
    schedule: opts.schedule,
    superviseIntervalSeconds: opts.superviseSeconds,
    monitorIntervalSeconds: opts.superviseSeconds,
    // The ready counts behind burst fetching come from this cache.
    queueCacheIntervalSeconds: 5,
    application_name: applicationName('store-suppliers-jobs'),
    // Behind a pooler in transaction mode LISTEN has no session to live in: pg-boss polls (POLLING) instead.
    useListenNotify: !opts.pooled,
    // Bounded like the service's own pool, but client-side only: pg-boss's maintenance may run longer than a request.
    ...(opts.waits
      ? { connectionTimeoutMillis: opts.waits.connectMs, keepAlive: true, query_timeout: opts.waits.statementMs ? opts.waits.statementMs + 1000 : undefined }
      : {}),
  } as ConstructorParameters<PgBossModule['PgBoss']>[0]);
  // Every worker polls: a database away would fail each poll of each queue, so that is said once per window.
  const throttle = new Throttle();
  boss.on('error', (err: unknown) => {
    if (databaseUnavailable(err)) throttle.warn(log, { err: String((err as Error)?.message ?? err) }, 'job queue cannot reach the database');
    else log.error({ err }, 'job queue error');
  });
  await boss.start();
  for (const q of queues) {
    const { name, ...options } = q;
    await boss.createQueue(name, options);
    // createQueue leaves a queue that exists as it is: a heartbeat added since reaches deployments made before it.
    if (options.heartbeatSeconds) await boss.updateQueue(name, { heartbeatSeconds: options.heartbeatSeconds });
  }
  return boss;
}

/** pg-boss's `db` option over the caller's transaction: what pg-boss writes commits or rolls back with it. */
export function jobDb(tx: Queryable): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return { executeSql: async (text, values) => ({ rows: await rows(tx, text, values ?? []) }) };
}

/** Queues jobs, each under its singleton key, inside the caller's transaction (they exist exactly when it commits). */
export async function insertInTransaction(boss: Boss, tx: Queryable, queue: string, jobs: Array<{ data: object; singletonKey: string }>): Promise<void> {
  if (jobs.length) await boss.insert(queue, jobs, { db: jobDb(tx) });
}

/** Sends a job inside the caller's transaction (the job exists exactly when the transaction commits). */
export async function sendInTransaction(boss: Boss, tx: EntityManager, queue: string, data: object): Promise<void> {
  await boss.send(queue, data, { db: jobDb(tx) });
}
