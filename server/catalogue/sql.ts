import { affected, Queryable, rows } from '../platform/db';
import { KeysetListStatement, storeScope } from '../platform/pagination';
import type { SyncSwitches } from './entities';
import type { PriceRule } from './price-rule';

// The catalogue domain's SQL statements; its services call these and hold no SQL text of their own.

// --- Product links

export interface LinkListRow {
  id: string;
  store_id: string;
  product_id: string;
  connection_id: string;
  supplier_key: string;
  supplier_product_id: string;
  variants: Array<{ storeVariantId: string; supplierVariantId: string; costMinor: number; currency: string; stock: number; available: boolean }>;
  price_rule: PriceRule;
  sync: SyncSwitches;
  last_sync_at: Date | null;
  last_sync_error: string | null;
  created_by_key_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The product link list: each link with its variant mappings in the order of the store product's variants. */
export function linkList(f: { storeId: string; ownKeyId: string | null; connectionId?: string; productId?: string }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  if (f.connectionId) filters.push({ column: 'connection_id', countColumn: 'connection_id', value: f.connectionId });
  // A product has at most one link: counting by its index is as cheap as the counts.
  if (f.productId) filters.push({ column: 'product_id', value: f.productId });
  return { list: 'productLinks', binding: f, table: 'product_links', alias: 'l', filters,
    columns: `l.*, (SELECT coalesce(json_agg(json_build_object('storeVariantId', lv.store_variant_id, 'supplierVariantId', lv.supplier_variant_id, 'costMinor', lv.cost_minor,
                              'currency', lv.currency, 'stock', lv.stock, 'available', lv.available) ORDER BY sv.position), '[]')
                      FROM product_link_variants lv JOIN store_variants sv ON sv.id = lv.store_variant_id WHERE lv.link_id = l.id) AS variants`,
    counts: { table: 'product_link_counts', sum: 'n' },
  };
}

export interface LinkVariantRow {
  link_id: string;
  store_variant_id: string;
  supplier_variant_id: string;
  cost_minor: string;
  currency: string;
  stock: number;
  available: boolean;
}

/** The variant mappings of these links, in the order of the store product's variants. */
export function variantsOfLinks(db: Queryable, linkIds: string[]): Promise<LinkVariantRow[]> {
  return rows(db, 'SELECT lv.* FROM product_link_variants lv JOIN store_variants sv ON sv.id = lv.store_variant_id WHERE lv.link_id = ANY($1) ORDER BY sv.position', [linkIds]);
}

export async function markLinksFailed(db: Queryable, linkIds: string[], error: string): Promise<void> {
  await affected(db, 'UPDATE product_links SET last_sync_at = now(), last_sync_error = $2 WHERE id = ANY($1)', [linkIds, error]);
}

/** Store products linked to any of these supplier products. */
export function linkedProducts(db: Queryable, storeId: string, supplierKey: string, supplierProductIds: string[]): Promise<Array<{ supplier_product_id: string; product_id: string }>> {
  return rows(db, 'SELECT supplier_product_id, product_id FROM product_links WHERE store_id = $1 AND supplier_key = $2 AND supplier_product_id = ANY($3)', [storeId, supplierKey, supplierProductIds]);
}

/** The store product already linked to this supplier product, if any. */
export async function linkedProduct(db: Queryable, storeId: string, supplierKey: string, supplierProductId: string): Promise<string | null> {
  const [row] = await rows<{ product_id: string }>(db, 'SELECT product_id FROM product_links WHERE store_id = $1 AND supplier_key = $2 AND supplier_product_id = $3 LIMIT 1', [storeId, supplierKey, supplierProductId]);
  return row ? row.product_id : null;
}

export async function linkCountOfConnection(db: Queryable, connectionId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, 'SELECT count(*)::int AS n FROM product_links WHERE connection_id = $1', [connectionId]);
  return row.n;
}

// --- Sync

/** Live connections that have links. */
export async function connectionsWithLinks(db: Queryable): Promise<string[]> {
  const found = await rows<{ connection_id: string }>(
    db,
    `SELECT DISTINCT l.connection_id FROM product_links l JOIN supplier_connections c ON c.id = l.connection_id
      WHERE c.disconnected_at IS NULL AND c.enabled`,
  );
  return found.map((r) => r.connection_id);
}

export function linksOfConnection(db: Queryable, connectionId: string): Promise<Array<{ id: string; supplier_product_id: string }>> {
  return rows(db, 'SELECT id, supplier_product_id FROM product_links WHERE connection_id = $1 ORDER BY created_at', [connectionId]);
}

export interface LinkSyncRow {
  id: string;
  product_id: string;
  sync: SyncSwitches;
  price_rule: PriceRule;
}

/** Locked in one order, so concurrent batches and single-link syncs cannot deadlock. */
export function lockLinks(tx: Queryable, linkIds: string[]): Promise<LinkSyncRow[]> {
  return rows(tx, 'SELECT id, product_id, sync, price_rule FROM product_links WHERE id = ANY($1) ORDER BY id FOR UPDATE', [linkIds]);
}

export function variantCostsOfLinks(tx: Queryable, linkIds: string[]): Promise<Array<Omit<LinkVariantRow, 'stock' | 'available'>>> {
  return rows(tx, 'SELECT link_id, store_variant_id, supplier_variant_id, cost_minor, currency FROM product_link_variants WHERE link_id = ANY($1)', [linkIds]);
}

/** Set-based: one row per link variant (the arrays are columns). */
export async function updateLinkVariants(tx: Queryable, v: { link: string[]; variant: string[]; stock: number[]; available: boolean[]; cost: number[]; currency: string[] }): Promise<void> {
  await affected(
    tx,
    `UPDATE product_link_variants lv SET stock = u.stock, available = u.available, cost_minor = u.cost, currency = u.currency
       FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::bool[], $5::bigint[], $6::text[]) AS u(link_id, store_variant_id, stock, available, cost, currency)
      WHERE lv.link_id = u.link_id AND lv.store_variant_id = u.store_variant_id`,
    [v.link, v.variant, v.stock, v.available, v.cost, v.currency],
  );
}

/** Set-based: a null stock or price keeps the variant's own. */
export async function updateStoreVariants(tx: Queryable, v: { id: string[]; stock: Array<number | null>; price: Array<number | null> }): Promise<void> {
  await affected(
    tx,
    `UPDATE store_variants v SET stock = coalesce(u.stock, v.stock), price_minor = coalesce(u.price, v.price_minor)
       FROM unnest($1::uuid[], $2::int[], $3::bigint[]) AS u(id, stock, price) WHERE v.id = u.id`,
    [v.id, v.stock, v.price],
  );
}

export async function updateProductTitles(tx: Queryable, t: { product: string[]; title: string[] }): Promise<void> {
  await affected(tx, `UPDATE store_products p SET title = u.title, updated_at = now() FROM unnest($1::uuid[], $2::text[]) AS u(id, title) WHERE p.id = u.id`, [t.product, t.title]);
}

/** Every link synced now; its error cleared (null) or set. */
export async function setSyncResults(tx: Queryable, ids: string[], errors: Array<string | null>): Promise<void> {
  await affected(
    tx,
    `UPDATE product_links l SET last_sync_at = now(), last_sync_error = u.error
       FROM unnest($1::uuid[], $2::text[]) AS u(id, error) WHERE l.id = u.id`,
    [ids, errors],
  );
}

// --- Imports

export interface ImportJobListRow {
  id: string;
  connection_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  total: number;
  done: number;
  failed: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** A store's import jobs with their progress. Import jobs are few per store, so their rows are counted (no kept count). */
export function importJobList(f: { storeId: string; ownKeyId: string | null }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  return { list: 'importJobs', binding: f, table: 'import_jobs', alias: 'j', filters,
    columns: `j.*,
      (SELECT count(*) FROM import_job_items i WHERE i.job_id = j.id AND i.status = 'done')::int AS done,
      (SELECT count(*) FROM import_job_items i WHERE i.job_id = j.id AND i.status = 'failed')::int AS failed`,
    counts: null,
  };
}

/** Serialises imports of one supplier product into one store until the transaction ends. */
export async function lockImportOf(tx: Queryable, key: string): Promise<void> {
  await rows(tx, 'SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}

export function variantSkusOfProduct(tx: Queryable, productId: string): Promise<Array<{ id: string; sku: string }>> {
  return rows(tx, 'SELECT id, sku FROM store_variants WHERE product_id = $1', [productId]);
}

export async function failPendingItems(db: Queryable, jobId: string, code: string, message: string): Promise<void> {
  await affected(db, `UPDATE import_job_items SET status = 'failed', error_code = $2, error_message = $3 WHERE job_id = $1 AND status = 'pending'`, [jobId, code, message]);
}

export async function itemDone(tx: Queryable, jobId: string, position: number, productId: string): Promise<void> {
  await affected(tx, `UPDATE import_job_items SET status = 'done', product_id = $3 WHERE job_id = $1 AND position = $2`, [jobId, position, productId]);
}

export async function itemFailed(db: Queryable, jobId: string, position: number, code: string, message: string): Promise<void> {
  await affected(db, `UPDATE import_job_items SET status = 'failed', error_code = $3, error_message = $4 WHERE job_id = $1 AND position = $2 AND status = 'pending'`, [jobId, position, code, message]);
}
