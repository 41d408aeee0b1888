import type { Caller } from '../platform/http/route';
import type { Plan } from './types';

/** Store permissions; the owner holds all of them, staff hold what they were granted. */
export const PERMISSIONS = [
  'suppliers.view',
  'suppliers.manage',
  'suppliers.import',
  'suppliers.orders.manage',
  'products.view',
  'products.manage',
  'orders.view',
  'orders.manage',
  'customers.view',
  'staff.manage',
  // The payment provider's signing secret: whoever sets it decides which payment events the store believes.
  'payments.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const PLAN_RANK: Record<Plan, number> = { free: 0, starter: 1, pro: 2, business: 3 };
export const DROPSHIPPING_PLAN: Plan = 'pro';

export function planIncludesDropshipping(plan: string): boolean {
  return (PLAN_RANK[plan as Plan] ?? -1) >= PLAN_RANK[DROPSHIPPING_PLAN];
}

/**
 * Record scope: an `own` key reaches only records it created. Answers the key id to filter on,
 * or null when the caller reaches every record of the store (an `account` key or a signed-in user).
 */
export function ownRecordsKeyId(caller: Caller | null): string | null {
  return caller?.apiKey?.recordScope === 'own' ? caller.apiKey.id : null;
}

/** Who did something, as a history event names it: a key, a signed-in user, or the service itself. */
export interface Actor {
  kind: 'key' | 'user' | 'system';
  id: string | null;
}

/** Who made a record: the stamp every record carries (the account, and the key when a key made it). */
export interface Creator {
  createdByAccountId: string;
  createdByKeyId: string | null;
}

export function actorOf(caller: Caller): Actor {
  return caller.apiKey ? { kind: 'key', id: caller.apiKey.id } : { kind: 'user', id: caller.accountId };
}

export function creatorOf(caller: Caller): Creator {
  return { createdByAccountId: caller.accountId, createdByKeyId: caller.apiKey?.id ?? null };
}
