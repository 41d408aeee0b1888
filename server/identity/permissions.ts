import type { Caller } from '../platform/http/route';
import type { Plan } from './types';

import { PERMISSIONS, type Permission } from '../platform/vocabulary/permissions';

export { PERMISSIONS, type Permission };

/**
 * Granted or taken away by the store owner only: whoever holds staff.manage changes who works on the store, and
 * whoever holds payments.manage decides which payment events the store believes.
 */
export const OWNER_GRANTS: ReadonlySet<string> = new Set<Permission>(['staff.manage', 'payments.manage']);

/** Who changes a member's permissions: the owner, or a staff member with the permissions they hold. */
export interface Grantor {
  isOwner: boolean;
  permissions: ReadonlySet<string>;
}

/**
 * The permissions a grantor may not change in a move from `before` to `after` (granted or taken away), each with
 * why: a staff member changes only permissions they hold, never the owner's grants. Empty: the change may be made.
 */
export function grantsBeyond(grantor: Grantor, before: readonly string[], after: readonly string[]): GrantBeyond[] {
  if (grantor.isOwner) return [];
  const changed = new Set([...after.filter((p) => !before.includes(p)), ...before.filter((p) => !after.includes(p))]);
  return [...changed].sort().flatMap((permission): GrantBeyond[] => {
    if (OWNER_GRANTS.has(permission)) return [{ permission, reason: 'ownerOnly' }];
    return grantor.permissions.has(permission) ? [] : [{ permission, reason: 'notHeld' }];
  });
}
interface GrantBeyond {
  permission: string;
  reason: 'notHeld' | 'ownerOnly';
}

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
