/** The store's product links with cost, price, stock and last sync; sync now, edit the price rule and sync switches, backups, unlink. */
import { api, qs } from './api.js';
import { act, clear, confirmAction, h, notice } from './dom.js';
import { moneyRange, when } from './format.js';
import { priceRuleFields, type PriceRule } from './price-rule.js';
import { supplierNames } from './names.js';
import { editBackups, type Alternate, type LinkWithBackups } from './backups.js';
import { linkRoutingFields, type RoutingRule } from './routing.js';
import type { Ctx, Page, StoreProduct } from './types.js';

interface Link extends LinkWithBackups {
  productId: string;
  supplierKey: string;
  supplierProductId: string;
  variants: Array<{
    storeVariantId: string;
    supplierVariantId: string;
    costMinor: number;
    currency: string;
    stock: number;
    available: boolean;
    alternates?: Alternate[];
  }>;
  priceRule: PriceRule;
  sync: Record<string, boolean>;
  routing: RoutingRule | null;
  lastSyncAt: string | null;
  lastSyncError: string | null;
}

const SWITCHES: Record<string, string> = {
  cost: 'Cost',
  price: 'Price (from the cost, by the rule)',
  stock: 'Stock',
  title: 'Title',
  availability: 'Stock 0 when the supplier stops offering a variant',
};
let cursor: string | undefined;

export async function linksSection(ctx: Ctx, render: () => Promise<void>): Promise<HTMLElement> {
  const storeId = ctx.store!.id;
  const base = `/api/store-suppliers/${storeId}/links`;
  const [links, names] = await Promise.all([api<Page<Link>>('GET', `${base}${qs({ pageSize: 10, cursor })}`).then((r) => r.result), supplierNames(storeId)]);
  // The linked store products, for their titles and prices (one read each; a page holds at most 10).
  const products = new Map(
    (
      await Promise.all(
        links.items.map((l) =>
          api<StoreProduct>('GET', `/api/store-products/${storeId}/${l.productId}`).then(
            (r) => r.result,
            () => null,
          ),
        ),
      )
    )
      .filter((p): p is StoreProduct => !!p)
      .map((p) => [p.id, p]),
  );
  const rows = links.items.map((l) => {
    const product = products.get(l.productId);
    const title = product?.title ?? l.productId;
    const currency = l.variants[0]?.currency ?? ctx.store!.currency;
    const b = (label: string, run: () => Promise<unknown>, cls = 'secondary') => {
      const btn: HTMLButtonElement = h('button', { type: 'button', class: cls, onclick: () => void act(btn, run) }, label);
      return btn;
    };
    return h(
      'tr',
      { 'data-link-id': l.id },
      h('td', {}, title),
      h('td', {}, `${names.get(l.supplierKey) ?? l.supplierKey} · `, h('span', { class: 'mono' }, l.supplierProductId), backupsNote(l)),
      h(
        'td',
        {},
        moneyRange(
          l.variants.map((v) => v.costMinor),
          currency,
        ),
      ),
      h(
        'td',
        {},
        product
          ? moneyRange(
              product.variants.map((v) => v.priceMinor),
              product.variants[0]?.currency ?? currency,
            )
          : '—',
      ),
      h('td', { class: 'num' }, String(l.variants.reduce((n, v) => n + (v.available ? v.stock : 0), 0))),
      h('td', {}, when(l.lastSyncAt), l.lastSyncError ? h('div', { class: 'message error-text' }, l.lastSyncError) : null),
      h(
        'td',
        {},
        h(
          'div',
          { class: 'buttons' },
          b('Sync now', async () => {
            const after = (await api<Link>('POST', `${base}/${l.id}/sync`)).result;
            await render();
            if (after.lastSyncError) notice(`"${title}" could not be synced: ${after.lastSyncError}`, 'error');
            else
              notice(
                `"${title}" synced: cost ${moneyRange(
                  after.variants.map((v) => v.costMinor),
                  currency,
                )}, ${after.variants.reduce((n, v) => n + (v.available ? v.stock : 0), 0)} in stock.`,
              );
          }),
          b('Edit…', () => editLink(l, title, `${base}/${l.id}`, ctx.store!.currency, render)),
          b('Backups…', () => editBackups(storeId, l, title, product, render)),
          b(
            'Unlink…',
            async () => {
              const ok = await confirmAction({
                title: `Unlink "${title}"?`,
                body: [
                  `The product stays in your store as your own. It is no longer synced with ${names.get(l.supplierKey) ?? l.supplierKey}, and new orders for it are not sent there.`,
                ],
                action: 'Unlink',
                danger: true,
              });
              if (!ok) return;
              await api('DELETE', `${base}/${l.id}`);
              await render();
              notice(`"${title}" is unlinked; it stays in your store.`);
            },
            'danger',
          ),
        ),
      ),
    );
  });
  const pager = (label: string, c: string | null) =>
    h('button', { type: 'button', class: 'secondary', disabled: !c, onclick: () => ((cursor = c ?? undefined), void render()) }, label);
  const section = h('section', { class: 'card', id: 'links' });
  clear(
    section,
    h('h2', {}, `Product links (${links.pagination.totalCount})`),
    h('p', {}, 'Each linked product follows its supplier product: the hourly sync changes what its sync switches allow.'),
    rows.length
      ? h(
          'table',
          {},
          h('thead', {}, h('tr', {}, ...['Store product', 'Supplier product', 'Cost', 'Your price', 'Stock', 'Last sync', ''].map((t) => h('th', {}, t)))),
          h('tbody', {}, ...rows),
        )
      : h('p', {}, 'No product is linked to a supplier yet. Import one from Supplier products.'),
    links.pagination.previousCursor || links.pagination.hasMore
      ? h(
          'div',
          { class: 'actions' },
          pager('Newer', links.pagination.previousCursor),
          pager('Older', links.pagination.hasMore ? links.pagination.nextCursor : null),
        )
      : null,
  );
  return section;
}

function backupsNote(l: Link): HTMLElement | null {
  const n = l.variants.reduce((sum, v) => sum + (v.alternates?.length ?? 0), 0);
  return n ? h('div', { class: 'message', 'data-backups': n }, `${n} backup${n === 1 ? '' : 's'} at other suppliers`) : null;
}

async function editLink(l: Link, title: string, url: string, currency: string, render: () => Promise<void>): Promise<void> {
  const rule = priceRuleFields(l.priceRule, currency);
  const boxes = Object.entries(SWITCHES).map(([k, label]) => ({
    k,
    box: h('input', { type: 'checkbox', name: `sync-${k}`, checked: l.sync[k] === true }),
    label,
  }));
  const routing = linkRoutingFields(l.routing ?? null);
  const fields = h(
    'div',
    {},
    rule.element,
    h('fieldset', {}, h('legend', {}, 'The hourly sync may change'), ...boxes.map((x) => h('label', { class: 'check' }, x.box, x.label))),
    routing.element,
  );
  if (
    !(await confirmAction({
      title: `"${title}": price rule and sync`,
      body: ['Prices follow a new rule at the next sync with "Price" on; "Sync now" applies it at once.'],
      action: 'Save',
      input: fields,
    }))
  )
    return;
  await api('PUT', url, { priceRule: rule.read(), sync: Object.fromEntries(boxes.map((x) => [x.k, x.box.checked])), routing: routing.read() });
  await render();
  notice(`"${title}": price rule and sync switches saved.`);
}
