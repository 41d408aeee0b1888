import type { LinkAlternate, ProductLink, ProductLinkVariant } from './types';

/** A link as the API shows it: times as text, its variant mappings without the link's id. */
export type LinkView = Omit<ProductLink, 'createdByAccountId' | 'lastSyncAt' | 'createdAt' | 'updatedAt'> & {
  variants: Array<Omit<ProductLinkVariant, 'linkId'> & { alternates: AlternateView[] }>;
  lastSyncAt: string | null;
  createdAt: string;
  updatedAt: string;
};

type AlternateView = Omit<LinkAlternate, 'storeVariantId' | 'position'>;

export function linkView(l: ProductLink, variants: Array<Omit<ProductLinkVariant, 'linkId'>>, alternates: LinkAlternate[]): LinkView {
  const { createdByAccountId: _account, lastSyncAt, createdAt, updatedAt, ...rest } = l;
  const alternatesOf = (storeVariantId: string): AlternateView[] =>
    alternates
      .filter((a) => a.storeVariantId === storeVariantId)
      .map(({ connectionId, supplierProductId, supplierVariantId, costMinor, currency, stock, available }) => ({
        connectionId,
        supplierProductId,
        supplierVariantId,
        costMinor,
        currency,
        stock,
        available,
      }));
  return {
    ...rest,
    variants: variants.map((v) => ({
      storeVariantId: v.storeVariantId,
      supplierVariantId: v.supplierVariantId,
      costMinor: v.costMinor,
      currency: v.currency,
      stock: v.stock,
      available: v.available,
      maxBuyPrice: v.maxBuyPrice ?? null,
      alternates: alternatesOf(v.storeVariantId),
    })),
    lastSyncAt: lastSyncAt ? lastSyncAt.toISOString() : null,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}
