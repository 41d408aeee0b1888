import { affected, Queryable, rows } from '../platform/db';
import { isoTime, KeysetListStatement, storeScope } from '../platform/pagination';
import type { ProductView } from './products';
import type { ProductStatus, StaffMember, Store, StoreProduct, StoreVariant } from './types';

// The stores domain's SQL statements; its services call these and hold no SQL text of their own.

export interface StoreOfAccountRow {
  id: string;
  name: string;
  currency: string;
  owner_account_id: string;
  created_at: Date;
  permissions: string[] | null;
}

/** Stores the account owns or works on, newest first, with its staff permissions there. */
export function storesOfAccount(db: Queryable, accountId: string): Promise<StoreOfAccountRow[]> {
  return rows(
    db,
    `SELECT s.id, s.name, s.currency, s.owner_account_id, s.created_at, st.permissions
       FROM stores s LEFT JOIN store_staff st ON st.store_id = s.id AND st.account_id = $1
      WHERE s.owner_account_id = $1 OR st.account_id IS NOT NULL
      ORDER BY s.created_at DESC, s.id DESC`,
    [accountId],
  );
}

/** Holds the product row for the rest of the caller's transaction. */
export async function lockProduct(tx: Queryable, productId: string): Promise<void> {
  await rows(tx, 'SELECT 1 FROM store_products WHERE id = $1 FOR UPDATE', [productId]);
}

export interface ProductListRow {
  id: string;
  store_id: string;
  title: string;
  description: string;
  status: string;
  variants: ProductView['variants'];
  created_by_key_id: string | null;
  /** ISO 8601, as answered. */
  created_at: string;
  updated_at: string;
}

/** The store product list: each product with its variants in position order; counted by store_product_counts. */
export function productList(f: { storeId: string; ownKeyId: string | null; status?: string }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  if (f.status) filters.push({ column: 'status', countColumn: 'status', value: f.status });
  return { list: 'storeProducts', binding: f, table: 'store_products', alias: 'p', filters,
    columns: `p.id, p.store_id, p.title, p.description, p.status, p.created_by_key_id, ${isoTime('p.created_at')} AS created_at, ${isoTime('p.updated_at')} AS updated_at,
              (SELECT coalesce(json_agg(json_build_object('id', v.id, 'sku', v.sku, 'title', v.title, 'priceMinor', v.price_minor, 'currency', v.currency, 'stock', v.stock) ORDER BY v.position), '[]')
                      FROM store_variants v WHERE v.product_id = p.id) AS variants`,
    counts: { table: 'store_product_counts', sum: 'n' },
  };
}

/** The store's next order number (the counter is the store's; the orders domain asks for it). */
export async function nextOrderNumber(tx: Queryable, storeId: string): Promise<number> {
  const [{ order_counter: n }] = await rows<{ order_counter: number }>(tx, 'UPDATE stores SET order_counter = order_counter + 1 WHERE id = $1 RETURNING order_counter', [storeId]);
  return n;
}

/** These variants of the store (others' or unknown ids are left out), as an order line needs them. */
export function variantsInStore(db: Queryable, storeId: string, ids: string[]): Promise<Array<{ id: string; productId: string; productTitle: string; sku: string; title: string; priceMinor: number; currency: string }>> {
  return rows(
    db,
    `SELECT v.id, v.product_id AS "productId", p.title AS "productTitle", v.sku, v.title, v.price_minor::float8 AS "priceMinor", v.currency
       FROM store_variants v JOIN store_products p ON p.id = v.product_id WHERE v.id = ANY($1) AND v.store_id = $2`,
    [ids, storeId],
  );
}

// --- Stores and staff

interface StoreRow {
  id: string;
  owner_account_id: string;
  name: string;
  currency: string;
  created_at: Date;
}
const storeOf = (r: StoreRow): Store => ({ id: r.id, ownerAccountId: r.owner_account_id, name: r.name, currency: r.currency, createdAt: r.created_at });

export async function insertStore(db: Queryable, s: Pick<Store, 'id' | 'ownerAccountId' | 'name' | 'currency'>): Promise<Store> {
  const [r] = await rows<StoreRow>(db, 'INSERT INTO stores (id, owner_account_id, name, currency) VALUES ($1, $2, $3, $4) RETURNING *', [s.id, s.ownerAccountId, s.name, s.currency]);
  return storeOf(r);
}

export async function storeById(db: Queryable, id: string): Promise<Store | null> {
  const [r] = await rows<StoreRow>(db, 'SELECT * FROM stores WHERE id = $1', [id]);
  return r ? storeOf(r) : null;
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

// --- Store products and variants

interface ProductRow {
  id: string;
  store_id: string;
  title: string;
  description: string;
  status: ProductStatus;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date;
  updated_at: Date;
}
const productOf = (r: ProductRow): StoreProduct => ({
  id: r.id,
  storeId: r.store_id,
  title: r.title,
  description: r.description,
  status: r.status,
  createdByAccountId: r.created_by_account_id,
  createdByKeyId: r.created_by_key_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export async function insertProduct(tx: Queryable, p: Omit<StoreProduct, 'createdAt' | 'updatedAt'>): Promise<StoreProduct> {
  const [r] = await rows<ProductRow>(
    tx,
    `INSERT INTO store_products (id, store_id, title, description, status, created_by_account_id, created_by_key_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [p.id, p.storeId, p.title, p.description, p.status, p.createdByAccountId, p.createdByKeyId],
  );
  return productOf(r);
}

/** The product, if it is one of the store's. */
export async function productInStore(db: Queryable, storeId: string, id: string): Promise<StoreProduct | null> {
  const [r] = await rows<ProductRow>(db, 'SELECT * FROM store_products WHERE id = $1 AND store_id = $2', [id, storeId]);
  return r ? productOf(r) : null;
}

/** Sets the fields given (the others stay) and stamps the change. */
export async function updateProduct(tx: Queryable, id: string, f: Partial<Pick<StoreProduct, 'title' | 'description' | 'status'>>): Promise<void> {
  await affected(
    tx,
    'UPDATE store_products SET title = coalesce($2, title), description = coalesce($3, description), status = coalesce($4, status), updated_at = now() WHERE id = $1',
    [id, f.title ?? null, f.description ?? null, f.status ?? null],
  );
}

export async function deleteProduct(db: Queryable, id: string): Promise<void> {
  await affected(db, 'DELETE FROM store_products WHERE id = $1', [id]);
}

interface VariantRow {
  id: string;
  product_id: string;
  store_id: string;
  sku: string;
  title: string;
  price_minor: string;
  currency: string;
  stock: number;
  position: number;
}
const variantOf = (r: VariantRow): StoreVariant => ({
  id: r.id,
  productId: r.product_id,
  storeId: r.store_id,
  sku: r.sku,
  title: r.title,
  priceMinor: Number(r.price_minor),
  currency: r.currency,
  stock: r.stock,
  position: r.position,
});

/** The product's variants in position order. */
export async function variantsOfProduct(db: Queryable, productId: string): Promise<StoreVariant[]> {
  return (await rows<VariantRow>(db, 'SELECT * FROM store_variants WHERE product_id = $1 ORDER BY position', [productId])).map(variantOf);
}

export async function insertVariants(tx: Queryable, variants: StoreVariant[]): Promise<void> {
  if (!variants.length) return;
  const col = <K extends keyof StoreVariant>(k: K) => variants.map((v) => v[k]);
  await affected(
    tx,
    `INSERT INTO store_variants (id, product_id, store_id, sku, title, price_minor, currency, stock, position)
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::int[], $9::int[])`,
    [col('id'), col('productId'), col('storeId'), col('sku'), col('title'), col('priceMinor'), col('currency'), col('stock'), col('position')],
  );
}

export async function updateVariant(tx: Queryable, id: string, v: Pick<StoreVariant, 'sku' | 'title' | 'priceMinor' | 'currency' | 'stock' | 'position'>): Promise<void> {
  await affected(tx, 'UPDATE store_variants SET sku = $2, title = $3, price_minor = $4, currency = $5, stock = $6, position = $7 WHERE id = $1', [
    id,
    v.sku,
    v.title,
    v.priceMinor,
    v.currency,
    v.stock,
    v.position,
  ]);
}

export async function deleteVariants(tx: Queryable, ids: string[]): Promise<void> {
  await affected(tx, 'DELETE FROM store_variants WHERE id = ANY($1)', [ids]);
}
