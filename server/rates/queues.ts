import type { QueueSpec } from '../platform/jobs';

/** The daily fetch of the reference rates (and one at start when none is stored). */
export const RATES_REFRESH_QUEUE = 'exchange-rates.refresh';
export const RATES_REFRESH_KEY = 'refresh';

export const RATES_QUEUES: QueueSpec[] = [{ name: RATES_REFRESH_QUEUE, policy: 'singleton', retryLimit: 3, retryDelay: 300, retryBackoff: true }];
