import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { errors } from '../platform/errors';
import type { Permission } from '../identity/permissions';
import type { StaffMember, Store } from './types';
import * as sql from './sql';

export interface StoreView {
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
    const store = await sql.storeById(this.db, id);
    if (!store) throw errors.notFound('The store');
    return store;
  }

  async setStaff(storeId: string, accountId: string, permissions: Permission[]): Promise<StaffMember> {
    const store = await this.get(storeId);
    if (store.ownerAccountId === accountId) throw errors.badRequest('ownerIsNotStaff', 'The store owner already holds every permission.');
    return sql.upsertStaff(this.db, storeId, accountId, [...new Set(permissions)].sort());
  }

  listStaff(storeId: string): Promise<StaffMember[]> {
    return sql.staffOfStore(this.db, storeId);
  }

  async removeStaff(storeId: string, accountId: string): Promise<void> {
    if (!(await sql.deleteStaff(this.db, storeId, accountId))) throw errors.notFound('The staff member');
  }
}
