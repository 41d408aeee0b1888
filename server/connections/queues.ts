import type { Boss, QueueSpec } from '../platform/jobs';

// The connections domain's queue, declared once: the sweep that renews sign-ins before they end.

export const CREDENTIAL_RENEWAL_QUEUE = 'connections.credential-renewal';
/** One sweep waiting and one running at most; the chain and the minutely schedule meet on this key. */
export const RENEWAL_SWEEP_KEY = 'sweep';

export const CONNECTION_QUEUES: QueueSpec[] = [{ name: CREDENTIAL_RENEWAL_QUEUE, policy: 'stately', retryLimit: 1 }];

/** The next sweep, as a delayed job any worker process may run. */
export function nextRenewalSweep(boss: Boss, afterSeconds: number): Promise<string | null> {
  return boss.send(CREDENTIAL_RENEWAL_QUEUE, {}, { singletonKey: RENEWAL_SWEEP_KEY, startAfter: afterSeconds });
}
