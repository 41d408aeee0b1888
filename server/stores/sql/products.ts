import { affected, type Queryable, rows } from '../../platform/db';
import { isoTime, type KeysetListStatement, storeScope } from '../../platform/pagination';
import type { ProductStatus, ProductView, StoreProduct, StoreVariant } from '../types';

// Store products and their variants.

export async function lockProduct(tx: Queryable, storeId: string, productId: string): Promise<void> {
  await rows(tx, 'SELECT 1 FROM store_products WHERE store_id = $1 AND id = $2 FOR UPDATE', [storeId, productId]);
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
  return {
    list: 'storeProducts',
    binding: f,
    table: 'store_products',
    alias: 'p',
    filters,
    columns: `p.id, p.store_id, p.title, p.description, p.status, p.created_by_key_id, ${isoTime('p.created_at')} AS created_at, ${isoTime('p.updated_at')} AS updated_at,
              (SELECT coalesce(json_agg(json_build_object('id', v.id, 'sku', v.sku, 'title', v.title, 'priceMinor', v.price_minor, 'currency', v.currency, 'stock', v.stock) ORDER BY v.position), '[]')
                      FROM store_variants v WHERE v.store_id = p.store_id AND v.product_id = p.id) AS variants`,
    counts: { table: 'store_product_counts', sum: 'n' },
  };
}

/** These variants of the store (others' or unknown ids are left out), as an order line needs them. */
export function variantsInStore(
  db: Queryable,
  storeId: string,
  ids: string[],
): Promise<Array<{ id: string; productId: string; productTitle: string; sku: string; title: string; priceMinor: number; currency: string }>> {
  return rows(
    db,
    `SELECT v.id, v.product_id AS "productId", p.title AS "productTitle", v.sku, v.title, v.price_minor::float8 AS "priceMinor", v.currency
       FROM store_variants v JOIN store_products p ON p.store_id = v.store_id AND p.id = v.product_id WHERE v.id = ANY($1) AND v.store_id = $2`,
    [ids, storeId],
  );
}

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
export async function updateProduct(
  tx: Queryable,
  storeId: string,
  id: string,
  f: Partial<Pick<StoreProduct, 'title' | 'description' | 'status'>>,
): Promise<void> {
  await affected(
    tx,
    'UPDATE store_products SET title = coalesce($3, title), description = coalesce($4, description), status = coalesce($5, status), updated_at = now() WHERE store_id = $1 AND id = $2',
    [storeId, id, f.title ?? null, f.description ?? null, f.status ?? null],
  );
}

export async function deleteProduct(db: Queryable, storeId: string, id: string): Promise<void> {
  await affected(db, 'DELETE FROM store_products WHERE store_id = $1 AND id = $2', [storeId, id]);
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
export async function variantsOfProduct(db: Queryable, storeId: string, productId: string): Promise<StoreVariant[]> {
  return (await rows<VariantRow>(db, 'SELECT * FROM store_variants WHERE store_id = $1 AND product_id = $2 ORDER BY position', [storeId, productId])).map(
    variantOf,
  );
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

export async function updateVariant(
  tx: Queryable,
  storeId: string,
  id: string,
  v: Pick<StoreVariant, 'sku' | 'title' | 'priceMinor' | 'currency' | 'stock' | 'position'>,
): Promise<void> {
  await affected(
    tx,
    'UPDATE store_variants SET sku = $3, title = $4, price_minor = $5, currency = $6, stock = $7, position = $8 WHERE store_id = $1 AND id = $2',
    [storeId, id, v.sku, v.title, v.priceMinor, v.currency, v.stock, v.position],
  );
}

export async function deleteVariants(tx: Queryable, storeId: string, ids: string[]): Promise<void> {
  await affected(tx, 'DELETE FROM store_variants WHERE store_id = $1 AND id = ANY($2)', [storeId, ids]);
}

// --- What the catalogue's link sync applies (through ProductService.applySupplierChanges)

/** Set-based: a null stock or price keeps the variant's own; variants already so are not written again. */
export async function updateStoreVariants(
  tx: Queryable,
  storeId: string,
  v: { id: string[]; stock: Array<number | null>; price: Array<number | null> },
): Promise<void> {
  await affected(
    tx,
    `UPDATE store_variants v SET stock = coalesce(u.stock, v.stock), price_minor = coalesce(u.price, v.price_minor)
       FROM unnest($2::uuid[], $3::int[], $4::bigint[]) AS u(id, stock, price)
      WHERE v.store_id = $1 AND v.id = u.id AND (v.stock, v.price_minor) IS DISTINCT FROM (coalesce(u.stock, v.stock), coalesce(u.price, v.price_minor))`,
    [storeId, v.id, v.stock, v.price],
  );
}

export async function updateProductTitles(tx: Queryable, storeId: string, t: { product: string[]; title: string[] }): Promise<void> {
  await affected(
    tx,
    `UPDATE store_products p SET title = u.title, updated_at = now() FROM unnest($2::uuid[], $3::text[]) AS u(id, title) WHERE p.store_id = $1 AND p.id = u.id`,
    [storeId, t.product, t.title],
  );
}
