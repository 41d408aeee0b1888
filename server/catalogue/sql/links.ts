import { affected, type Queryable, rows } from '../../platform/db';
import { type KeysetListStatement, storeScope } from '../../platform/pagination';
import type { RoutingRule } from '../../connections';
import type { PriceRule } from '../price-rule';
import type { CostRate } from '../conversion';

const dayOf = (d: string | Date): string => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));
import type { LinkAlternate, ProductLink, ProductLinkVariant, SyncSwitches } from '../types';

// The catalogue domain's data module (this folder): every statement on its tables (product links and their variant
// mappings, import jobs and their items). This file: the links themselves (./link-variants.ts: their variant mappings;
// ./link-sync.ts: what a sync reads and writes of them). The link list reads the store variants' order (the stores
// domain's) in its one statement; nothing outside the catalogue's tables is written here.

/** The product link list: each link with its variant mappings in the order of the store product's variants. */
export function linkList(f: { storeId: string; ownKeyId: string | null; connectionId?: string; productId?: string }): KeysetListStatement {
  const filters = storeScope(f.storeId, f.ownKeyId);
  if (f.connectionId) filters.push({ column: 'connection_id', countColumn: 'connection_id', value: f.connectionId });
  // A product has at most one link: counting by its index is as cheap as the counts.
  if (f.productId) filters.push({ column: 'product_id', value: f.productId });
  return {
    list: 'productLinks',
    binding: f,
    table: 'product_links',
    alias: 'l',
    filters,
    columns: `l.*, (SELECT coalesce(json_agg(json_build_object('storeVariantId', lv.store_variant_id, 'supplierVariantId', lv.supplier_variant_id, 'costMinor', lv.cost_minor,
                              'currency', lv.currency, 'stock', lv.stock, 'available', lv.available,
                              -- Read through the row's JSON: this release answers before its migration added the columns (docs/scaling.md).
                              'maxBuyPrice', CASE WHEN to_jsonb(lv) ->> 'max_buy_price_minor' IS NULL THEN NULL
                                                  ELSE json_build_object('amountMinor', (to_jsonb(lv) ->> 'max_buy_price_minor')::bigint, 'currency', to_jsonb(lv) ->> 'max_buy_price_currency') END) ORDER BY sv.position), '[]')
                      FROM product_link_variants lv JOIN store_variants sv ON sv.store_id = lv.store_id AND sv.id = lv.store_variant_id
                     WHERE lv.store_id = l.store_id AND lv.link_id = l.id) AS variants,
              (SELECT coalesce(json_agg(json_build_object('storeVariantId', a.store_variant_id, 'position', a.position, 'connectionId', a.connection_id, 'supplierProductId', a.supplier_product_id,
                              'supplierVariantId', a.supplier_variant_id, 'costMinor', a.cost_minor, 'currency', a.currency, 'stock', a.stock, 'available', a.available) ORDER BY a.position), '[]')
                      FROM product_link_alternates a WHERE a.store_id = l.store_id AND a.link_id = l.id) AS alternates`,
    counts: { table: 'product_link_counts', sum: 'n' },
  };
}

export interface LinkRow {
  id: string;
  store_id: string;
  product_id: string;
  connection_id: string;
  supplier_key: string;
  supplier_product_id: string;
  price_rule: PriceRule;
  sync: SyncSwitches;
  routing: RoutingRule | null;
  cost_rate?: string | null;
  cost_rate_from?: string | null;
  cost_rate_to?: string | null;
  cost_rate_source?: CostRate['source'] | null;
  cost_rate_as_of?: string | null;
  last_sync_at: Date | null;
  last_sync_error: string | null;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date;
  updated_at: Date;
}
export const linkOf = (r: LinkRow): ProductLink => ({
  id: r.id,
  storeId: r.store_id,
  productId: r.product_id,
  connectionId: r.connection_id,
  supplierKey: r.supplier_key,
  supplierProductId: r.supplier_product_id,
  priceRule: r.price_rule,
  sync: r.sync,
  routing: r.routing ?? null,
  costRate: r.cost_rate
    ? { from: r.cost_rate_from!, to: r.cost_rate_to!, rate: r.cost_rate, source: r.cost_rate_source!, asOfDate: dayOf(r.cost_rate_as_of!) }
    : null,
  lastSyncAt: r.last_sync_at,
  lastSyncError: r.last_sync_error,
  createdByAccountId: r.created_by_account_id,
  createdByKeyId: r.created_by_key_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A row of the link list: the link and its variant mappings, in the order of the store product's variants. */
export type LinkListRow = LinkRow & { variants: Array<Omit<ProductLinkVariant, 'linkId'>>; alternates: LinkAlternate[] };

/** The link, if it is one of the store's. */
export async function linkInStore(db: Queryable, storeId: string, id: string): Promise<ProductLink | null> {
  const [r] = await rows<LinkRow>(db, 'SELECT * FROM product_links WHERE id = $1 AND store_id = $2', [id, storeId]);
  return r ? linkOf(r) : null;
}

/** The connection's links (to one supplier product, when given), oldest first. */
export async function linksOf(db: Queryable, storeId: string, connectionId: string, supplierProductId?: string): Promise<ProductLink[]> {
  const found = await rows<LinkRow>(
    db,
    'SELECT * FROM product_links WHERE store_id = $1 AND connection_id = $2 AND ($3::text IS NULL OR supplier_product_id = $3) ORDER BY created_at',
    [storeId, connectionId, supplierProductId ?? null],
  );
  return found.map(linkOf);
}

/** A product has one link at most: a second raises the unique violation (23505). */
export async function insertLink(tx: Queryable, l: Omit<ProductLink, 'createdAt' | 'updatedAt'>): Promise<ProductLink> {
  const c = l.costRate;
  const [r] = await rows<LinkRow>(
    tx,
    `INSERT INTO product_links (id, store_id, product_id, connection_id, supplier_key, supplier_product_id, price_rule, sync, last_sync_at, last_sync_error, created_by_account_id, created_by_key_id, routing${c ? ', cost_rate, cost_rate_from, cost_rate_to, cost_rate_source, cost_rate_as_of' : ''})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13${c ? ', $14, $15, $16, $17, $18' : ''}) RETURNING *`,
    [
      l.id,
      l.storeId,
      l.productId,
      l.connectionId,
      l.supplierKey,
      l.supplierProductId,
      JSON.stringify(l.priceRule),
      JSON.stringify(l.sync),
      l.lastSyncAt,
      l.lastSyncError,
      l.createdByAccountId,
      l.createdByKeyId,
      l.routing ? JSON.stringify(l.routing) : null,
      ...(c ? [c.rate, c.from, c.to, c.source, c.asOfDate] : []),
    ],
  );
  return linkOf(r);
}

/** Sets the price rule, switches and routing rule given (the others stay; routing null: the store's) and stamps the change. */
export async function updateLink(
  tx: Queryable,
  storeId: string,
  id: string,
  f: { priceRule?: PriceRule; sync?: SyncSwitches; routing?: RoutingRule | null },
): Promise<ProductLink> {
  const [r] = await rows<LinkRow>(
    tx,
    `UPDATE product_links SET price_rule = coalesce($3::jsonb, price_rule), sync = coalesce($4::jsonb, sync), routing = CASE WHEN $5 THEN $6::jsonb ELSE routing END, updated_at = now()
      WHERE store_id = $1 AND id = $2 RETURNING *`,
    [
      storeId,
      id,
      f.priceRule ? JSON.stringify(f.priceRule) : null,
      f.sync ? JSON.stringify(f.sync) : null,
      f.routing !== undefined,
      f.routing ? JSON.stringify(f.routing) : null,
    ],
  );
  return linkOf(r);
}

export async function deleteLink(db: Queryable, storeId: string, id: string): Promise<void> {
  await affected(db, 'DELETE FROM product_links WHERE store_id = $1 AND id = $2', [storeId, id]);
}

/** Store products linked to any of these supplier products. */
export function linkedProducts(
  db: Queryable,
  storeId: string,
  supplierKey: string,
  supplierProductIds: string[],
): Promise<Array<{ supplier_product_id: string; product_id: string }>> {
  return rows(db, 'SELECT supplier_product_id, product_id FROM product_links WHERE store_id = $1 AND supplier_key = $2 AND supplier_product_id = ANY($3)', [
    storeId,
    supplierKey,
    supplierProductIds,
  ]);
}

/** The store product already linked to this supplier product, if any. */
export async function linkedProduct(db: Queryable, storeId: string, supplierKey: string, supplierProductId: string): Promise<string | null> {
  const [row] = await rows<{ product_id: string }>(
    db,
    'SELECT product_id FROM product_links WHERE store_id = $1 AND supplier_key = $2 AND supplier_product_id = $3 LIMIT 1',
    [storeId, supplierKey, supplierProductId],
  );
  return row ? row.product_id : null;
}

export async function linkCountOfConnection(db: Queryable, connectionId: string, storeId: string): Promise<number> {
  const [row] = await rows<{ n: number }>(db, 'SELECT count(*)::int AS n FROM product_links WHERE store_id = $1 AND connection_id = $2', [
    storeId,
    connectionId,
  ]);
  return row.n;
}

/** Which of the account's connections (in any of its stores) link this supplier product: where a notification's read-back goes. */
export function connectionsWithProduct(db: Queryable, account: string[], supplierProductId: string): Promise<Array<{ id: string; storeId: string }>> {
  return rows(
    db,
    `SELECT /* cross-store: shared-account-owners */ DISTINCT connection_id AS id, store_id AS "storeId" FROM product_links WHERE connection_id = ANY($1) AND supplier_product_id = $2`,
    [account, supplierProductId],
  );
}

/** Answers how many links went; their variants go with them (ON DELETE CASCADE). */
export function deleteLinksOfConnection(tx: Queryable, connectionId: string, storeId: string): Promise<number> {
  return affected(tx, 'DELETE FROM product_links WHERE store_id = $1 AND connection_id = $2', [storeId, connectionId]);
}
