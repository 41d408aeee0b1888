/** The fake Printful's products: catalogue products (what Printful makes) and the store's products made from them. */

export interface CatalogueVariant {
  id: number;
  product_id: number;
  name: string;
  size: string;
  color: string;
  /** Printful's price, a decimal string in USD. */
  price: string;
  in_stock: boolean;
}

export interface CatalogueProduct {
  id: number;
  title: string;
  variants: CatalogueVariant[];
}

export interface SyncVariant {
  id: number;
  external_id: string;
  sync_product_id: number;
  name: string;
  variant_id: number;
  retail_price: string;
  currency: string;
  sku: string;
  size: string;
  color: string;
  availability_status: 'active' | 'discontinued' | 'out_of_stock' | 'temporary_out_of_stock';
  is_ignored: boolean;
}

export interface SyncProduct {
  id: number;
  external_id: string;
  name: string;
  thumbnail_url: string;
  variants: SyncVariant[];
}

const SIZES = ['S', 'M', 'L', 'XL'];
const COLORS = ['Black', 'White'];
const KINDS = ['Unisex T-Shirt', 'Hoodie', 'Mug', 'Poster'];

/** Deterministic: every fake starts with the same catalogue (ids as Printful's, plain integers). */
export function seedCatalogue(productCount: number): { catalogue: CatalogueProduct[]; products: SyncProduct[] } {
  const catalogue = KINDS.map((title, k): CatalogueProduct => {
    const id = 71 + k * 100;
    const variants = COLORS.flatMap((color, c) =>
      SIZES.map((size, s): CatalogueVariant => ({
        id: 4000 + k * 100 + c * 10 + s,
        product_id: id,
        name: `${title} (${color} / ${size})`,
        size,
        color,
        price: `${9 + k * 3}.${String(45 + s * 10).padStart(2, '0')}`,
        in_stock: true,
      })),
    );
    return { id, title, variants };
  });
  const products: SyncProduct[] = [];
  for (let i = 0; i < productCount; i++) {
    const made = catalogue[i % catalogue.length];
    const id = 300_000_000 + i * 7;
    const picks = made.variants.filter((_, j) => (j + i) % 3 === 0).slice(0, 3);
    products.push({
      id,
      external_id: `design-${i + 1}`,
      name: `Design ${i + 1} ${made.title}`,
      thumbnail_url: `https://files.cdn.printful.com/files/fake/${id}_preview.png`,
      variants: picks.map((v, j): SyncVariant => ({
        id: 4_100_000_000 + i * 10 + j,
        external_id: `design-${i + 1}-${j + 1}`,
        sync_product_id: id,
        name: `Design ${i + 1} ${v.name}`,
        variant_id: v.id,
        retail_price: '29.99',
        currency: 'USD',
        sku: `D${i + 1}-${v.color[0]}${v.size}`,
        size: v.size,
        color: v.color,
        availability_status: 'active',
        is_ignored: false,
      })),
    });
  }
  return { catalogue, products };
}
