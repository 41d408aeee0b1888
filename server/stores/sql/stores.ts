import { affected, type Queryable, rows } from '../../platform/db';
import type { StaffMember, Store } from '../types';

// The stores domain's data module (this folder): every statement on its tables (stores, staff, products, variants).
// This file: stores and their staff, and the plan of a store's owner (the identity domain's account, read with it).

interface StoreOfAccountRow {
  id: string;
  name: string;
  currency: string;
  owner_account_id: string;
  created_at: Date;
  permissions: string[] | null;
}

/** Stores the account owns or works on, newest first, with its staff permissions there: an account's, so over all stores. */
export function storesOfAccount(db: Queryable, accountId: string): Promise<StoreOfAccountRow[]> {
  return rows(
    db,
    `SELECT /* cross-store: stores-of-account */ s.id, s.name, s.currency, s.owner_account_id, s.created_at, st.permissions
       FROM stores s LEFT JOIN store_staff st ON st.store_id = s.id AND st.account_id = $1
      WHERE s.owner_account_id = $1 OR st.account_id IS NOT NULL
      ORDER BY s.created_at DESC, s.id DESC`,
    [accountId],
  );
}

/** The store's next order number (the counter is the store's; the orders domain asks for it). */
export async function nextOrderNumber(tx: Queryable, storeId: string): Promise<number> {
  const [{ order_counter: n }] = await rows<{ order_counter: number }>(
    tx,
    'UPDATE stores SET order_counter = order_counter + 1 WHERE id = $1 RETURNING order_counter',
    [storeId],
  );
  return n;
}

interface StoreRow {
  id: string;
  owner_account_id: string;
  name: string;
  currency: string;
  created_at: Date;
}
const storeOf = (r: StoreRow): Store => ({ id: r.id, ownerAccountId: r.owner_account_id, name: r.name, currency: r.currency, createdAt: r.created_at });

export async function insertStore(db: Queryable, s: Pick<Store, 'id' | 'ownerAccountId' | 'name' | 'currency'>): Promise<Store> {
  const [r] = await rows<StoreRow>(db, 'INSERT INTO stores (id, owner_account_id, name, currency) VALUES ($1, $2, $3, $4) RETURNING *', [
    s.id,
    s.ownerAccountId,
    s.name,
    s.currency,
  ]);
  return storeOf(r);
}

export async function storeById(db: Queryable, id: string): Promise<Store | null> {
  const [r] = await rows<StoreRow>(db, 'SELECT * FROM stores WHERE id = $1', [id]);
  return r ? storeOf(r) : null;
}

/** The plan of the store's owner now (null: no such store). */
export async function ownerPlan(db: Queryable, storeId: string): Promise<string | null> {
  const [row] = await rows<{ plan: string }>(db, 'SELECT o.plan FROM stores s JOIN accounts o ON o.id = s.owner_account_id WHERE s.id = $1', [storeId]);
  return row?.plan ?? null;
}

interface StaffRow {
  store_id: string;
  account_id: string;
  permissions: string[];
  created_at: Date;
}
const staffOf = (r: StaffRow): StaffMember => ({ storeId: r.store_id, accountId: r.account_id, permissions: r.permissions, createdAt: r.created_at });

/** Sets a staff member's permissions, adding the member if new. */
export async function upsertStaff(db: Queryable, storeId: string, accountId: string, permissions: string[]): Promise<StaffMember> {
  const [r] = await rows<StaffRow>(
    db,
    `INSERT INTO store_staff (store_id, account_id, permissions) VALUES ($1, $2, $3)
     ON CONFLICT (store_id, account_id) DO UPDATE SET permissions = EXCLUDED.permissions RETURNING *`,
    [storeId, accountId, permissions],
  );
  return staffOf(r);
}

export async function staffOfStore(db: Queryable, storeId: string): Promise<StaffMember[]> {
  return (await rows<StaffRow>(db, 'SELECT * FROM store_staff WHERE store_id = $1 ORDER BY created_at', [storeId])).map(staffOf);
}

/** The store, its row locked until the transaction ends so that staff changes to it happen one at a time; null: none. */
export async function lockStoreStaff(tx: Queryable, id: string): Promise<Store | null> {
  // NO KEY UPDATE: rows that refer to the store (products, orders) can still be written meanwhile.
  const [r] = await rows<StoreRow>(tx, 'SELECT * FROM stores WHERE id = $1 FOR NO KEY UPDATE', [id]);
  return r ? storeOf(r) : null;
}

/** A member's permissions; null when the account is not on the store's staff. */
export async function staffPermissions(db: Queryable, storeId: string, accountId: string): Promise<string[] | null> {
  const [r] = await rows<{ permissions: string[] }>(db, 'SELECT permissions FROM store_staff WHERE store_id = $1 AND account_id = $2', [storeId, accountId]);
  return r?.permissions ?? null;
}

/** Answers whether there was such a member. */
export async function deleteStaff(db: Queryable, storeId: string, accountId: string): Promise<boolean> {
  return (await affected(db, 'DELETE FROM store_staff WHERE store_id = $1 AND account_id = $2', [storeId, accountId])) > 0;
}
