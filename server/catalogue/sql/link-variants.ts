import { affected, type Queryable, rows } from '../../platform/db';
import type { ProductLinkVariant } from '../types';

// A link's variant mappings (./links.ts holds the links' own statements): written whole when a link is made or
// changed, read in the order of the store product's variants (the stores domain's, in the same statement).

/** Replaces the link's variant mappings. */
export async function replaceLinkVariants(tx: Queryable, storeId: string, linkId: string, variants: Array<Omit<ProductLinkVariant, 'linkId'>>): Promise<void> {
  await affected(tx, 'DELETE FROM product_link_variants WHERE store_id = $1 AND link_id = $2', [storeId, linkId]);
  if (!variants.length) return;
  const col = <K extends keyof Omit<ProductLinkVariant, 'linkId'>>(k: K) => variants.map((v) => v[k]);
  // The maximum buy price's columns only when one is given: without, this release writes as the one before it.
  const max = variants.some((v) => v.maxBuyPrice);
  await affected(
    tx,
    `INSERT INTO product_link_variants (store_id, link_id, store_variant_id, supplier_variant_id, cost_minor, currency, stock, available${max ? ', max_buy_price_minor, max_buy_price_currency' : ''})
     SELECT $1, $2, u.* FROM unnest($3::uuid[], $4::text[], $5::bigint[], $6::text[], $7::int[], $8::bool[]${max ? ', $9::bigint[], $10::text[]' : ''}) AS u`,
    [
      storeId,
      linkId,
      col('storeVariantId'),
      col('supplierVariantId'),
      col('costMinor'),
      col('currency'),
      col('stock'),
      col('available'),
      ...(max ? [variants.map((v) => v.maxBuyPrice?.amountMinor ?? null), variants.map((v) => v.maxBuyPrice?.currency ?? null)] : []),
    ],
  );
}

interface LinkVariantRow {
  link_id: string;
  store_variant_id: string;
  supplier_variant_id: string;
  cost_minor: string;
  currency: string;
  stock: number;
  available: boolean;
  max_buy_price_minor: string | null;
  max_buy_price_currency: string | null;
}

/** The variant mappings of these links, in the order of the store product's variants. */
export async function variantsOfLinks(db: Queryable, storeId: string, linkIds: string[]): Promise<ProductLinkVariant[]> {
  const found = await rows<LinkVariantRow>(
    db,
    'SELECT lv.* FROM product_link_variants lv JOIN store_variants sv ON sv.store_id = lv.store_id AND sv.id = lv.store_variant_id WHERE lv.store_id = $1 AND lv.link_id = ANY($2) ORDER BY sv.position',
    [storeId, linkIds],
  );
  return found.map((r) => ({
    linkId: r.link_id,
    storeVariantId: r.store_variant_id,
    supplierVariantId: r.supplier_variant_id,
    costMinor: Number(r.cost_minor),
    currency: r.currency,
    stock: r.stock,
    available: r.available,
    maxBuyPrice: r.max_buy_price_minor == null ? null : { amountMinor: Number(r.max_buy_price_minor), currency: r.max_buy_price_currency! },
  }));
}
