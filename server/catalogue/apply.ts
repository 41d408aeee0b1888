import type { Queryable } from '../platform/db';
import type { SupplierProduct } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import { applyPriceRule } from './price-rule';
import type { ProductService } from '../stores/products';
import * as sql from './sql/link-sync';
import { type CatalogueRates, type CostRate, costRatesFor, RateMissingError, storeCost } from './conversion';

/** Why a link could not sync, for `lastSyncError`: short, and free of anything the supplier should not echo. */
export function syncErrorText(err: unknown): string {
  if (err instanceof SupplierError) return `${err.kind}: ${err.message}`.slice(0, 300);
  if (err instanceof RateMissingError) return `rateUnavailable: ${err.message}`;
  return 'The sync failed.';
}

/** What one supplier read gave for the links that use that supplier product. */
export interface ProductOutcome {
  linkIds: string[];
  /** What the supplier says now; a product it dropped has no variants. Absent when the read failed. */
  product?: SupplierProduct;
  /** Set when the links end with an error (a failed read, or a dropped product after it was applied). */
  error?: unknown;
}

/** The store's currency and the rates into it of the currencies these outcomes' supplier products price in. */
export interface Pricing {
  storeCurrency: string;
  rates: Map<string, CostRate | RateMissingError>;
}

/** Looked up before the write's transaction (a rate look-up reads its own tables, not the links'). */
export async function pricingFor(db: Queryable, rates: CatalogueRates, storeId: string, outcomes: ProductOutcome[]): Promise<Pricing> {
  const storeCurrency = await sql.storeCurrencyOf(db, storeId);
  const currencies = outcomes.flatMap((o) => o.product?.variants.map((v) => v.cost.currency) ?? []);
  return { storeCurrency, rates: await costRatesFor(rates, currencies, storeCurrency) };
}

export const DROPPED = (id: string): SupplierProduct => ({
  id,
  title: '',
  description: '',
  url: '',
  imageUrl: null,
  shipsTo: [],
  variants: [],
  updatedAt: null,
});

/**
 * Applies what the supplier says now to many links, within each link's sync switches, in a fixed number of
 * set-based statements (the store's own variants and titles through the stores domain). The links are all of
 * `storeId` (one connection's, or one link's). A variant the supplier dropped goes to stock 0. Every link gets `last_sync_at`; its
 * `last_sync_error` is cleared, or set when its outcome carries an error. Runs inside the caller's transaction.
 */
export async function applyOutcomes(
  tx: Queryable,
  store: Pick<ProductService, 'applySupplierChanges'>,
  storeId: string,
  outcomes: ProductOutcome[],
  pricing: Pricing,
): Promise<void> {
  const productOf = new Map<string, ProductOutcome>();
  for (const o of outcomes) for (const id of o.linkIds) productOf.set(id, o);
  if (!productOf.size) return;
  const links = await sql.lockLinks(tx, storeId, [...productOf.keys()]);
  const applied = links.filter((l) => productOf.get(l.id)!.product);
  const variants = applied.length
    ? await sql.variantCostsOfLinks(
        tx,
        storeId,
        applied.map((l) => l.id),
      )
    : [];
  const variantsOf = new Map<string, typeof variants>();
  for (const v of variants) variantsOf.set(v.link_id, [...(variantsOf.get(v.link_id) ?? []), v]);

  const lv = {
    link: [] as string[],
    variant: [] as string[],
    stock: [] as number[],
    available: [] as boolean[],
    cost: [] as number[],
    currency: [] as string[],
  };
  const sv = { id: [] as string[], stock: [] as Array<number | null>, price: [] as Array<number | null> };
  const titles = { product: [] as string[], title: [] as string[] };
  const failed = new Map<string, unknown>(); // link id → error
  const priced = { ids: [] as string[], rates: [] as Array<CostRate | null> };
  /** The supplier's cost in the store's currency, at the rate looked up for this write (RateMissingError if none). */
  const inStore = (costMinor: number, currency: string): { minor: number; rate: CostRate | null } => {
    const rate = currency === pricing.storeCurrency ? null : (pricing.rates.get(currency) ?? new RateMissingError(currency, pricing.storeCurrency, 'missing'));
    if (rate instanceof RateMissingError) throw rate;
    return { minor: storeCost(costMinor, currency, pricing.storeCurrency, rate), rate };
  };
  for (const link of links) {
    const outcome = productOf.get(link.id)!;
    if (outcome.error !== undefined) failed.set(link.id, outcome.error);
    const product = outcome.product;
    if (!product) continue;
    const supplier = new Map(product.variants.map((v) => [v.id, v]));
    try {
      const rows = (variantsOf.get(link.id) ?? []).map((v) => {
        const s = supplier.get(v.supplier_variant_id);
        const available = !!s && s.available;
        const stock = s ? s.stock : 0;
        const known = Number(v.cost_minor);
        const cost = s ? s.cost.amountMinor : known;
        const costSynced = link.sync.cost && s;
        let storeStock: number | null = null;
        if (link.sync.stock || (link.sync.availability && !available)) storeStock = link.sync.availability && !available ? 0 : stock;
        if (!s) storeStock = 0;
        // Priced in the store's currency: the cost the link keeps (the supplier's now, or the one it kept) converted first.
        const basis = link.sync.cost && s ? { minor: cost, currency: s.cost.currency } : { minor: known, currency: v.currency };
        const converted = link.sync.price && s ? inStore(basis.minor, basis.currency) : null;
        const price = converted ? applyPriceRule(link.price_rule, converted.minor, pricing.storeCurrency).priceMinor : null;
        return {
          v,
          stock,
          available,
          cost: costSynced ? cost : known,
          currency: costSynced ? s.cost.currency : v.currency,
          storeStock,
          price,
          rate: converted?.rate,
        };
      });
      const usedRate = rows.find((r) => r.rate)?.rate;
      if (rows.some((r) => r.rate !== undefined)) {
        priced.ids.push(link.id);
        priced.rates.push(usedRate ?? null);
      }
      for (const r of rows) {
        lv.link.push(link.id);
        lv.variant.push(r.v.store_variant_id);
        lv.stock.push(r.stock);
        lv.available.push(r.available);
        lv.cost.push(r.cost);
        lv.currency.push(r.currency);
        if (r.storeStock !== null || r.price !== null) {
          sv.id.push(r.v.store_variant_id);
          sv.stock.push(r.storeStock);
          sv.price.push(r.price);
        }
      }
      if (link.sync.title && product.title) {
        titles.product.push(link.product_id);
        titles.title.push(product.title);
      }
    } catch (err) {
      // This link's price rule cannot price the supplier's cost, or no rate converts it: nothing of it is applied
      // (a price is never written from a cost read in another currency).
      failed.set(link.id, err);
    }
  }
  if (lv.link.length) await sql.updateLinkVariants(tx, storeId, lv);
  await sql.setLinkRates(tx, storeId, priced.ids, priced.rates);
  // The store's variants and titles are the stores domain's to write, in this transaction.
  await store.applySupplierChanges(tx, storeId, sv, titles);
  const ok = links.filter((l) => !failed.has(l.id)).map((l) => l.id);
  const bad = [...failed.entries()];
  await sql.setSyncResults(tx, storeId, [...ok, ...bad.map(([id]) => id)], [...ok.map(() => null), ...bad.map(([, e]) => syncErrorText(e))]);
}
