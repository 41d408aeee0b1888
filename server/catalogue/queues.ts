import type { Boss, QueueSpec } from '../platform/jobs';

// The catalogue's queues: names, policies, retries and how each job's singleton key is made, declared once.

export const IMPORT_QUEUE = 'catalog.import';
export const SYNC_QUEUES = { all: 'catalog.sync-all', connection: 'catalog.sync-connection' } as const;

export const CATALOGUE_QUEUES: QueueSpec[] = [
  // A worker that dies mid-import stops sending heartbeats; the job is retried and resumes at the first pending item.
  { name: IMPORT_QUEUE, policy: 'singleton', retryLimit: 20, retryDelay: 1, heartbeatSeconds: 10, notify: true },
  { name: SYNC_QUEUES.all, policy: 'singleton', retryLimit: 1 },
  { name: SYNC_QUEUES.connection, policy: 'stately', retryLimit: 2, retryDelay: 60 },
];

/** An import job's work: the job, and its store (jobs queued before it was carried have none: it is read once). */
export interface ImportWork {
  importJobId: string;
  storeId?: string;
}

/** A connection's sync: the connection, and its store (absent in jobs queued before it was carried). */
export interface ConnectionSyncWork {
  connectionId: string;
  storeId?: string;
}

/** One job per import job, keyed by it, in its store's group (the worker runs one of a store's imports at a time). */
export function sendImport(boss: Boss, work: Required<ImportWork>): Promise<string | null> {
  return boss.send(IMPORT_QUEUE, work, { singletonKey: work.importJobId, group: { id: work.storeId } });
}

/** One sync waiting per connection, keyed by it. */
export function sendConnectionSync(boss: Boss, work: Required<ConnectionSyncWork>): Promise<string | null> {
  return boss.send(SYNC_QUEUES.connection, work, { singletonKey: work.connectionId });
}
