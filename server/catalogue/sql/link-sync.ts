import { outboxStep } from '../../events';
import { affected, type Queryable, rows } from '../../platform/db';
import type { CostRate } from '../conversion';
import type { PriceRule } from '../price-rule';
import type { SyncSwitches } from '../types';

// What a sync reads and writes of the links (./links.ts holds the rest of the links' statements): the connections
// to sync (the connections domain's, in one statement), the links' rows locked, their variants' costs and stock, the
// rate their costs were priced at, and each link's outcome.

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

export function variantCostsOfLinks(
  tx: Queryable,
  storeId: string,
  linkIds: string[],
): Promise<Array<{ link_id: string; store_variant_id: string; supplier_variant_id: string; cost_minor: string; currency: string }>> {
  return rows(
    tx,
    'SELECT link_id, store_variant_id, supplier_variant_id, cost_minor, currency FROM product_link_variants WHERE store_id = $1 AND link_id = ANY($2)',
    [storeId, linkIds],
  );
}

/** Set-based: one row per link variant (the arrays are columns). Rows already as given are not written again (no new row version). */
export async function updateLinkVariants(
  tx: Queryable,
  storeId: string,
  v: { link: string[]; variant: string[]; stock: number[]; available: boolean[]; cost: number[]; currency: string[] },
): Promise<void> {
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

/**
 * The links' sync outcome (`errors`: null clears a link's error), with `productLink.syncFailed` for each link whose
 * error is new (the same error again is not repeated): the error before is read in the same statement, rows locked
 * in id order (as `lockLinks` takes them).
 */
export async function setSyncResults(db: Queryable, storeId: string, ids: string[], errors: Array<string | null>): Promise<void> {
  const event = outboxStep({
    from: 'l',
    type: `'productLink.syncFailed'`,
    storeId: 'l.store_id',
    resourceKey: `'productLink:' || l.id`,
    recordKeyId: 'l.created_by_key_id',
    snapshot: `to_jsonb(l) - 'was'`,
    where: 'l.last_sync_error IS NOT NULL AND l.was IS DISTINCT FROM l.last_sync_error',
  });
  await rows(
    db,
    `WITH was AS (SELECT id, last_sync_error AS was FROM product_links WHERE store_id = $1 AND id = ANY($2) ORDER BY id FOR UPDATE),
          l AS (UPDATE product_links l SET last_sync_at = now(), last_sync_error = u.error
                  FROM unnest($2::uuid[], $3::text[]) AS u(id, error), was WHERE l.store_id = $1 AND l.id = u.id AND was.id = u.id RETURNING l.*, was.was),
          ev AS (${event})
     SELECT 1`,
    [storeId, ids, errors],
  );
}

/** Live connections, of every store, that have links or alternates (the hourly fan-out: a sweep over all stores). */
export async function connectionsWithLinks(db: Queryable): Promise<Array<{ storeId: string; connectionId: string }>> {
  return rows(
    db,
    `SELECT /* cross-store: link-sync-fan-out */ DISTINCT x.store_id AS "storeId", x.connection_id AS "connectionId"
       FROM (SELECT store_id, connection_id FROM product_links UNION SELECT store_id, connection_id FROM product_link_alternates) x
       JOIN supplier_connections c ON c.store_id = x.store_id AND c.id = x.connection_id WHERE c.disconnected_at IS NULL AND c.enabled`,
  );
}

export function linksOfConnection(db: Queryable, storeId: string, connectionId: string): Promise<Array<{ id: string; supplier_product_id: string }>> {
  return rows(db, 'SELECT id, supplier_product_id FROM product_links WHERE store_id = $1 AND connection_id = $2 ORDER BY created_at', [storeId, connectionId]);
}
