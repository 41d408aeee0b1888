/** The price rule as a few fields, in the store's currency: how a store price is worked out from the supplier's cost. */
import { field, h } from './dom.js';
import { minorPerMajor } from './format.js';

export interface PriceRule {
  multiplier: string;
  markupMinor: number;
  endingMinor: number | null;
  minimumProfitMinor: number;
  compareAtMultiplier?: string | null;
}

/** What the service uses when an import gives no rule: twice the cost, ending in .99. */
export const DEFAULT_RULE: PriceRule = { multiplier: '2', markupMinor: 0, endingMinor: 99, minimumProfitMinor: 0 };

export interface PriceRuleFields {
  element: HTMLElement;
  /** The rule as entered; the service validates it and names any bad field. */
  read(): PriceRule;
}

export function priceRuleFields(rule: PriceRule, currency: string): PriceRuleFields {
  const per = minorPerMajor(currency);
  const major = (minor: number) => (minor / per).toFixed(Math.round(Math.log10(per)));
  const multiplier = h('input', { name: 'multiplier', value: rule.multiplier, required: true, pattern: '[0-9]+(\\.[0-9]{1,4})?', class: 'short' });
  const markup = h('input', { name: 'markup', type: 'number', min: 0, step: String(1 / per), value: major(rule.markupMinor), class: 'short' });
  const ending = h('input', {
    name: 'ending',
    type: 'number',
    min: 0,
    max: Math.max(per - 1, 0),
    value: rule.endingMinor ?? '',
    placeholder: 'none',
    class: 'short',
  });
  const profit = h('input', { name: 'minimumProfit', type: 'number', min: 0, step: String(1 / per), value: major(rule.minimumProfitMinor), class: 'short' });
  return {
    element: h(
      'fieldset',
      { class: 'price-rule' },
      h('legend', {}, `Price rule (${currency})`),
      h(
        'div',
        { class: 'row' },
        field('Multiply the cost by', multiplier),
        field('Then add', markup),
        field('Round up to end in', ending, `${per > 1 ? `${per - 1} gives x.${per - 1}` : 'no minor units'}; empty: no rounding`),
        field('Keep at least this profit', profit),
      ),
    ),
    read: () => ({
      multiplier: multiplier.value.trim(),
      markupMinor: Math.round(Number(markup.value || 0) * per),
      endingMinor: ending.value === '' ? null : Number(ending.value),
      minimumProfitMinor: Math.round(Number(profit.value || 0) * per),
    }),
  };
}
