/**
 * What an order takes from the catalogue: every line is checked (the variant exists and is sold, its product ships
 * to the destination, the country is served, the stock covers the quantity summed over lines), a refusal fault is
 * met, and only then is the stock taken.
 */
import type { Catalogue } from './catalogue';
import { ApiError } from './errors';
import type { Faults, OrderItem, OrderRequest } from './types';

/** What the lines are checked against. */
export interface LineChecks {
  catalogue: Catalogue;
  /** Read at each use: the control API replaces the fault set. */
  faults(): Faults;
  isCountryServed(country: string): boolean;
}

export function takeLines(world: LineChecks, input: OrderRequest): OrderItem[] {
  const { catalogue } = world;
  const lines = input.items.map((item) => {
    const found = catalogue.getVariant(item.variantId);
    if (!found) throw new ApiError(422, 'variantUnavailable', `Variant ${item.variantId} does not exist`, { variantId: item.variantId });
    if (!found.variant.available)
      throw new ApiError(422, 'variantUnavailable', `Variant ${item.variantId} is no longer available`, { variantId: item.variantId });
    return { item, ...found };
  });
  const country = input.destination.country;
  for (const { product } of lines) {
    if (!product.shipsTo.includes(country))
      throw new ApiError(422, 'destinationUnsupported', `Product ${product.id} does not ship to ${country}`, { productId: product.id });
  }
  if (!world.isCountryServed(country)) throw new ApiError(422, 'destinationUnsupported', `Shipping to ${country} is currently suspended`);
  const wanted = new Map<string, number>();
  for (const { item } of lines) wanted.set(item.variantId, (wanted.get(item.variantId) ?? 0) + item.quantity);
  for (const [variantId, quantity] of wanted) {
    const { variant } = catalogue.getVariant(variantId)!;
    if (variant.stock < quantity)
      throw new ApiError(422, 'variantUnavailable', `Variant ${variantId} has ${variant.stock} in stock, ${quantity} requested`, { variantId });
  }
  const faults = world.faults();
  const refusal = faults.refuseNext;
  if (refusal) {
    refusal.count--;
    if (refusal.count <= 0) faults.refuseNext = null;
    throw new ApiError(422, 'orderRefused', refusal.message);
  }
  for (const [variantId, quantity] of wanted) catalogue.getVariant(variantId)!.variant.stock -= quantity;
  return lines.map(({ item, variant }) => ({ variantId: item.variantId, quantity: item.quantity, unitCostMinor: variant.costMinor }));
}
