import type { QueueSpec } from '../platform/jobs';

// The orders domain's queues, declared once.

/** Store order events (./events), one job each; no singleton key: every event is acted on. */
export const STORE_ORDER_EVENTS_QUEUE = 'events.store-order';

// Heartbeats: an event whose worker died is retried within seconds, not after the default expiry.
export const ORDER_QUEUES: QueueSpec[] = [{ name: STORE_ORDER_EVENTS_QUEUE, policy: 'standard', retryLimit: 20, retryDelay: 2, retryBackoff: true, heartbeatSeconds: 10, notify: true }];
