import { affected, type Queryable, rows } from '../../platform/db';
import type { CostRate } from '../conversion';
import type { PriceRule } from '../price-rule';
import type { SyncSwitches } from '../types';

// What a sync writes of the links (./links.ts holds the rest of the links' statements): their rows locked, their
// variants' costs and stock, and the rate their costs were priced at.

interface LinkSyncRow {
  id: string;
  product_id: string;
  sync: SyncSwitches;
  price_rule: PriceRule;
}

/** Locked in one order, so concurrent batches and single-link syncs cannot deadlock. */
export function lockLinks(tx: Queryable, storeId: string, linkIds: string[]): Promise<LinkSyncRow[]> {
  return rows(tx, 'SELECT id, product_id, sync, price_rule FROM product_links WHERE store_id = $1 AND id = ANY($2) ORDER BY id FOR UPDATE', [storeId, linkIds]);
}

export function variantCostsOfLinks(tx: Queryable, storeId: string, linkIds: string[]): Promise<Array<{ link_id: string; store_variant_id: string; supplier_variant_id: string; cost_minor: string; currency: string }>> {
  return rows(tx, 'SELECT link_id, store_variant_id, supplier_variant_id, cost_minor, currency FROM product_link_variants WHERE store_id = $1 AND link_id = ANY($2)', [storeId, linkIds]);
}

/** Set-based: one row per link variant (the arrays are columns). Rows already as given are not written again (no new row version). */
export async function updateLinkVariants(tx: Queryable, storeId: string, v: { link: string[]; variant: string[]; stock: number[]; available: boolean[]; cost: number[]; currency: string[] }): Promise<void> {
  await affected(
    tx,
    `UPDATE product_link_variants lv SET stock = u.stock, available = u.available, cost_minor = u.cost, currency = u.currency
       FROM unnest($2::uuid[], $3::uuid[], $4::int[], $5::bool[], $6::bigint[], $7::text[]) AS u(link_id, store_variant_id, stock, available, cost, currency)
      WHERE lv.store_id = $1 AND lv.link_id = u.link_id AND lv.store_variant_id = u.store_variant_id
        AND (lv.stock, lv.available, lv.cost_minor, lv.currency) IS DISTINCT FROM (u.stock, u.available, u.cost, u.currency)`,
    [storeId, v.link, v.variant, v.stock, v.available, v.cost, v.currency],
  );
}

/** The rate each link's costs were priced at now (null: the supplier sells in the store's currency); unchanged rows are not written. */
export async function setLinkRates(tx: Queryable, storeId: string, ids: string[], rates: Array<CostRate | null>): Promise<void> {
  if (!ids.length) return;
  const col = <K extends keyof CostRate>(k: K) => rates.map((r) => (r ? r[k] : null));
  await affected(
    tx,
    `UPDATE product_links l SET cost_rate = u.rate, cost_rate_from = u.f, cost_rate_to = u.t, cost_rate_source = u.source, cost_rate_as_of = u.as_of
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::date[]) AS u(id, rate, f, t, source, as_of)
      WHERE l.store_id = $1 AND l.id = u.id
        AND (l.cost_rate, l.cost_rate_from, l.cost_rate_to, l.cost_rate_source, l.cost_rate_as_of) IS DISTINCT FROM (u.rate, u.f, u.t, u.source, u.as_of)`,
    [storeId, ids, col('rate'), col('from'), col('to'), col('source'), col('asOfDate')],
  );
}

/** The store's currency (the stores domain's row): what a link's prices are in. */
export async function storeCurrencyOf(db: Queryable, storeId: string): Promise<string> {
  const [row] = await rows<{ currency: string }>(db, 'SELECT currency FROM stores WHERE id = $1', [storeId]);
  return row.currency.trim();
}
