import type { DataSource } from 'typeorm';
import type { SupplierConnection, SupplierGateway } from '../connections';
import type { Creator } from '../identity/permissions';
import { settleLimit } from '../platform/concurrency';
import type { Queryable } from '../platform/db';
import type { ProductService } from '../stores/products';
import type { Store } from '../stores/types';
import type { SupplierProduct } from '../suppliers/adapter';
import { ItemError } from './import-failures';
import type { LinkService } from './links';
import { applyPriceRule, importRuleFor, type PriceRule } from './price-rule';
import { type CatalogueRates, costRateFor, type CostRate, RateMissingError, storeCost } from './conversion';
import * as sql from './sql/imports';
import { linkedProduct } from './sql/links';
import type { ImportItem, SyncSwitches } from './types';

/** Supplier products read this many at a time. */
export const FETCH_CONCURRENCY = 8;

/** How one supplier product becomes a store product with its link: what an inline import and an import job share. */
export class ProductImporter {
  constructor(
    private readonly db: DataSource,
    private readonly gateway: SupplierGateway,
    private readonly links: LinkService,
    private readonly products: ProductService,
    private readonly rates: CatalogueRates,
  ) {}

  supplierName(conn: SupplierConnection): string {
    return this.gateway.adapterFor(conn.supplierKey).entry.name;
  }

  async fetchAll(conn: SupplierConnection, items: ImportItem[]) {
    return settleLimit(items, FETCH_CONCURRENCY, (item) => this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, item.supplierProductId)));
  }

  chosenVariants(product: SupplierProduct, item: ImportItem) {
    if (!item.variantIds?.length) return product.variants;
    const chosen = product.variants.filter((v) => item.variantIds!.includes(v.id));
    const unknown = item.variantIds.filter((id) => !product.variants.some((v) => v.id === id));
    if (unknown.length) throw new ItemError('variantNotFound', `Supplier product ${product.id} has no variant ${unknown.join(', ')}.`);
    return chosen;
  }

  /**
   * One product, atomically: its store product, variants, link and (for jobs) the item's state and the
   * credit charge commit together or not at all. An advisory lock per supplier product keeps two
   * concurrent imports from both creating it.
   */
  async importOne(
    tx: Queryable,
    input: {
      store: Store;
      conn: SupplierConnection;
      product: SupplierProduct;
      item: ImportItem;
      rule: PriceRule;
      sync: SyncSwitches;
      status?: 'active' | 'draft';
    },
    creator: Creator,
  ): Promise<{ productId: string; linkId: string }> {
    const { store, conn, product } = input;
    const variants = this.chosenVariants(product, input.item);
    if (!variants.length) throw new ItemError('noVariants', `Supplier product ${product.id} has no variants to import.`);
    const costRate = await this.costRate(product, variants, store.currency);
    const rule = importRuleFor(input.rule, store.currency);
    await sql.lockImportOf(tx, `import:${store.id}:${conn.supplierKey}:${product.id}`);
    const dup = await linkedProduct(tx, store.id, conn.supplierKey, product.id);
    if (dup) throw new ItemError('alreadyImported', `Supplier product ${product.id} is already linked to store product ${dup}.`);
    const created = await this.products.createIn(
      tx,
      store.id,
      {
        title: product.title,
        description: product.description,
        status: input.status ?? 'active',
        variants: variants.map((v) => ({
          sku: v.sku,
          title: v.title,
          priceMinor: applyPriceRule(rule, storeCost(v.cost.amountMinor, v.cost.currency, store.currency, costRate), store.currency).priceMinor,
          currency: store.currency,
          stock: v.available ? v.stock : 0,
        })),
      },
      creator,
    );
    const storeVariants = await this.products.variantsOf(store.id, created.id, tx);
    const link = await this.links.createIn(
      tx,
      {
        storeId: store.id,
        product: created,
        conn,
        supplierProduct: product,
        mappings: storeVariants.map((sv) => ({ storeVariantId: sv.id, supplierVariantId: variants.find((v) => v.sku === sv.sku)!.id })),
        priceRule: rule,
        sync: input.sync,
        costRate,
      },
      creator,
    );
    return { productId: created.id, linkId: link.id };
  }

  /**
   * The rate the product's costs are converted at into the store's currency (null when it sells in theirs): one per
   * product, so a product whose variants are priced in two currencies is refused rather than half converted.
   */
  async costRate(product: SupplierProduct, variants: SupplierProduct['variants'], storeCurrency: string): Promise<CostRate | null> {
    const currencies = [...new Set(variants.map((v) => v.cost.currency))];
    if (currencies.length > 1) throw new ItemError('currencyMixed', `The supplier prices ${product.id}'s variants in ${currencies.join(' and ')}.`);
    try {
      return await costRateFor(this.rates, currencies[0], storeCurrency);
    } catch (err) {
      if (err instanceof RateMissingError) throw new ItemError('rateUnavailable', `The supplier prices ${product.id} in ${err.from}; ${err.message}`);
      throw err;
    }
  }

  /** A product's transaction; a SKU the store already uses is that item's failure (skuTaken). */
  async inTransaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(fn);
    } catch (e) {
      if ((e as { code?: string; constraint?: string }).code === '23505' && (e as { constraint?: string }).constraint === 'store_variants_sku_key') {
        throw new ItemError('skuTaken', "A variant of this store already uses one of the supplier's SKUs.");
      }
      throw e;
    }
  }
}
