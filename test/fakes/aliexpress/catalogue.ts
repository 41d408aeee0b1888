/** The AliExpress-format server's seeded catalogue: products with skus, sellers, and freight options per item. */

export interface FakeSku {
  skuId: string;
  skuAttr: string;
  props: Array<{ name: string; value: string }>;
  priceCents: number;
  stock: number;
}

export interface FakeProduct {
  productId: string;
  title: string;
  status: 'onSelling' | 'offline';
  sellerId: string;
  skus: FakeSku[];
  /** Countries this product is not sold to (product.get answers 602 there). */
  notSoldTo: Set<string>;
}

export interface FreightOption {
  code: string;
  feeCents: number;
  minDays: number;
  maxDays: number;
}

const COLOURS = ['Black', 'White', 'Red', 'Blue', 'Green'];
const SIZES = ['S', 'M', 'L', 'XL'];
const NOUNS = ['Phone Case', 'Desk Lamp', 'Yoga Mat', 'Water Bottle', 'Backpack', 'Watch Band', 'Plant Pot', 'Sunglasses'];

/** A small deterministic generator, so every run (and every seed) has the same catalogue. */
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 1_000_000) / 1_000_000;
  };
}

export function seedCatalogue(seed: number, count: number): FakeProduct[] {
  const next = random(seed);
  const products: FakeProduct[] = [];
  for (let i = 0; i < count; i++) {
    const productId = String(1005000000000000 + 1000 * (i + 1) + Math.floor(next() * 999));
    const variants = 1 + Math.floor(next() * 3);
    const skus: FakeSku[] = [];
    for (let j = 0; j < variants; j++) {
      const colour = COLOURS[(i + j) % COLOURS.length];
      const size = SIZES[j % SIZES.length];
      skus.push({
        skuId: String(12000000000000 + i * 10 + j),
        skuAttr: `14:${200000 + ((i + j) % COLOURS.length)}#${colour};5:${100010 + (j % SIZES.length)}#${size}`,
        props: [
          { name: 'Color', value: colour },
          { name: 'Size', value: size },
        ],
        priceCents: 199 + Math.floor(next() * 4000),
        stock: 20 + Math.floor(next() * 500),
      });
    }
    products.push({
      productId,
      title: `${COLOURS[i % COLOURS.length]} ${NOUNS[i % NOUNS.length]} ${i + 1}`,
      status: 'onSelling',
      sellerId: `seller-${(i % 3) + 1}`,
      skus,
      notSoldTo: new Set(),
    });
  }
  return products;
}

/** What a product ships by, for a quantity: the cheapest is not always listed first, and the fastest costs most. */
export function freightOptions(p: FakeProduct, quantity: number): FreightOption[] {
  const n = Number(p.productId.slice(-3)) % 5;
  return [
    { code: 'CAINIAO_STANDARD', feeCents: 150 + 40 * quantity + n * 10, minDays: 10, maxDays: 20 },
    { code: 'AE_DIRECT_EXPRESS', feeCents: 1200 + 150 * quantity, minDays: 3, maxDays: 7 },
    { code: 'CAINIAO_ECONOMY', feeCents: 90 + 30 * quantity, minDays: 15, maxDays: 35 },
  ];
}

export const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
