/** The store's orders, newest first, with their customer, the "needs attention" filter and a search by customer; a new order can be entered here. */
import { api, may, qs } from './api.js';
import { clear, h } from './dom.js';
import { money, when } from './format.js';
import { orderForm } from './order-form.js';
import type { Ctx, Page, StoreOrder } from './types.js';
import { ORDER_STATUS, SHOPPER_PAYMENT, wordFor } from './words.js';

const view = { needsAttention: false, status: '', customer: '', cursor: undefined as string | undefined, adding: false };

export async function ordersPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const render = () => ordersPage(root, ctx);
  const storeId = ctx.store!.id;
  // Customer data, and so the search by customer, only for staff allowed to see it (the service refuses the search otherwise).
  const customers = may(ctx.store, 'customers.view');
  if (!customers) view.customer = '';
  const query = { pageSize: 20, needsAttention: view.needsAttention || undefined, status: view.status, customer: view.customer, cursor: view.cursor };
  const page = (await api<Page<StoreOrder>>('GET', `/api/store-orders/${storeId}${qs(query)}`)).result;
  const filter = (label: string, on: boolean) =>
    h(
      'button',
      {
        type: 'button',
        class: view.needsAttention === on ? 'primary' : 'secondary',
        'aria-pressed': String(view.needsAttention === on),
        onclick: () => ((view.needsAttention = on), (view.cursor = undefined), void render()),
      },
      label,
    );
  const status = h(
    'select',
    { 'aria-label': 'Status', onchange: (ev: Event) => ((view.status = (ev.target as HTMLSelectElement).value), (view.cursor = undefined), void render()) },
    h('option', { value: '' }, 'Any status'),
    ...Object.entries(ORDER_STATUS).map(([v, t]) => h('option', { value: v, selected: v === view.status }, t)),
  );
  const pager = (label: string, c: string | null) =>
    h('button', { type: 'button', class: 'secondary', disabled: !c, onclick: () => ((view.cursor = c ?? undefined), void render()) }, label);
  const search = customers ? customerSearch(render) : null;
  const add = h(
    'button',
    { type: 'button', class: 'secondary', onclick: () => ((view.adding = !view.adding), void render()) },
    view.adding ? 'Close the new order' : 'New order…',
  );
  const rows = page.items.map((o) =>
    h(
      'tr',
      { 'data-order-id': o.id },
      h('td', {}, h('a', { href: `#orders/${o.id}` }, h('strong', {}, o.number))),
      h('td', {}, when(o.createdAt)),
      h('td', { class: 'customer' }, ...customerCell(o)),
      h(
        'td',
        {},
        h('span', { class: `badge ${o.status === 'cancelled' ? '' : 'ok'}` }, wordFor(ORDER_STATUS, o.status)),
        o.needsAttention ? h('span', { class: 'badge bad' }, 'needs attention') : null,
      ),
      h('td', {}, SHOPPER_PAYMENT[o.paymentStatus] ?? o.paymentStatus),
      h('td', { class: 'num' }, money(o.totalMinor, o.currency)),
      h('td', {}, partsSummary(o)),
    ),
  );
  clear(
    root,
    h('h1', {}, 'Orders'),
    h(
      'p',
      {},
      'Store orders, newest first. Each is split into parts: your own items, and one part per supplier. Open an order to follow its parts, supplier orders and tracking.',
    ),
    h('div', { class: 'row toolbar' }, filter('All orders', false), filter('Needs attention', true), status, search, h('span', { class: 'grow' }), add),
    view.adding
      ? orderForm(ctx, async (created) => {
          view.adding = false;
          location.hash = `#orders/${created.id}`;
        })
      : null,
    h(
      'section',
      { class: 'card' },
      h(
        'h2',
        {},
        `${view.needsAttention ? 'Needing attention' : 'Orders'}${view.customer ? ` of customers matching "${view.customer}"` : ''} (${page.pagination.totalCount})`,
      ),
      rows.length
        ? h(
            'table',
            {},
            h('thead', {}, h('tr', {}, ...['Order', 'Created', 'Customer', 'Status', "Shopper's payment", 'Total', 'Parts'].map((t) => h('th', {}, t)))),
            h('tbody', {}, ...rows),
          )
        : h(
            'p',
            {},
            view.customer ? `No order of a customer matching "${view.customer}".` : view.needsAttention ? 'No order needs attention.' : 'No orders yet.',
          ),
      page.pagination.previousCursor || page.pagination.hasMore
        ? h(
            'div',
            { class: 'actions' },
            pager('Newer', page.pagination.previousCursor),
            pager('Older', page.pagination.hasMore ? page.pagination.nextCursor : null),
          )
        : null,
    ),
  );
}

function partsSummary(o: StoreOrder): string {
  const s = o.fulfilmentSummary;
  const parts = `${s.parts} part${s.parts === 1 ? '' : 's'}`;
  const moved = [
    s.shipped ? `${s.shipped} shipped` : '',
    s.delivered ? `${s.delivered} delivered` : '',
    s.needingAttention ? `${s.needingAttention} needing attention` : '',
  ].filter(Boolean);
  return moved.length ? `${parts}: ${moved.join(', ')}` : parts;
}

/** The customer's name and e-mail, or why they are not shown. */
function customerCell(o: StoreOrder): Array<string | HTMLElement> {
  const d = o.destination;
  if (!d) return [h('small', {}, 'hidden (customer data)')];
  return d.email ? [d.name, h('br'), h('small', {}, d.email)] : [d.name];
}

/** Search by the customer's name or e-mail (part of either, letter case aside); empty shows every order. */
function customerSearch(render: () => Promise<void>): HTMLElement {
  const input = h('input', { type: 'search', name: 'customer', value: view.customer, maxlength: 200, placeholder: 'name or e-mail', 'aria-label': 'Customer' });
  return h(
    'form',
    {
      class: 'row search',
      role: 'search',
      onsubmit: (ev: Event) => (ev.preventDefault(), (view.customer = input.value.trim()), (view.cursor = undefined), void render()),
    },
    input,
    h('button', { type: 'submit', class: 'secondary' }, 'Search'),
    view.customer
      ? h('button', { type: 'button', class: 'link', onclick: () => ((view.customer = ''), (view.cursor = undefined), void render()) }, 'Show all')
      : null,
  );
}
