// The orders domain's queues: none of its own since issue 33 (its events go through the outbox).

/**
 * Store order events went out on this queue until issue 33. A worker still takes what is left on it (a deployment
 * that had jobs queued), records each as the outbox event it stands for, and the hourly housekeeping removes the
 * queue once nothing is left on it. Not created at start.
 */
export const RETIRED_EVENTS_QUEUE = 'events.store-order';
