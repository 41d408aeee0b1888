import { Queryable, rows } from '../platform/db';
import { KeysetListStatement, storeScope } from '../platform/pagination';
import type { ProductView } from './products';

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

export async function upsertStaff(db: Queryable, storeId: string, accountId: string, permissions: string[]): Promise<void> {
  await rows(
    db,
    `INSERT INTO store_staff (store_id, account_id, permissions) VALUES ($1, $2, $3)
     ON CONFLICT (store_id, account_id) DO UPDATE SET permissions = EXCLUDED.permissions`,
    [storeId, accountId, permissions],
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
  created_at: Date;
  updated_at: Date;
}

/** The store product list: each product with its variants in position order; counted by store_product_counts. */
export function productList(f: { storeId: string; ownKeyId: string | null; status?: string }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  if (f.status) filters.push({ column: 'status', countColumn: 'status', value: f.status });
  return { list: 'storeProducts', binding: f, table: 'store_products', alias: 'p', filters,
    columns: `p.id, p.store_id, p.title, p.description, p.status, p.created_by_key_id, p.created_at, p.updated_at, (SELECT coalesce(json_agg(json_build_object('id', v.id, 'sku', v.sku, 'title', v.title, 'priceMinor', v.price_minor, 'currency', v.currency, 'stock', v.stock) ORDER BY v.position), '[]')
                      FROM store_variants v WHERE v.product_id = p.id) AS variants`,
    counts: { table: 'store_product_counts', sum: 'n' },
  };
}
