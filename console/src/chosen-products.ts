/** The products chosen from a supplier's catalogue (./products.ts): their preview under the price rule, then their import. */
import { api, ApiFailure } from './api.js';
import { act, confirmAction, h, notice } from './dom.js';
import { money } from './format.js';
import { DEFAULT_RULE, priceRuleFields, type PriceRule } from './price-rule.js';
import type { Ctx } from './types.js';

export interface SupplierProduct {
  id: string;
  title: string;
  url: string;
  shipsTo: string[];
  variants: Array<{ id: string; sku: string; title: string; cost: { amountMinor: number; currency: string }; stock: number; available: boolean }>;
}
interface Preview {
  items: Array<{
    supplierProductId: string;
    title: string;
    currencyMatchesStore: boolean;
    rate?: { from: string; to: string; rate: string; source: string; asOfDate: string } | null;
    duplicateOf: string[];
    variants: Array<{
      sku: string;
      title: string;
      costMinor: number;
      storeCostMinor?: number;
      storeCurrency?: string;
      priceMinor: number;
      profitMinor: number;
      currency: string;
      stock: number;
      available: boolean;
    }>;
  }>;
  errors: Array<{ supplierProductId: string; code: string; message: string }>;
}

/** The page's choice, kept while the console is open: the supplier, the search, the chosen products and their preview. */
export const state = {
  connectionId: '',
  query: '',
  cursor: undefined as string | undefined,
  chosen: new Map<string, SupplierProduct>(),
  rule: DEFAULT_RULE as PriceRule,
  preview: null as Preview | null,
  titles: new Map<string, string>(),
};

export function chosenContent(ctx: Ctx, url: string, supplier: string, rule: ReturnType<typeof priceRuleFields>, redraw: () => void): Array<Node | null> {
  const chosen = [...state.chosen.values()];
  if (!chosen.length) return [h('h2', {}, 'Chosen products'), h('p', {}, 'Tick products above, or paste a product link, to preview and import them.')];
  const body = () => ({ products: chosen.map((p) => ({ supplierProductId: p.id })), priceRule: (state.rule = rule.read()) });
  const preview: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () =>
        void act(preview, async () => {
          state.preview = (await api<Preview>('POST', `${url}/import/preview`, body())).result;
          // Duplicates are named by the store product they already are.
          const ids = [...new Set(state.preview.items.flatMap((i) => i.duplicateOf))].filter((id) => !state.titles.has(id));
          for (const id of ids) state.titles.set(id, (await api<{ title: string }>('GET', `/api/store-products/${ctx.store!.id}/${id}`)).result.title);
          redraw();
        }),
    },
    'Preview prices (free)',
  );
  const run: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'primary',
      onclick: () =>
        void act(run, async () => {
          const ok = await confirmAction({
            title: `Import ${chosen.length} product${chosen.length === 1 ? '' : 's'} from ${supplier}?`,
            body: [
              "Each becomes a product of your store, linked to the supplier's, priced by your rule. Each product imported uses credits; one that cannot be imported is not charged.",
            ],
            action: 'Import',
          });
          if (ok) await importChosen(url, body(), redraw);
        }),
    },
    'Import',
  );
  return [
    h('h2', {}, `Chosen products (${chosen.length})`),
    h(
      'ul',
      { class: 'chosen' },
      ...chosen.map((p) =>
        h(
          'li',
          {},
          `${p.title} `,
          h('small', { class: 'mono' }, p.id),
          ' ',
          h('button', { type: 'button', class: 'link', onclick: () => (state.chosen.delete(p.id), (state.preview = null), redraw()) }, 'remove'),
        ),
      ),
    ),
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
    notice(
      failed.length
        ? `${text} Not imported: ${failed.map((e) => `${e.supplierProductId}: ${e.message}`).join(' ')}`
        : `${text} Find them under Imports and links.`,
      failed.length ? 'error' : 'ok',
    );
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
        item.duplicateOf.length
          ? h(
              'p',
              { class: 'notice error' },
              `Already in your store as ${item.duplicateOf.map((id) => `"${state.titles.get(id) ?? id}"`).join(', ')}: importing it again is refused.`,
            )
          : null,
        // Priced in the store's currency after conversion at the rate shown (docs/decisions.md, "Import in any currency").
        item.rate
          ? h(
              'p',
              { class: 'notice', 'data-rate': item.rate.rate },
              `The supplier prices it in ${item.rate.from}: costs converted at ${item.rate.rate} ${item.rate.to} per ${item.rate.from} (${item.rate.source}, ${item.rate.asOfDate}).`,
            )
          : null,
        h(
          'table',
          {},
          h('thead', {}, h('tr', {}, ...['Variant', 'Cost', 'Your price', 'Profit', 'Stock'].map((t) => h('th', {}, t)))),
          h(
            'tbody',
            {},
            ...item.variants.map((v) => {
              const inStore = v.storeCurrency ?? storeCurrency;
              const cost =
                v.storeCostMinor !== undefined && inStore !== v.currency
                  ? `${money(v.costMinor, v.currency)} = ${money(v.storeCostMinor, inStore)}`
                  : money(v.costMinor, v.currency);
              return h(
                'tr',
                {},
                h('td', {}, `${v.title} `, h('small', { class: 'mono' }, v.sku)),
                h('td', {}, cost),
                h('td', {}, h('strong', {}, money(v.priceMinor, inStore))),
                h('td', {}, money(v.profitMinor, inStore)),
                h('td', { class: 'num' }, v.available ? String(v.stock) : 'unavailable'),
              );
            }),
          ),
        ),
      ),
    ),
    ...p.errors.map((e) => h('p', { class: 'notice error' }, `${e.supplierProductId}: ${e.message}`)),
  );
}
