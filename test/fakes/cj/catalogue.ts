/** The fake CJ catalogue: deterministic for a seed, prices kept as the decimal text CJ sends. */

export interface FakeStockRow {
  areaId: number;
  areaEn: string;
  countryCode: string;
  stock: number;
}

export interface FakeVariant {
  vid: string;
  pid: string;
  sku: string;
  key: string;
  nameEn: string;
  /** USD as decimal text ("12.34"); answered as a JSON number, as CJ does for variantSellPrice. */
  sellPrice: string;
  weight: number;
  stock: FakeStockRow[];
  /** Taken off the shelves: no longer listed with its product, refused by order creation (1602002). */
  removed: boolean;
}

export interface FakeProduct {
  pid: string;
  nameEn: string;
  sku: string;
  categoryName: string;
  /** 3 on sale, 2 off the shelves. */
  status: 2 | 3;
  weight: number;
  image: string;
  variants: FakeVariant[];
}

/** xorshift32 with a splitmix-style start: the same numbers on every platform. */
function random(seed: number): () => number {
  let x = (seed ^ 0x9e3779b9) >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

const WORDS_A = [
  'Wireless',
  'Magnetic',
  'Portable',
  'Silicone',
  'Foldable',
  'LED',
  'Waterproof',
  'Mini',
  'Retro',
  'Smart',
  'Stainless',
  'Cotton',
  'Bamboo',
  'Ergonomic',
  'Adjustable',
];
const WORDS_B = [
  'Phone Holder',
  'Pet Brush',
  'Night Light',
  'Yoga Mat',
  'Phone Case',
  'Water Bottle',
  'Desk Lamp',
  'Earbuds',
  'Backpack',
  'Kitchen Scale',
  'Hair Clip',
  'Car Charger',
  'Sunglasses',
  'Socks',
  'Watch Strap',
];
const CATEGORIES = ['Home & Garden', 'Consumer Electronics', 'Pet Supplies', 'Sports & Outdoors', 'Phones & Accessories', 'Jewelry & Watches'];
const COLOURS = ['Black', 'White', 'Red', 'Blue', 'Pink', 'Green'];
const SIZES = ['S', 'M', 'L', 'XL'];

function guid(next: () => number): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(next() * 16).toString(16))
      .join('')
      .toUpperCase();
  return `${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`;
}

function price(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export function buildCatalogue(seed: number, productCount: number): FakeProduct[] {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const products: FakeProduct[] = [];
  for (let i = 0; i < productCount; i++) {
    const pid = guid(next);
    const nameEn = `${pick(WORDS_A)} ${pick(WORDS_B)} ${i + 1}`;
    const sku = `CJ${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + ((i * 7) % 26))}${String(1000000 + i * 7919).slice(-7)}`;
    const weight = 50 + Math.floor(next() * 900);
    const variantCount = 1 + Math.floor(next() * 4);
    const base = 150 + Math.floor(next() * 6000);
    const variants: FakeVariant[] = [];
    for (let v = 0; v < variantCount; v++) {
      const key = variantCount === 1 ? 'Default' : `${COLOURS[(i + v) % COLOURS.length]}-${SIZES[v % SIZES.length]}`;
      variants.push({
        vid: guid(next),
        pid,
        sku: `${sku}-${key}`,
        key,
        nameEn: `${nameEn} ${key}`,
        sellPrice: price(base + v * 37 + Math.floor(next() * 50)),
        weight: weight + v * 10,
        stock: [
          { areaId: 1, areaEn: 'China Warehouse', countryCode: 'CN', stock: 60 + Math.floor(next() * 900) },
          { areaId: 2, areaEn: 'US Warehouse', countryCode: 'US', stock: Math.floor(next() * 40) },
        ],
        removed: false,
      });
    }
    // Every eleventh product is off the shelves.
    products.push({
      pid,
      nameEn,
      sku,
      categoryName: pick(CATEGORIES),
      status: i % 11 === 7 ? 2 : 3,
      weight,
      image: `https://cf.cjdropshipping.test/${pid}.jpg`,
      variants,
    });
  }
  return products;
}
