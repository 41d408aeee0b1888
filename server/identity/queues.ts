import type { QueueSpec } from '../platform/jobs';

/** Hourly housekeeping: expired sessions go (and old notification receipts with them). */
export const HOUSEKEEPING_QUEUE = 'housekeeping';

export const IDENTITY_QUEUES: QueueSpec[] = [{ name: HOUSEKEEPING_QUEUE, policy: 'singleton', retryLimit: 2 }];
