import type { Product, Variant } from './types';
import { buildProduct, mulberry32 } from './seeded-products';
import { MAIN_WAREHOUSE, type Warehouse } from './warehouse';

export interface SearchResult {
  items: Product[];
  page: number;
  pageSize: number;
  total: number;
}

/** Built once per start (and on control reset); variants are mutated in place by orders and control. */
export class Catalogue {
  readonly products: Product[] = [];
  private readonly byId = new Map<string, Product>();
  private readonly byVariantId = new Map<string, { product: Product; variant: Variant }>();
  // Lowercased title/id/skus per product; none of those change after build.
  private readonly haystacks: string[] = [];

  constructor(seed: number, productCount: number, warehouse: Warehouse = MAIN_WAREHOUSE) {
    const rand = mulberry32(seed);
    // The warehouse's own stream: what it adds or changes never moves the main catalogue's products.
    const own = mulberry32((seed ^ 0x0d1e5) + (warehouse.overlap?.salt ?? 0));
    const usedTitles = new Set<string>();
    for (let i = 0; i < productCount; i++) {
      const base = buildProduct(rand, i, usedTitles);
      const min = warehouse.deliveryDays.min + Math.floor(own() * 3);
      const product: Product = {
        ...base,
        shipsFrom: warehouse.shipsFrom,
        deliveryDays: { min, max: Math.max(min, warehouse.deliveryDays.max + Math.floor(own() * 6) - 2) },
      };
      const overlap = warehouse.overlap;
      if (overlap) {
        const carried = own() < overlap.carries;
        for (const v of product.variants) {
          v.costMinor = Math.max(1, Math.round(v.costMinor * (overlap.costFactor.min + own() * (overlap.costFactor.max - overlap.costFactor.min))));
          v.stock = own() < 0.12 ? 0 : 1 + Math.floor(own() * 400);
          v.available = own() >= 0.05;
        }
        if (!carried) continue;
      }
      this.products.push(product);
      this.byId.set(product.id, product);
      for (const variant of product.variants) this.byVariantId.set(variant.id, { product, variant });
      this.haystacks.push([product.title, product.id, ...product.variants.map((v) => v.sku)].join('\n').toLowerCase());
    }
  }

  getProduct(id: string): Product | undefined {
    return this.byId.get(id);
  }

  getVariant(variantId: string): { product: Product; variant: Variant } | undefined {
    return this.byVariantId.get(variantId);
  }

  search(q: string, page: number, pageSize: number): SearchResult {
    const needle = q.trim().toLowerCase();
    const matches = needle ? this.products.filter((_, i) => this.haystacks[i].includes(needle)) : this.products;
    const start = (page - 1) * pageSize;
    return { items: matches.slice(start, start + pageSize), page, pageSize, total: matches.length };
  }
}
