import type { Queryable } from '../platform/db';
import { type Boss, insertInTransaction, type QueueSpec } from '../platform/jobs';
import { connectionsWithProduct } from './sql/links';

// The catalogue's queues: names, policies, retries and how each job's singleton key is made, declared once.

export const IMPORT_QUEUE = 'catalog.import';
export const SYNC_QUEUES = { all: 'catalog.sync-all', connection: 'catalog.sync-connection' } as const;
/** Supplier products read back from their supplier, asked for by a supplier's notification (productReadBacks). */
export const READBACK_QUEUE = 'readback.supplier-product';
/** Read-backs each worker runs at once: one supplier that answers slowly must not hold every other connection's behind it. */
export const READBACK_CONCURRENCY = 4;

export const CATALOGUE_QUEUES: QueueSpec[] = [
  // A worker that dies mid-import stops sending heartbeats; the job is retried and resumes at the first pending item.
  { name: IMPORT_QUEUE, policy: 'singleton', retryLimit: 20, retryDelay: 1, heartbeatSeconds: 10, notify: true },
  { name: SYNC_QUEUES.all, policy: 'singleton', retryLimit: 1 },
  { name: SYNC_QUEUES.connection, policy: 'stately', retryLimit: 2, retryDelay: 60 },
  // One waiting per product of a connection; a worker killed mid-read-back gives it back once its heartbeat lapses.
  { name: READBACK_QUEUE, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true, heartbeatSeconds: 10, notify: true },
];

/** An import job's work: the job, and its store. */
export interface ImportWork {
  importJobId: string;
  storeId: string;
}

/** A connection's sync: the connection, and its store. */
export interface ConnectionSyncWork {
  connectionId: string;
  storeId: string;
}

/** One job per import job, keyed by it, in its store's group (the worker runs one of a store's imports at a time). */
export function sendImport(boss: Boss, work: ImportWork): Promise<string | null> {
  return boss.send(IMPORT_QUEUE, work, { singletonKey: work.importJobId, group: { id: work.storeId } });
}

/** One sync waiting per connection, keyed by it. */
export function sendConnectionSync(boss: Boss, work: ConnectionSyncWork): Promise<string | null> {
  return boss.send(SYNC_QUEUES.connection, work, { singletonKey: work.connectionId });
}

/** A supplier product's read-back: the connection that links it, and its store. */
export interface ProductReadBack {
  connectionId: string;
  storeId: string;
  supplierProductId: string;
}

/** What a supplier's notification asks of the catalogue (the notifications domain is given it): who links a supplier product, and its read-back, queued in the caller's transaction. */
export const productReadBacks = (boss: () => Boss, db: Queryable) => ({
  holders: (connectionIds: string[], supplierProductId: string) => connectionsWithProduct(db, connectionIds, supplierProductId),
  ask: (tx: Queryable, asks: ProductReadBack[]) =>
    insertInTransaction(
      boss(),
      tx,
      READBACK_QUEUE,
      asks.map((data) => ({ data, singletonKey: `${data.connectionId}:${data.supplierProductId}` })),
    ),
});
