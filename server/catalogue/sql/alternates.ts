import { affected, type Queryable, rows } from '../../platform/db';
import type { LinkAlternate } from '../types';

// The catalogue's data module (this folder), this file: a link's alternates (backup supplier variants on other
// connections of the store) and what the sync writes of them. Nothing outside the catalogue's tables is written here.

interface AlternateRow {
  link_id: string;
  store_variant_id: string;
  position: number;
  connection_id: string;
  supplier_product_id: string;
  supplier_variant_id: string;
  cost_minor: string;
  currency: string;
  stock: number;
  available: boolean;
}

const alternateOf = (r: AlternateRow): LinkAlternate & { linkId: string } => ({
  linkId: r.link_id,
  storeVariantId: r.store_variant_id,
  position: r.position,
  connectionId: r.connection_id,
  supplierProductId: r.supplier_product_id,
  supplierVariantId: r.supplier_variant_id,
  costMinor: Number(r.cost_minor),
  currency: r.currency,
  stock: r.stock,
  available: r.available,
});

/** Replaces the link's alternates (each store variant's in the order given). */
export async function replaceAlternates(tx: Queryable, storeId: string, linkId: string, alternates: LinkAlternate[]): Promise<void> {
  await affected(tx, 'DELETE FROM product_link_alternates WHERE store_id = $1 AND link_id = $2', [storeId, linkId]);
  if (!alternates.length) return;
  const col = <K extends keyof LinkAlternate>(k: K) => alternates.map((a) => a[k]);
  await affected(
    tx,
    `INSERT INTO product_link_alternates (store_id, link_id, store_variant_id, position, connection_id, supplier_product_id, supplier_variant_id, cost_minor, currency, stock, available)
     SELECT $1, $2, u.* FROM unnest($3::uuid[], $4::smallint[], $5::uuid[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::int[], $11::bool[]) AS u`,
    [
      storeId,
      linkId,
      col('storeVariantId'),
      col('position'),
      col('connectionId'),
      col('supplierProductId'),
      col('supplierVariantId'),
      col('costMinor'),
      col('currency'),
      col('stock'),
      col('available'),
    ],
  );
}

/** The alternates of these links, each store variant's in order. */
export async function alternatesOfLinks(db: Queryable, storeId: string, linkIds: string[]): Promise<Array<LinkAlternate & { linkId: string }>> {
  const found = await rows<AlternateRow>(
    db,
    'SELECT * FROM product_link_alternates WHERE store_id = $1 AND link_id = ANY($2) ORDER BY link_id, store_variant_id, position',
    [storeId, linkIds],
  );
  return found.map(alternateOf);
}

/** The alternates on a connection, for its sync: which supplier products to read. */
export function alternateProductsOf(db: Queryable, storeId: string, connectionId: string): Promise<Array<{ supplier_product_id: string }>> {
  return rows(db, 'SELECT DISTINCT supplier_product_id FROM product_link_alternates WHERE store_id = $1 AND connection_id = $2', [storeId, connectionId]);
}

/** What the supplier says now of the alternates on a connection (set-based; a variant it no longer has: stock 0, unavailable). */
export async function syncAlternates(
  tx: Queryable,
  storeId: string,
  connectionId: string,
  v: { product: string[]; variant: string[]; cost: Array<number | null>; currency: Array<string | null>; stock: number[]; available: boolean[] },
  dropped: string[],
): Promise<void> {
  if (dropped.length) {
    await affected(
      tx,
      'UPDATE product_link_alternates SET stock = 0, available = false, synced_at = now() WHERE store_id = $1 AND connection_id = $2 AND supplier_product_id = ANY($3)',
      [storeId, connectionId, dropped],
    );
  }
  if (!v.product.length) return;
  await affected(
    tx,
    `UPDATE product_link_alternates a SET cost_minor = coalesce(u.cost, a.cost_minor), currency = coalesce(u.currency, a.currency), stock = u.stock, available = u.available, synced_at = now()
       FROM unnest($3::text[], $4::text[], $5::bigint[], $6::text[], $7::int[], $8::bool[]) AS u(product, variant, cost, currency, stock, available)
      WHERE a.store_id = $1 AND a.connection_id = $2 AND a.supplier_product_id = u.product AND a.supplier_variant_id = u.variant`,
    [storeId, connectionId, v.product, v.variant, v.cost, v.currency, v.stock, v.available],
  );
}
