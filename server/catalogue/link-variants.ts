import { errors } from '../platform/errors';
import { isCurrency } from '../platform/currencies';
import type { StoreVariant } from '../stores/types';
import type { SupplierProduct } from '../suppliers/adapter';
import type { ProductLinkVariant } from './types';

/** One store variant mapped to a supplier variant, as a link's variants say. */
export interface VariantMapping {
  storeVariantId: string;
  supplierVariantId: string;
  maxBuyPrice?: { amountMinor: number; currency: string } | null;
}

/** Every store variant mapped once, each to a supplier variant that exists; otherwise 400 naming the variant. */
export function mapVariants(
  storeVariants: StoreVariant[],
  supplierProduct: SupplierProduct,
  mappings: VariantMapping[],
): Array<Omit<ProductLinkVariant, 'linkId'>> {
  const supplierVariants = new Map(supplierProduct.variants.map((v) => [v.id, v]));
  const byStore = new Map(mappings.map((m) => [m.storeVariantId, m]));
  const problems: Array<{ field: string; message: string; variantId: string }> = [];
  for (const m of mappings) {
    if (!storeVariants.some((v) => v.id === m.storeVariantId))
      problems.push({ field: 'body/variants', message: `store variant ${m.storeVariantId} is not a variant of this product`, variantId: m.storeVariantId });
    if (m.maxBuyPrice && !isCurrency(m.maxBuyPrice.currency))
      problems.push({
        field: 'body/variants',
        message: `maxBuyPrice.currency ${m.maxBuyPrice.currency} is not an ISO 4217 currency`,
        variantId: m.storeVariantId,
      });
    if (!supplierVariants.has(m.supplierVariantId))
      problems.push({
        field: 'body/variants',
        message: `supplier variant ${m.supplierVariantId} does not exist on supplier product ${supplierProduct.id}`,
        variantId: m.supplierVariantId,
      });
  }
  for (const v of storeVariants) {
    if (!byStore.has(v.id))
      problems.push({ field: 'body/variants', message: `store variant ${v.id} (${v.sku}) is not mapped to a supplier variant`, variantId: v.id });
  }
  if (mappings.length !== byStore.size) problems.push({ field: 'body/variants', message: 'a store variant is mapped more than once', variantId: '' });
  if (problems.length) throw errors.badRequest('variantMappingInvalid', 'Every store variant must map to a variant the supplier product has.', problems);
  return storeVariants.map((sv) => {
    const supplier = supplierVariants.get(byStore.get(sv.id)!.supplierVariantId)!;
    const m = byStore.get(sv.id)!;
    return {
      storeVariantId: sv.id,
      supplierVariantId: supplier.id,
      costMinor: supplier.cost.amountMinor,
      currency: supplier.cost.currency,
      stock: supplier.stock,
      available: supplier.available,
      maxBuyPrice: m.maxBuyPrice ?? null,
    };
  });
}
