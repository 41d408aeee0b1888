import type { Boss, QueueSpec } from '../platform/jobs';

/** Hourly housekeeping: expired sessions go (and old notification receipts with them). */
export const HOUSEKEEPING_QUEUE = 'housekeeping';

/** The sweep that refunds credits held by requests whose process died (their lease lapsed). */
export const CREDIT_HOLD_SWEEP_QUEUE = 'credits.hold-sweep';
/** One sweep waiting and one running at most; the chain and the minutely schedule meet on this key. */
export const HOLD_SWEEP_KEY = 'sweep';

export const IDENTITY_QUEUES: QueueSpec[] = [
  { name: HOUSEKEEPING_QUEUE, policy: 'singleton', retryLimit: 2 },
  { name: CREDIT_HOLD_SWEEP_QUEUE, policy: 'stately', retryLimit: 1 },
];

/** The next sweep, as a delayed job any worker process may run. */
export function nextHoldSweep(boss: Boss, afterSeconds: number): Promise<string | null> {
  return boss.send(CREDIT_HOLD_SWEEP_QUEUE, {}, { singletonKey: HOLD_SWEEP_KEY, startAfter: afterSeconds });
}
