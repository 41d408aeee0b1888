/** Entering a store order by hand (a phone or marketplace sale, or a test): items from the store's products, and where it goes. */
import { api } from './api.js';
import { act, field, h, notice } from './dom.js';
import { money } from './format.js';
import type { Ctx, Page, StoreOrder, StoreProduct } from './types.js';
import { PAYMENT_METHOD } from './words.js';

export function orderForm(ctx: Ctx, onCreated: (order: StoreOrder) => Promise<void>): HTMLElement {
  const storeId = ctx.store!.id;
  const lines = h('div', { class: 'lines' });
  const options: HTMLOptionElement[] = [];
  const addLine = () => {
    const pick = h(
      'select',
      { name: 'variant', required: true, 'aria-label': 'Product' },
      h('option', { value: '' }, 'Choose a product…'),
      ...options.map((o) => o.cloneNode(true) as HTMLOptionElement),
    );
    const quantity = h('input', { type: 'number', name: 'quantity', min: 1, max: 10000, value: 1, required: true, class: 'short', 'aria-label': 'Quantity' });
    lines.append(h('div', { class: 'row line' }, field('Product', pick), field('Quantity', quantity)));
  };
  const more = h('button', { type: 'button', class: 'secondary', onclick: addLine }, 'Add another item');
  const input = (name: string, label: string, opts: Record<string, string | boolean | number> = {}) => field(label, h('input', { name, ...opts }));
  const payment = h('select', { name: 'paymentMethod' }, ...Object.entries(PAYMENT_METHOD).map(([v, t]) => h('option', { value: v }, t)));
  const create = h('button', { type: 'submit', class: 'primary' }, 'Create the order');
  const form: HTMLFormElement = h(
    'form',
    {
      class: 'card order-form',
      onsubmit: (ev: Event) => (
        ev.preventDefault(),
        void act(create, async () => {
          const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value.trim() ?? '';
          const items = [...lines.querySelectorAll('.line')].map((line) => {
            const [productId, variantId] = (line.querySelector('select') as HTMLSelectElement).value.split('/');
            return { productId, variantId, quantity: Number((line.querySelector('input') as HTMLInputElement).value) };
          });
          const destination = Object.fromEntries(
            ['name', 'line1', 'city', 'postalCode', 'country', 'email'].map((k) => [k, value(k)]).filter(([, v]) => v !== ''),
          );
          destination.country = String(destination.country ?? '').toUpperCase();
          const res = await api<StoreOrder>('POST', `/api/store-orders/${storeId}`, { items, destination, paymentMethod: payment.value });
          await onCreated(res.result);
          notice(`Order ${res.result.number} created: ${money(res.result.totalMinor, res.result.currency)}, ${res.result.fulfilmentGroups.length} part(s).`);
        })
      ),
    },
    h('h2', {}, 'New order'),
    h('p', {}, "What the shopper bought and where it goes. Items of products linked to a supplier become that supplier's part of the order."),
    lines,
    h('div', { class: 'actions' }, more),
    h('h3', {}, 'Deliver to'),
    h(
      'div',
      { class: 'row' },
      input('name', 'Name', { required: true, maxlength: 200, autocomplete: 'name' }),
      input('email', 'E-mail', { type: 'email', maxlength: 254 }),
    ),
    h('div', { class: 'row' }, input('line1', 'Address', { required: true, maxlength: 300 }), input('city', 'City', { required: true, maxlength: 200 })),
    h(
      'div',
      { class: 'row' },
      input('postalCode', 'Postal code', { required: true, maxlength: 40 }),
      input('country', 'Country', { required: true, pattern: '[A-Za-z]{2}', maxlength: 2, placeholder: 'US', title: 'Two letters, for example US' }),
    ),
    field('How the shopper pays', payment),
    h('div', { class: 'actions' }, create),
  );
  // The store's products, newest first (the first 100 cover a store that is starting out).
  void api<Page<StoreProduct>>('GET', `/api/store-products/${storeId}?pageSize=100&status=active`).then(
    (r) => {
      for (const p of r.result.items)
        for (const v of p.variants)
          options.push(h('option', { value: `${p.id}/${v.id}` }, `${p.title} — ${v.title} (${money(v.priceMinor, v.currency)}, ${v.stock} in stock)`));
      addLine();
    },
    (err: Error) => notice(`The store's products could not be read: ${err.message}`, 'error'),
  );
  return form;
}
