import type { QueueSpec } from '../platform/jobs';

// The notifications' queues: names, policies, retries and how each job's singleton key is made, declared once.

export const READBACK_QUEUES = { order: 'readback.supplier-order', product: 'readback.supplier-product' } as const;

/** One read-back waiting per supplier order or product of a connection, however many notifications (and sweeps) ask. */
export const readBackKey = (connectionId: string, supplierId: string) => `${connectionId}:${supplierId}`;

/**
 * A heartbeat, as dispatch's jobs have: a read-back held by a worker that was killed is failed (and retried) once its
 * heartbeat lapses, not after pg-boss's 15-minute expiry, while the next read-back of the same order waits behind it.
 */
export const NOTIFICATION_QUEUES: QueueSpec[] = [
  { name: READBACK_QUEUES.order, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true, heartbeatSeconds: 10, notify: true },
  { name: READBACK_QUEUES.product, policy: 'stately', retryLimit: 5, retryDelay: 30, retryBackoff: true, heartbeatSeconds: 10, notify: true },
];

/**
 * Read-backs each worker runs at once: one supplier that answers slowly (a read-back waits up to the supplier time-out,
 * retries included) must not hold every other connection's read-backs behind it.
 */
export const READBACK_CONCURRENCY = 4;
