import type { Product, Variant, VariantOptions } from './types';

// The sandbox's products, made from a seed: the same seed makes the same catalogue on every platform (./catalogue.ts).

const SHOP_ORIGIN = 'https://shop.sandbox-supplier.test';
const COUNTRIES = ['US', 'CA', 'GB', 'DE', 'FR', 'NL', 'ES', 'IT', 'AU', 'JP'] as const;

/** mulberry32: tiny, fast and identical on every platform, which Math.random is not. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = [
  'Rustic',
  'Modern',
  'Classic',
  'Vintage',
  'Compact',
  'Deluxe',
  'Minimal',
  'Sturdy',
  'Elegant',
  'Cozy',
  'Portable',
  'Handmade',
  'Nordic',
  'Urban',
  'Coastal',
  'Bold',
  'Soft',
  'Sleek',
  'Foldable',
  'Premium',
  'Everyday',
  'Retro',
  'Glossy',
  'Matte',
  'Organic',
  'Heritage',
  'Lightweight',
  'Oversized',
  'Tiny',
  'Woven',
];
const MATERIALS = [
  'Bamboo',
  'Oak',
  'Walnut',
  'Linen',
  'Cotton',
  'Wool',
  'Leather',
  'Ceramic',
  'Glass',
  'Steel',
  'Copper',
  'Brass',
  'Marble',
  'Cork',
  'Rattan',
  'Silicone',
  'Canvas',
  'Denim',
  'Velvet',
  'Stoneware',
];

type SizeKind = 'apparel' | 'scale';
const SCALE_NOUNS = [
  'Lamp',
  'Mug',
  'Chair',
  'Table',
  'Vase',
  'Bowl',
  'Planter',
  'Shelf',
  'Clock',
  'Mirror',
  'Rug',
  'Cushion',
  'Blanket',
  'Basket',
  'Tray',
  'Candle',
  'Backpack',
  'Wallet',
  'Notebook',
  'Bottle',
  'Teapot',
  'Cutting Board',
  'Speaker',
  'Headphones',
  'Desk Organizer',
  'Picture Frame',
  'Stool',
];
const APPAREL_NOUNS = ['T-Shirt', 'Hoodie', 'Jacket', 'Scarf', 'Beanie', 'Apron', 'Tote Bag', 'Sneakers', 'Gloves', 'Socks', 'Dress', 'Belt', 'Cap'];
// In this order: seeded catalogues depend on it.
const NOUNS: ReadonlyArray<{ name: string; sizes: SizeKind }> = [
  ...SCALE_NOUNS.map((name) => ({ name, sizes: 'scale' as const })),
  ...APPAREL_NOUNS.map((name) => ({ name, sizes: 'apparel' as const })),
];
const COLORS = ['Black', 'White', 'Red', 'Navy', 'Olive', 'Sand', 'Grey', 'Teal', 'Mustard', 'Blush'];
const SIZES: Record<SizeKind, string[]> = {
  apparel: ['S', 'M', 'L', 'XL'],
  scale: ['Small', 'Medium', 'Large', 'X-Large'],
};
const BLURBS = [
  'Packed in recycled cardboard.',
  'Ships from our regional warehouse within 2 business days.',
  'Designed for daily use and easy to clean.',
  'Each piece varies slightly in finish.',
  'Backed by a 1-year supplier warranty.',
  'Popular with gift shops and concept stores.',
];

// Fixed anchor so updatedAt is reproducible for a seed.
const BASE_UPDATED_MS = Date.UTC(2025, 0, 1);

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)];
}

function shuffled<T>(rand: () => number, list: readonly T[]): T[] {
  const out = list.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function skuCode(noun: string): string {
  return noun
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 3)
    .toUpperCase();
}

export function buildProduct(rand: () => number, index: number, usedTitles: Set<string>): Omit<Product, 'shipsFrom' | 'deliveryDays'> {
  const num = String(index + 1).padStart(5, '0');
  const id = `SBX-P${num}`;

  let adjective = '';
  let material = '';
  let noun = NOUNS[0];
  let title = '';
  // Retry a few times so titles stay distinct; the fallback suffix keeps it bounded.
  for (let attempt = 0; attempt < 8; attempt++) {
    adjective = pick(rand, ADJECTIVES);
    material = pick(rand, MATERIALS);
    noun = pick(rand, NOUNS);
    title = `${adjective} ${material} ${noun.name}`;
    if (!usedTitles.has(title)) break;
  }
  if (usedTitles.has(title)) title = `${title} No. ${index + 1}`;
  usedTitles.add(title);

  const shipsTo = COUNTRIES.filter((c) => rand() < (c === 'US' ? 0.9 : 0.55));
  if (shipsTo.length === 0) shipsTo.push('US');

  const variantCount = 1 + Math.floor(rand() * 4);
  const scheme = variantCount === 1 ? (rand() < 0.5 ? 'none' : 'color') : pick(rand, ['color', 'size', 'both'] as const);
  const colors = shuffled(rand, COLORS);
  const sizes = SIZES[noun.sizes];
  const combos: Array<{ options: VariantOptions; sizeIndex: number }> = [];
  for (let v = 0; v < variantCount; v++) {
    if (scheme === 'none') combos.push({ options: {}, sizeIndex: 0 });
    else if (scheme === 'color') combos.push({ options: { color: colors[v] }, sizeIndex: 0 });
    else if (scheme === 'size') combos.push({ options: { size: sizes[v] }, sizeIndex: v });
    else combos.push({ options: { color: colors[v >> 1], size: sizes[v & 1] }, sizeIndex: v & 1 });
  }

  const baseCost = 199 + Math.floor(rand() * 9800);
  const variants: Variant[] = combos.map((combo, v) => {
    const optionValues = [combo.options.color, combo.options.size].filter((x): x is string => !!x);
    return {
      id: `${id}-V${v + 1}`,
      sku: `${skuCode(noun.name)}-${num}-${v + 1}`,
      title: optionValues.length ? optionValues.join(' / ') : 'Default',
      options: combo.options,
      costMinor: baseCost + combo.sizeIndex * 150,
      stock: rand() < 0.12 ? 0 : 1 + Math.floor(rand() * 400),
      available: rand() >= 0.05,
    };
  });

  const description = `${adjective} ${noun.name.toLowerCase()} made of ${material.toLowerCase()}. ` + `${pick(rand, BLURBS)} ${pick(rand, BLURBS)}`;
  const updatedAt = new Date(BASE_UPDATED_MS - Math.floor(rand() * 180 * 86400) * 1000).toISOString();

  return {
    id,
    title,
    description,
    url: `${SHOP_ORIGIN}/p/${id}`,
    imageUrl: `${SHOP_ORIGIN}/img/${id}.svg`,
    currency: 'USD',
    shipsTo,
    variants,
    updatedAt,
  };
}
