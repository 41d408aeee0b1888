/** A connected supplier's catalogue: browse, search or paste a product link, preview prices and duplicates, import. */
import { api, ApiFailure, qs } from './api.js';
import { act, clear, confirmAction, field, h, notice } from './dom.js';
import { money, moneyRange } from './format.js';
import { DEFAULT_RULE, priceRuleFields, type PriceRule } from './price-rule.js';
import { supplierNames } from './names.js';
import type { Ctx, Page } from './types.js';

interface SupplierProduct {
  id: string;
  title: string;
  url: string;
  shipsTo: string[];
  variants: Array<{ id: string; sku: string; title: string; cost: { amountMinor: number; currency: string }; stock: number; available: boolean }>;
}
interface Preview {
  items: Array<{
    supplierProductId: string; title: string; currencyMatchesStore: boolean; rate?: { from: string; to: string; rate: string; source: string; asOfDate: string } | null; duplicateOf: string[];
    variants: Array<{ sku: string; title: string; costMinor: number; storeCostMinor?: number; storeCurrency?: string; priceMinor: number; profitMinor: number; currency: string; stock: number; available: boolean }>;
  }>;
  errors: Array<{ supplierProductId: string; code: string; message: string }>;
}

const state = { connectionId: '', query: '', cursor: undefined as string | undefined, chosen: new Map<string, SupplierProduct>(), rule: DEFAULT_RULE as PriceRule, preview: null as Preview | null, titles: new Map<string, string>() };

export async function productsPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const store = ctx.store!;
  const base = `/api/store-suppliers/${store.id}`;
  const render = () => productsPage(root, ctx);
  const [connections, names] = await Promise.all([api<Array<{ id: string; supplierKey: string; accountLabel: string; enabled: boolean }>>('GET', base).then((r) => r.result.filter((c) => c.enabled)), supplierNames(store.id)]);
  if (!connections.some((c) => c.id === state.connectionId)) Object.assign(state, { connectionId: connections[0]?.id ?? '', cursor: undefined, chosen: new Map(), preview: null });
  if (!state.connectionId) return clear(root, h('h1', {}, 'Supplier products'), h('p', { class: 'card' }, 'No supplier connection is switched on. ', h('a', { href: '#connections' }, 'Connect a supplier'), ' first.'));
  const conn = connections.find((c) => c.id === state.connectionId)!;
  const supplier = names.get(conn.supplierKey) ?? conn.supplierKey;
  const url = `${base}/${conn.id}`;

  const page = (await api<Page<SupplierProduct>>('GET', `${url}/products${qs({ query: state.query, pageSize: 10, cursor: state.cursor })}`)).result;
  const picker = h('select', { 'aria-label': 'Supplier', onchange: (ev: Event) => (Object.assign(state, { connectionId: (ev.target as HTMLSelectElement).value, cursor: undefined, chosen: new Map(), preview: null }), void render()) }, ...connections.map((c) => h('option', { value: c.id, selected: c.id === conn.id }, `${names.get(c.supplierKey) ?? c.supplierKey} · ${c.accountLabel}`)));
  const query = h('input', { type: 'search', name: 'query', value: state.query, placeholder: 'for example: lamp', maxlength: 200 });
  const search = h('form', { class: 'row', role: 'search', onsubmit: (ev: Event) => (ev.preventDefault(), Object.assign(state, { query: query.value.trim(), cursor: undefined }), void render()) }, field('Search the catalogue', query), h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'secondary' }, 'Search')));
  const link = h('input', { type: 'url', name: 'url', required: true, placeholder: 'https://…', maxlength: 2000 });
  const find = h('button', { type: 'submit', class: 'secondary' }, 'Find');
  const paste = h('form', { class: 'row', onsubmit: (ev: Event) => (ev.preventDefault(), void act(find, async () => {
    const found = (await api<{ product: SupplierProduct }>('POST', `${url}/products/resolve-url`, { url: link.value.trim() })).result.product;
    state.chosen.set(found.id, found);
    state.preview = null;
    drawChosen();
    notice(`Found "${found.title}" (${found.id}); it is among the chosen products below.`);
  })) }, field(`Or paste a ${supplier} product link`, link), h('div', { class: 'actions' }, find));

  const chosenCard = h('section', { class: 'card', id: 'chosen' });
  const ruleFields = priceRuleFields(state.rule, store.currency);
  const drawChosen = () => clear(chosenCard, ...chosenContent(ctx, url, supplier, ruleFields, drawChosen));
  const rows = page.items.map((p) => {
    const box = h('input', { type: 'checkbox', 'aria-label': `Choose ${p.title}`, checked: state.chosen.has(p.id), onchange: (ev: Event) => ((ev.target as HTMLInputElement).checked ? state.chosen.set(p.id, p) : state.chosen.delete(p.id), (state.preview = null), drawChosen()) });
    const currency = p.variants[0]?.cost.currency ?? store.currency;
    return h(
      'tr',
      { 'data-supplier-product': p.id },
      h('td', {}, box),
      h('td', {}, h('strong', {}, p.title), h('br'), h('small', { class: 'mono' }, p.id)),
      h('td', {}, `${p.variants.length} variant${p.variants.length === 1 ? '' : 's'}`),
      h('td', {}, moneyRange(p.variants.map((v) => v.cost.amountMinor), currency)),
      h('td', { class: 'num' }, String(p.variants.reduce((n, v) => n + (v.available ? v.stock : 0), 0))),
      h('td', {}, p.shipsTo.length > 6 ? `${p.shipsTo.slice(0, 6).join(', ')} and ${p.shipsTo.length - 6} more` : p.shipsTo.join(', ')),
    );
  });
  const pager = (label: string, c: string | null) => h('button', { type: 'button', class: 'secondary', disabled: !c, onclick: () => ((state.cursor = c ?? undefined), void render()) }, label);
  clear(
    root,
    h('h1', {}, 'Supplier products'),
    h('p', {}, 'Choose products from a connected supplier, preview the prices your price rule gives them (free), then import them as your own products, linked to the supplier\'s.'),
    h('section', { class: 'card' }, h('div', { class: 'row' }, field('Supplier', picker)), search, paste),
    h(
      'section',
      { class: 'card' },
      h('h2', {}, state.query ? `Results for "${state.query}"` : `${supplier}'s catalogue`, page.pagination.totalCount !== null ? ` (${page.pagination.totalCount})` : ''),
      rows.length ? h('table', {}, h('thead', {}, h('tr', {}, ...['', 'Product', 'Variants', 'Cost', 'Stock', 'Ships to'].map((t) => h('th', {}, t)))), h('tbody', {}, ...rows)) : h('p', {}, 'No product matches.'),
      h('div', { class: 'actions' }, pager('Previous', page.pagination.previousCursor), pager('Next', page.pagination.hasMore ? page.pagination.nextCursor : null)),
    ),
    chosenCard,
  );
  drawChosen();
}

function chosenContent(ctx: Ctx, url: string, supplier: string, rule: ReturnType<typeof priceRuleFields>, redraw: () => void): Array<Node | null> {
  const chosen = [...state.chosen.values()];
  if (!chosen.length) return [h('h2', {}, 'Chosen products'), h('p', {}, 'Tick products above, or paste a product link, to preview and import them.')];
  const body = () => ({ products: chosen.map((p) => ({ supplierProductId: p.id })), priceRule: (state.rule = rule.read()) });
  const preview: HTMLButtonElement = h('button', { type: 'button', class: 'secondary', onclick: () => void act(preview, async () => {
    state.preview = (await api<Preview>('POST', `${url}/import/preview`, body())).result;
    // Duplicates are named by the store product they already are.
    const ids = [...new Set(state.preview.items.flatMap((i) => i.duplicateOf))].filter((id) => !state.titles.has(id));
    for (const id of ids) state.titles.set(id, (await api<{ title: string }>('GET', `/api/store-products/${ctx.store!.id}/${id}`)).result.title);
    redraw();
  }) }, 'Preview prices (free)');
  const run: HTMLButtonElement = h('button', { type: 'button', class: 'primary', onclick: () => void act(run, async () => {
    const ok = await confirmAction({ title: `Import ${chosen.length} product${chosen.length === 1 ? '' : 's'} from ${supplier}?`, body: ['Each becomes a product of your store, linked to the supplier\'s, priced by your rule. Each product imported uses credits; one that cannot be imported is not charged.'], action: 'Import' });
    if (ok) await importChosen(url, body(), redraw);
  }) }, 'Import');
  return [
    h('h2', {}, `Chosen products (${chosen.length})`),
    h('ul', { class: 'chosen' }, ...chosen.map((p) => h('li', {}, `${p.title} `, h('small', { class: 'mono' }, p.id), ' ', h('button', { type: 'button', class: 'link', onclick: () => (state.chosen.delete(p.id), (state.preview = null), redraw()) }, 'remove')))),
    rule.element,
    h('div', { class: 'actions' }, preview, run),
    state.preview ? previewTable(state.preview, ctx.store!.currency) : null,
  ];
}

async function importChosen(url: string, body: unknown, redraw: () => void): Promise<void> {
  try {
    const res = await api<{ products?: Array<{ title: string }>; errors?: Preview['errors']; id?: string; total?: number }>('POST', `${url}/import`, body);
    Object.assign(state, { chosen: new Map(), preview: null });
    redraw();
    if (res.status === 202) return notice(`Importing ${res.result.total} products in the background: follow the job under Imports and links.`, 'waiting');
    const made = res.result.products ?? [];
    const failed = res.result.errors ?? [];
    const text = `Imported ${made.length}: ${made.map((p) => `"${p.title}"`).join(', ')}.`;
    notice(failed.length ? `${text} Not imported: ${failed.map((e) => `${e.supplierProductId}: ${e.message}`).join(' ')}` : `${text} Find them under Imports and links.`, failed.length ? 'error' : 'ok');
  } catch (err) {
    if (!(err instanceof ApiFailure) || err.code !== 'nothingImported') throw err;
    const details = (err.details as Preview['errors']) ?? [];
    notice(`Nothing was imported. ${details.map((e) => `${e.supplierProductId}: ${e.message}`).join(' ')}`, 'error');
  }
}

function previewTable(p: Preview, storeCurrency: string): HTMLElement {
  return h(
    'div',
    { class: 'preview' },
    h('h3', {}, 'Preview: nothing is written or charged'),
    ...p.items.map((item) =>
      h(
        'div',
        { class: 'preview-item', 'data-supplier-product': item.supplierProductId },
        h('h4', {}, item.title, ' ', h('small', { class: 'mono' }, item.supplierProductId)),
        item.duplicateOf.length ? h('p', { class: 'notice error' }, `Already in your store as ${item.duplicateOf.map((id) => `"${state.titles.get(id) ?? id}"`).join(', ')}: importing it again is refused.`) : null,
        // Priced in the store's currency after conversion at the rate shown (docs/decisions.md, "Import in any currency").
        item.rate ? h('p', { class: 'notice', 'data-rate': item.rate.rate }, `The supplier prices it in ${item.rate.from}: costs converted at ${item.rate.rate} ${item.rate.to} per ${item.rate.from} (${item.rate.source}, ${item.rate.asOfDate}).`) : null,
        h('table', {}, h('thead', {}, h('tr', {}, ...['Variant', 'Cost', 'Your price', 'Profit', 'Stock'].map((t) => h('th', {}, t)))), h('tbody', {}, ...item.variants.map((v) => {
          const inStore = v.storeCurrency ?? storeCurrency;
          const cost = v.storeCostMinor !== undefined && inStore !== v.currency ? `${money(v.costMinor, v.currency)} = ${money(v.storeCostMinor, inStore)}` : money(v.costMinor, v.currency);
          return h('tr', {}, h('td', {}, `${v.title} `, h('small', { class: 'mono' }, v.sku)), h('td', {}, cost), h('td', {}, h('strong', {}, money(v.priceMinor, inStore))), h('td', {}, money(v.profitMinor, inStore)), h('td', { class: 'num' }, v.available ? String(v.stock) : 'unavailable'));
        }))),
      ),
    ),
    ...p.errors.map((e) => h('p', { class: 'notice error' }, `${e.supplierProductId}: ${e.message}`)),
  );
}
