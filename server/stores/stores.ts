import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../platform/db';
import { ApiError, errors } from '../platform/errors';
import type { Caller, StoreAccess } from '../platform/http/route';
import { grantsBeyond, OWNER_GRANTS, ownRecordsKeyId, planIncludesDropshipping, type Grantor, type Permission } from '../identity/permissions';
import type { StaffMember, Store } from './types';
import * as sql from './sql/stores';

interface StoreView {
  id: string;
  name: string;
  currency: string;
  ownerAccountId: string;
  createdAt: string;
}

export const storeView = (s: Store): StoreView => ({
  id: s.id,
  name: s.name,
  currency: s.currency,
  ownerAccountId: s.ownerAccountId,
  createdAt: s.createdAt.toISOString(),
});

export class StoreService {
  constructor(private readonly db: DataSource) {}

  create(ownerAccountId: string, input: { name: string; currency: string }): Promise<Store> {
    return sql.insertStore(this.db, { id: crypto.randomUUID(), ownerAccountId, name: input.name, currency: input.currency });
  }

  /** Stores the account owns or works on, with the permissions it holds there. */
  async listFor(accountId: string): Promise<Array<StoreView & { role: 'owner' | 'staff'; permissions: string[] | null }>> {
    const rows = await sql.storesOfAccount(this.db, accountId);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      currency: r.currency,
      ownerAccountId: r.owner_account_id,
      createdAt: r.created_at.toISOString(),
      role: r.owner_account_id === accountId ? 'owner' : 'staff',
      permissions: r.owner_account_id === accountId ? null : r.permissions,
    }));
  }

  async get(id: string): Promise<Store> {
    const store = await this.find(id);
    if (!store) throw errors.notFound('The store');
    return store;
  }

  find(id: string): Promise<Store | null> {
    return sql.storeById(this.db, id);
  }

  /** The store's next order number, inside the order's transaction (the counter is the store's). */
  /** Whether the store owner's plan includes dropshipping now: work done for the store later (automatic sends, reroutes) checks it when it would act. */
  async dropshipping(storeId: string): Promise<boolean> {
    return planIncludesDropshipping((await sql.ownerPlan(this.db, storeId)) ?? '');
  }

  nextOrderNumber(tx: Queryable, storeId: string): Promise<number> {
    return sql.nextOrderNumber(tx, storeId);
  }

  /** Adds a member or replaces their permissions, as far as the grantor may: see `grantsBeyond`. */
  setStaff(storeId: string, accountId: string, permissions: Permission[], grantor: Grantor): Promise<StaffMember> {
    const after = [...new Set(permissions)].sort();
    return this.db.transaction(async (tx) => {
      const store = await sql.lockStoreStaff(tx, storeId);
      if (!store) throw errors.notFound('The store');
      if (store.ownerAccountId === accountId) throw errors.badRequest('ownerIsNotStaff', 'The store owner already holds every permission.');
      refuseBeyond(grantor, (await sql.staffPermissions(tx, storeId, accountId)) ?? [], after);
      return sql.upsertStaff(tx, storeId, accountId, after);
    });
  }

  listStaff(storeId: string): Promise<StaffMember[]> {
    return sql.staffOfStore(this.db, storeId);
  }

  /** Removing a member takes away every permission they hold: the grantor must be able to take each one. */
  async removeStaff(storeId: string, accountId: string, grantor: Grantor): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await sql.lockStoreStaff(tx, storeId))) throw errors.notFound('The store');
      const before = await sql.staffPermissions(tx, storeId, accountId);
      if (!before) throw errors.notFound('The staff member');
      refuseBeyond(grantor, before, []);
      await sql.deleteStaff(tx, storeId, accountId);
    });
  }
}

function refuseBeyond(grantor: Grantor, before: string[], after: string[]): void {
  const beyond = grantsBeyond(grantor, before, after);
  if (!beyond.length) return;
  throw new ApiError(
    403,
    'grantExceedsOwnPermissions',
    `A staff member grants or takes away only permissions they hold, and never ${[...OWNER_GRANTS].join(' or ')}: the store owner does. Not yours to change: ${beyond.map((b) => b.permission).join(', ')}.`,
    beyond.map((b) => ({
      message: b.reason === 'ownerOnly' ? 'Granted and taken away by the store owner only' : 'Not held by the caller',
      permission: b.permission,
      reason: b.reason,
    })),
  );
}

/**
 * Who manages staff on this request. A key that reaches only its own records cannot: a member reaches every record of
 * the store, so a grant would carry the key past its record scope.
 */
export function grantorOf(caller: Caller, store: StoreAccess): Grantor {
  if (ownRecordsKeyId(caller)) {
    throw errors.forbidden(
      'recordScopeTooNarrow',
      "Staff reach every record of the store; a key that reaches only its own records cannot manage them. Use a key that reaches all the account's records, or sign in.",
    );
  }
  return { isOwner: store.isOwner, permissions: store.permissions };
}
