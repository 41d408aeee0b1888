import type { SupplierConnection } from '../connections';
import type { Store } from '../stores/types';
import type { ImportItem } from './types';
import type { LinkService } from './links';
import { failureOf, ImportFailure } from './import-failures';
import type { ProductImporter } from './import-product';
import { applyPriceRule, importRuleFor, PriceRule } from './price-rule';
import { storeCost } from './conversion';

/** The import preview: prices the chosen products and names duplicates; writes and charges nothing. */
export async function previewImport(
  importer: ProductImporter,
  links: Pick<LinkService, 'duplicatesOf'>,
  store: Store,
  conn: SupplierConnection,
  items: ImportItem[],
  rule: PriceRule,
) {
  const fetched = await importer.fetchAll(conn, items);
  const duplicates = await links.duplicatesOf(
    store.id,
    conn.supplierKey,
    items.map((i) => i.supplierProductId),
  );
  const previews = [];
  const failures: ImportFailure[] = [];
  for (const [i, item] of items.entries()) {
    const f = fetched[i];
    try {
      if (!f.ok) throw f.error;
      const product = f.value;
      const chosen = importer.chosenVariants(product, item);
      // The rate the import would convert at, shown beside the prices it makes (none when the currencies match).
      const rate = chosen.length ? await importer.costRate(product, chosen, store.currency) : null;
      const storeRule = importRuleFor(rule, store.currency);
      const variants = chosen.map((v) => {
        const storeCostMinor = storeCost(v.cost.amountMinor, v.cost.currency, store.currency, rate);
        const quote = applyPriceRule(storeRule, storeCostMinor, store.currency);
        return {
          supplierVariantId: v.id,
          sku: v.sku,
          title: v.title,
          costMinor: v.cost.amountMinor,
          currency: v.cost.currency,
          storeCostMinor,
          storeCurrency: store.currency,
          priceMinor: quote.priceMinor,
          compareAtMinor: quote.compareAtMinor,
          profitMinor: quote.profitMinor,
          floorApplied: quote.floorApplied,
          stock: v.stock,
          available: v.available,
        };
      });
      previews.push({
        supplierProductId: product.id,
        title: product.title,
        currencyMatchesStore: variants.every((v) => v.currency === store.currency),
        rate,
        duplicateOf: duplicates.get(product.id) ?? [],
        variants,
      });
    } catch (err) {
      failures.push(failureOf(item, err, importer.supplierName(conn)));
    }
  }
  return { items: previews, errors: failures };
}
