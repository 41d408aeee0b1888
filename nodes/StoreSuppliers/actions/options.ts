/**
 * The pickers of the vocabulary's lists (server/platform/vocabulary/, copied into ../vocabulary.ts by the build): each
 * option is a value of the list, named from it, so a value the service adds is offered at the next build and a
 * value it drops is gone, with nothing written here by hand.
 */

/** A value as n8n names an option: `needsReview` is Needs Review, `supplierOrder.paused` Supplier Order Paused. */
export const titleOf = (value: string): string =>
  value
    .split(/\.|(?=[A-Z])/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** The options of a list, by name as n8n sorts them, typed by the list's values; `describe` gives each its description. */
export function optionsOf<V extends string>(values: readonly V[], describe?: (value: V) => string): Array<{ name: string; value: V; description?: string }> {
  return values
    .map((value) => ({ name: titleOf(value), value, ...(describe ? { description: describe(value) } : {}) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
