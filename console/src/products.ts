/** A connected supplier's catalogue: browse, search or paste a product link, preview prices and duplicates, import. */
import { api, qs } from './api.js';
import { act, clear, field, h, notice } from './dom.js';
import { moneyRange } from './format.js';
import { priceRuleFields } from './price-rule.js';
import { supplierNames } from './names.js';
import type { Ctx, Page } from './types.js';
import { chosenContent, state, type SupplierProduct } from './chosen-products.js';

export async function productsPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const store = ctx.store!;
  const base = `/api/store-suppliers/${store.id}`;
  const render = () => productsPage(root, ctx);
  const [connections, names] = await Promise.all([
    api<Array<{ id: string; supplierKey: string; accountLabel: string; enabled: boolean }>>('GET', base).then((r) => r.result.filter((c) => c.enabled)),
    supplierNames(store.id),
  ]);
  if (!connections.some((c) => c.id === state.connectionId))
    Object.assign(state, { connectionId: connections[0]?.id ?? '', cursor: undefined, chosen: new Map(), preview: null });
  if (!state.connectionId)
    return clear(
      root,
      h('h1', {}, 'Supplier products'),
      h('p', { class: 'card' }, 'No supplier connection is switched on. ', h('a', { href: '#connections' }, 'Connect a supplier'), ' first.'),
    );
  const conn = connections.find((c) => c.id === state.connectionId)!;
  const supplier = names.get(conn.supplierKey) ?? conn.supplierKey;
  const url = `${base}/${conn.id}`;

  const page = (await api<Page<SupplierProduct>>('GET', `${url}/products${qs({ query: state.query, pageSize: 10, cursor: state.cursor })}`)).result;
  const picker = h(
    'select',
    {
      'aria-label': 'Supplier',
      onchange: (ev: Event) => (
        Object.assign(state, { connectionId: (ev.target as HTMLSelectElement).value, cursor: undefined, chosen: new Map(), preview: null }),
        void render()
      ),
    },
    ...connections.map((c) => h('option', { value: c.id, selected: c.id === conn.id }, `${names.get(c.supplierKey) ?? c.supplierKey} · ${c.accountLabel}`)),
  );
  const query = h('input', { type: 'search', name: 'query', value: state.query, placeholder: 'for example: lamp', maxlength: 200 });
  const search = h(
    'form',
    {
      class: 'row',
      role: 'search',
      onsubmit: (ev: Event) => (ev.preventDefault(), Object.assign(state, { query: query.value.trim(), cursor: undefined }), void render()),
    },
    field('Search the catalogue', query),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'secondary' }, 'Search')),
  );
  const link = h('input', { type: 'url', name: 'url', required: true, placeholder: 'https://…', maxlength: 2000 });
  const find = h('button', { type: 'submit', class: 'secondary' }, 'Find');
  const paste = h(
    'form',
    {
      class: 'row',
      onsubmit: (ev: Event) => (
        ev.preventDefault(),
        void act(find, async () => {
          const found = (await api<{ product: SupplierProduct }>('POST', `${url}/products/resolve-url`, { url: link.value.trim() })).result.product;
          state.chosen.set(found.id, found);
          state.preview = null;
          drawChosen();
          notice(`Found "${found.title}" (${found.id}); it is among the chosen products below.`);
        })
      ),
    },
    field(`Or paste a ${supplier} product link`, link),
    h('div', { class: 'actions' }, find),
  );

  const chosenCard = h('section', { class: 'card', id: 'chosen' });
  const ruleFields = priceRuleFields(state.rule, store.currency);
  const drawChosen = () => clear(chosenCard, ...chosenContent(ctx, url, supplier, ruleFields, drawChosen));
  const rows = page.items.map((p) => {
    const box = h('input', {
      type: 'checkbox',
      'aria-label': `Choose ${p.title}`,
      checked: state.chosen.has(p.id),
      onchange: (ev: Event) => (
        (ev.target as HTMLInputElement).checked ? state.chosen.set(p.id, p) : state.chosen.delete(p.id),
        (state.preview = null),
        drawChosen()
      ),
    });
    const currency = p.variants[0]?.cost.currency ?? store.currency;
    return h(
      'tr',
      { 'data-supplier-product': p.id },
      h('td', {}, box),
      h('td', {}, h('strong', {}, p.title), h('br'), h('small', { class: 'mono' }, p.id)),
      h('td', {}, `${p.variants.length} variant${p.variants.length === 1 ? '' : 's'}`),
      h(
        'td',
        {},
        moneyRange(
          p.variants.map((v) => v.cost.amountMinor),
          currency,
        ),
      ),
      h('td', { class: 'num' }, String(p.variants.reduce((n, v) => n + (v.available ? v.stock : 0), 0))),
      h('td', {}, p.shipsTo.length > 6 ? `${p.shipsTo.slice(0, 6).join(', ')} and ${p.shipsTo.length - 6} more` : p.shipsTo.join(', ')),
    );
  });
  const pager = (label: string, c: string | null) =>
    h('button', { type: 'button', class: 'secondary', disabled: !c, onclick: () => ((state.cursor = c ?? undefined), void render()) }, label);
  clear(
    root,
    h('h1', {}, 'Supplier products'),
    h(
      'p',
      {},
      "Choose products from a connected supplier, preview the prices your price rule gives them (free), then import them as your own products, linked to the supplier's.",
    ),
    h('section', { class: 'card' }, h('div', { class: 'row' }, field('Supplier', picker)), search, paste),
    h(
      'section',
      { class: 'card' },
      h(
        'h2',
        {},
        state.query ? `Results for "${state.query}"` : `${supplier}'s catalogue`,
        page.pagination.totalCount !== null ? ` (${page.pagination.totalCount})` : '',
      ),
      rows.length
        ? h(
            'table',
            {},
            h('thead', {}, h('tr', {}, ...['', 'Product', 'Variants', 'Cost', 'Stock', 'Ships to'].map((t) => h('th', {}, t)))),
            h('tbody', {}, ...rows),
          )
        : h('p', {}, 'No product matches.'),
      h(
        'div',
        { class: 'actions' },
        pager('Previous', page.pagination.previousCursor),
        pager('Next', page.pagination.hasMore ? page.pagination.nextCursor : null),
      ),
    ),
    chosenCard,
  );
  drawChosen();
}
