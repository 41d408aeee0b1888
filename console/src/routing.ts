/** The routing rule: how a part's supplier is chosen among a link's primary and backups; the store's form and a link's fields. */
import { api } from './api.js';
import { act, field, h, notice } from './dom.js';

export type RoutingRule = { rule: 'primary' } | { rule: 'lowestLandedCost' } | { rule: 'fastest'; maxCostAboveCheapestPercent: number };

const RULES = {
  primary: "The product's own supplier (backups only when it cannot take an order)",
  lowestLandedCost: "The lowest landed cost: items plus shipping to the shopper, in the store's currency",
  fastest: 'The fastest delivery, at most a set share dearer than the cheapest',
};

/** What the rule says, in words. */
export function routingWords(r: RoutingRule): string {
  if (r.rule === 'lowestLandedCost') return 'the supplier with the lowest landed cost (items plus shipping to the shopper)';
  if (r.rule === 'fastest') return `the fastest supplier, at most ${r.maxCostAboveCheapestPercent}% dearer than the cheapest`;
  return "the product's own supplier";
}

/** Said wherever the rule is set: when it acts, and where its choice shows. */
const WHEN_IT_ACTS =
  "Each part's supplier is chosen by it before anything is sent, from live quotes of the product's supplier and its backups; the order page's history shows every quote and why the winner won.";

/** A rule select and its cap, read back as the service takes the rule; `withStore` adds "the store's rule" (a link's choice, read as null). */
function ruleFields(current: RoutingRule | null, withStore: boolean) {
  const cap = h('input', {
    type: 'number',
    name: 'maxCostAboveCheapestPercent',
    min: 0,
    max: 1000,
    step: 1,
    required: true,
    class: 'short',
    value: current?.rule === 'fastest' ? current.maxCostAboveCheapestPercent : 10,
    disabled: current?.rule !== 'fastest',
  });
  const options = [...(withStore ? [['store', "The store's rule"]] : []), ...Object.entries(RULES)];
  const rule: HTMLSelectElement = h(
    'select',
    { name: 'routingRule', onchange: (): void => void (cap.disabled = rule.value !== 'fastest') },
    ...options.map(([v, t]) => h('option', { value: v, selected: v === (current?.rule ?? 'store') }, t)),
  );
  const read = (): RoutingRule | null =>
    rule.value === 'store'
      ? null
      : rule.value === 'fastest'
        ? { rule: 'fastest', maxCostAboveCheapestPercent: Number(cap.value) }
        : ({ rule: rule.value } as RoutingRule);
  const element = h(
    'div',
    { class: 'row' },
    field('Choose the supplier by', rule),
    field('At most this % dearer than the cheapest', cap, 'With the fastest only.'),
  );
  return { element, read };
}

/** The store's rule, on the Connections page: it chooses between the store's connections, so it is not one connection's. */
export async function routingForm(storeId: string, render: () => Promise<void>): Promise<HTMLElement> {
  const url = `/api/store-suppliers/${storeId}/routing`;
  const current = (await api<{ routing: RoutingRule; updatedAt: string | null }>('GET', url)).result.routing;
  const fields = ruleFields(current, false);
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save routing');
  return h(
    'form',
    {
      class: 'sub routing',
      id: 'routing',
      onsubmit: (ev: Event) => (
        ev.preventDefault(),
        void act(save, async () => {
          await api('PUT', url, { routing: fields.read() });
          await render();
          notice('Routing saved.');
        })
      ),
    },
    h('h3', {}, 'Choosing the supplier'),
    h(
      'p',
      { class: 'message' },
      `For a product with backups at other suppliers, the store chooses ${routingWords(current)}. A product may have a rule of its own (Edit… on its link).`,
    ),
    fields.element,
    h('p', { class: 'message' }, WHEN_IT_ACTS),
    h('div', { class: 'actions' }, save),
  );
}

/** A link's own rule in its Edit dialog: null follows the store's. */
export function linkRoutingFields(current: RoutingRule | null) {
  const fields = ruleFields(current, true);
  return {
    element: h('fieldset', { class: 'routing' }, h('legend', {}, 'Choosing the supplier for this product'), fields.element, h('small', {}, WHEN_IT_ACTS)),
    read: fields.read,
  };
}
