import type { ShippingMethodRule } from './adapter';

/** One shipping service a supplier quotes for an order or an item. */
export interface ShippingOption {
  /** The name the supplier takes back when ordering. */
  service: string;
  costMinor: number;
  /** The longest delivery time it quotes, in days; null when it quotes none. */
  maxDays: number | null;
}

export const CHEAPEST: ShippingMethodRule = { rule: 'cheapest' };

/**
 * The option the rule picks: the cheapest (then the fastest), the fastest (then the cheapest; an option without a
 * quoted time counts as slowest), or the named one (letter case aside). Null when none fits.
 */
export function chooseShipping(options: ShippingOption[], rule: ShippingMethodRule = CHEAPEST): ShippingOption | null {
  if (rule.rule === 'named') return options.find((o) => o.service.toLowerCase() === rule.service.trim().toLowerCase()) ?? null;
  const days = (o: ShippingOption) => o.maxDays ?? Number.POSITIVE_INFINITY;
  const order =
    rule.rule === 'fastest'
      ? (a: ShippingOption, b: ShippingOption) => days(a) - days(b) || a.costMinor - b.costMinor
      : (a: ShippingOption, b: ShippingOption) => a.costMinor - b.costMinor || days(a) - days(b);
  return [...options].sort(order)[0] ?? null;
}

/** What a rule asks for, in words for a refusal. */
export function describeRule(rule: ShippingMethodRule = CHEAPEST): string {
  return rule.rule === 'named' ? `the shipping service "${rule.service}"` : `the ${rule.rule} shipping service`;
}

/** The longest time of a quoted range ("7-15" -> 15, "12" -> 12); null when it quotes none. */
export function maxDaysOf(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const numbers = text.match(/\d{1,4}/g);
  return numbers ? Math.max(...numbers.map(Number)) : null;
}
