import type { Reader } from './render';

// How deliveries and reactions are tried: their settings, what a fault on our side says, when one is tried again.

export interface DeliveryConfig {
  /** Deliveries in flight in this process, of one subscription and of one store (a slow receiver holds only its own, a store only its share). */
  concurrency: number;
  perSubscription: number;
  perStore: number;
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** A delivery failing this long is given up; a subscription with nothing delivered meanwhile is switched off. */
  giveUpMs: number;
  bodyLimitBytes: number;
  pollMs: number;
}

/** The subscription owner's access to the store now (null: none left), and whether the owner's key is revoked. */
export type OwnerAccess = (storeId: string, accountId: string, keyId: string | null) => Promise<(Reader & { keyRevoked: boolean }) | null>;

/** Why a delivery could not be built or sent on our side: retried like a failed send, then given up with the reason. */
export const FAULTS = {
  renderFailed: 'The event could not be rendered',
  ownerUnreadable: "The subscription owner's access could not be read",
  secretUnreadable: 'The signing secret could not be read (rotate the secret)',
  internal: 'The delivery could not be sent (an error on our side)',
  standbyBehind: "The database's standby had not yet confirmed the event (a failover could still lose it)",
} as const;
export const NOT_PERMITTED = "The subscription's owner may not read this resource.";
export const RETRIED = '; it is retried.';
export const GIVEN_UP = '; it was retried until its retry period ended.';

/** Exponential backoff with equal jitter: half of base × 2ⁿ⁻¹ (at most the cap), plus up to as much again at random. */
export function retryDelayMs(failures: number, baseMs: number, maxMs: number, random = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.min(failures - 1, 40));
  return Math.round(full / 2 + (random() * full) / 2);
}

/** How long a claim holds: longer than any attempt, so only a dead process's claims lapse. */
export const leaseMsOf = (timeoutMs: number) => 2 * timeoutMs + 5000;
