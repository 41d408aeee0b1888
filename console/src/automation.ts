/** A connection's automation: how it sends and pays supplier orders, said as it is set, and its form on the Connections page. */
import { api } from './api.js';
import { act, field, h, notice } from './dom.js';
import { minorToText, stepOf, textToMinor } from './format.js';
import type { Money } from './types.js';
import { DEFAULT_REROUTE_REASONS, REROUTE_REASONS, REVIEW_REASON_WORDS } from './vocabulary.js';

export type ShippingMethod = { rule: 'cheapest' } | { rule: 'fastest' } | { rule: 'named'; service: string };

export interface Automation {
  level: 'off' | 'manual' | 'automatic';
  automaticPayment: boolean;
  costLimit: Money | null;
  excludedCountries: string[];
  allowUnpaidOrders: boolean;
  shippingMethod: ShippingMethod;
  /** Which pauses go to the links' backup suppliers, and how much dearer one may be. */
  reroute?: { reasons: string[]; maxCostIncreasePercent: number };
}

/** A rule reroutes on the vocabulary's reroutable reasons (the opt-in ones: the supplier will not now, rather than cannot). */
const DEFAULT_REROUTE: { reasons: string[]; maxCostIncreasePercent: number } = { reasons: [...DEFAULT_REROUTE_REASONS], maxCostIncreasePercent: 10 };

const LEVELS = { automatic: 'Automatically, once the store order is confirmed', manual: 'Only when someone sends it', off: 'Never' };
const SHIPPING = { cheapest: 'The cheapest service quoted', fastest: 'The fastest service quoted', named: 'One service, by its name' };

/** The service pays this connection's supplier orders by itself (once the payment provider confirmed the shopper's payment). */
export const paysByItself = (a: Automation | undefined): boolean => !!a && a.level !== 'off' && a.automaticPayment;

/** What the connection does with an order's part: who sends it, and who pays the supplier. */
export function automationWords(a: Automation): string {
  if (a.level === 'off') return 'It sends no orders to the supplier (set to never): you fulfil its parts yourself.';
  const sends =
    a.level === 'automatic' ? 'It sends each order to the supplier once the order is confirmed' : 'It sends an order to the supplier only when you send it';
  const pays = a.automaticPayment
    ? `pays the supplier by itself once the payment provider confirmed the shopper's payment${a.allowUnpaidOrders ? ' (orders not paid online too: unpaid orders are allowed)' : ''}`
    : 'leaves paying the supplier to you: pay now when you send it, or Pay on its supplier order';
  return `${sends}, and ${pays}.`;
}

export function shippingWords(m: ShippingMethod): string {
  return m.rule === 'named' ? `the service named ${m.service}` : m.rule === 'fastest' ? 'the fastest service' : 'the cheapest service';
}

export function automationForm(a: Automation, url: string, render: () => Promise<void>): HTMLElement {
  const level = h('select', { name: 'level' }, ...Object.entries(LEVELS).map(([v, t]) => h('option', { value: v, selected: v === a.level }, t)));
  const pay = h('input', { type: 'checkbox', name: 'automaticPayment', checked: a.automaticPayment });
  const unpaid = h('input', { type: 'checkbox', name: 'allowUnpaidOrders', checked: a.allowUnpaidOrders });
  const limitCurrency = a.costLimit?.currency ?? 'USD';
  const limit = h('input', {
    type: 'number',
    name: 'costLimit',
    min: 0,
    step: stepOf(limitCurrency),
    value: a.costLimit ? minorToText(a.costLimit.amountMinor, limitCurrency) : '',
    placeholder: 'no limit',
  });
  // The limit's decimals follow its currency (JPY none, KWD three), so its step does too.
  const currency = h('input', {
    name: 'costLimitCurrency',
    value: limitCurrency,
    maxlength: 3,
    pattern: '[A-Za-z]{3}',
    'aria-label': 'Currency',
    class: 'short',
    oninput: (): void => void (limit.step = stepOf(currency.value.toUpperCase())),
  });
  const countries = h('input', { name: 'excludedCountries', value: a.excludedCountries.join(', '), placeholder: 'for example: CA, BR' });
  const named = a.shippingMethod.rule === 'named' ? a.shippingMethod.service : '';
  // The service's name only counts (and is needed) with the "named" rule.
  const service = h('input', {
    name: 'shippingService',
    value: named,
    maxlength: 100,
    pattern: '[\\x20-\\x7e]+',
    placeholder: 'for example CAINIAO_STANDARD',
    disabled: a.shippingMethod.rule !== 'named',
    required: a.shippingMethod.rule === 'named',
  });
  const shipping: HTMLSelectElement = h(
    'select',
    {
      name: 'shippingMethod',
      onchange: (): void => {
        service.disabled = shipping.value !== 'named';
        service.required = shipping.value === 'named';
      },
    },
    ...Object.entries(SHIPPING).map(([v, t]) => h('option', { value: v, selected: v === a.shippingMethod.rule }, t)),
  );
  const rule = a.reroute ?? DEFAULT_REROUTE;
  const reasons = REROUTE_REASONS.map((k) => ({
    k,
    box: h('input', { type: 'checkbox', name: `reroute-${k}`, checked: rule.reasons.includes(k) }),
    label: REVIEW_REASON_WORDS[k].rerouteLabel,
  }));
  const dearer = h('input', {
    type: 'number',
    name: 'maxCostIncreasePercent',
    min: 0,
    max: 1000,
    step: 1,
    value: rule.maxCostIncreasePercent,
    required: true,
    class: 'short',
  });
  const save = h('button', { type: 'submit', class: 'primary' }, 'Save automation');
  return h(
    'form',
    {
      class: 'sub automation',
      onsubmit: (ev: Event) => (
        ev.preventDefault(),
        void act(save, async () => {
          const body = {
            level: level.value,
            automaticPayment: pay.checked,
            allowUnpaidOrders: unpaid.checked,
            costLimit:
              limit.value === '' ? null : { amountMinor: textToMinor(limit.value, currency.value.toUpperCase()) ?? -1, currency: currency.value.toUpperCase() },
            excludedCountries: [
              ...new Set(
                countries.value
                  .split(/[\s,;]+/)
                  .filter(Boolean)
                  .map((x) => x.toUpperCase()),
              ),
            ],
            shippingMethod: shipping.value === 'named' ? { rule: 'named', service: service.value.trim() } : { rule: shipping.value },
            reroute: { reasons: reasons.filter((x) => x.box.checked).map((x) => x.k), maxCostIncreasePercent: Number(dearer.value) },
          };
          await api('PUT', `${url}/automation`, body);
          await render();
          notice('Automation saved.');
        })
      ),
    },
    h('h4', {}, 'Automation'),
    h('p', { class: 'message' }, automationWords(a)),
    field('Send orders to the supplier', level),
    h('label', { class: 'check' }, pay, 'Pay the supplier automatically once the order is created'),
    h('label', { class: 'check' }, unpaid, 'Also send orders the shopper has not paid online (cash on delivery)'),
    h('div', { class: 'row' }, field('Stop orders costing more than', limit, 'Leave empty for no limit'), field('Currency', currency)),
    field('Never send to these countries', countries, 'Two-letter codes, separated by commas'),
    h(
      'div',
      { class: 'row' },
      field(
        'Shipping method',
        shipping,
        'For suppliers that quote several services per order (the fastest: the shortest longest delivery time, then the cheapest); an order no service fits stops for review.',
      ),
      field('Service name', service, 'As the supplier names it in its quotes'),
    ),
    h(
      'fieldset',
      { class: 'reroute' },
      h('legend', {}, "Backup suppliers: send a stopped order to the product's backups when"),
      ...reasons.map((x) => h('label', { class: 'check' }, x.box, x.label)),
      field(
        'A backup may cost at most this % more',
        dearer,
        "Than this supplier's cost; never above the backup connection's own cost limit. Backups are set per product on Imports and links.",
      ),
    ),
    h('div', { class: 'actions' }, save),
  );
}
