/**
 * A link's backup suppliers: per store variant, an ordered list of variants at the store's other connected suppliers,
 * tried in that order when the order part stops. Found by searching that supplier's catalogue or by pasting a product
 * link; moved up or down, removed; saved as the link's `alternates`.
 */
import { api, ApiFailure, qs } from './api.js';
import { act, clear, confirmAction, field, h, notice } from './dom.js';
import { money } from './format.js';
import { supplierNames } from './names.js';
import type { Page, StoreProduct } from './types.js';

export interface Alternate {
  connectionId: string;
  supplierProductId: string;
  supplierVariantId: string;
  costMinor?: number;
  currency?: string;
  stock?: number;
  available?: boolean;
  /** What the merchant picked it as (title and variant), when picked here. */
  label?: string;
}

export interface LinkWithBackups {
  id: string;
  connectionId: string;
  variants: Array<{ storeVariantId: string; supplierVariantId: string; alternates?: Alternate[] }>;
}

interface Connection {
  id: string;
  supplierKey: string;
  accountLabel: string;
  enabled: boolean;
}

interface SupplierProduct {
  id: string;
  title: string;
  variants: Array<{ id: string; sku: string; title: string; cost: { amountMinor: number; currency: string }; stock: number; available: boolean }>;
}

/** Opens the backups dialog of one link; saving replaces the link's alternates. */
export async function editBackups(
  storeId: string,
  link: LinkWithBackups,
  title: string,
  product: StoreProduct | undefined,
  render: () => Promise<void>,
): Promise<void> {
  const base = `/api/store-suppliers/${storeId}`;
  const [connections, names] = await Promise.all([
    api<Connection[]>('GET', base).then((r) => r.result.filter((c) => c.enabled && c.id !== link.connectionId)),
    supplierNames(storeId),
  ]);
  if (!connections.length) return notice(`"${title}" can have backups at another supplier: connect one in Connections first.`, 'error');
  const connName = (id: string) => {
    const c = connections.find((x) => x.id === id);
    return c ? `${names.get(c.supplierKey) ?? c.supplierKey} · ${c.accountLabel}` : 'a connection no longer on';
  };
  const variantName = (id: string) => {
    const v = product?.variants.find((x) => x.id === id);
    return v ? `${v.title} (${v.sku})` : id;
  };
  const lists = new Map(link.variants.map((v) => [v.storeVariantId, [...(v.alternates ?? [])]]));

  const listsBox = h('div', { class: 'backups' });
  const draw = (): void =>
    clear(
      listsBox,
      ...link.variants.map((v) => {
        const list = lists.get(v.storeVariantId)!;
        const move = (i: number, by: number) => {
          const [a] = list.splice(i, 1);
          list.splice(i + by, 0, a);
          draw();
        };
        const btn = (label: string, aria: string, run: () => void, disabled = false) =>
          h('button', { type: 'button', class: 'secondary small', 'aria-label': aria, disabled, onclick: run }, label);
        const rows = list.map((a, i) => {
          const what = a.label ?? `${a.supplierProductId} / ${a.supplierVariantId}`;
          const facts =
            typeof a.costMinor === 'number'
              ? ` — ${money(a.costMinor, a.currency ?? 'USD')}, ${a.available === false ? 'not offered' : `${a.stock ?? 0} in stock`}`
              : '';
          return h(
            'li',
            { 'data-backup': `${a.connectionId}:${a.supplierVariantId}` },
            h('span', {}, `${connName(a.connectionId)}: ${what}${facts}`),
            btn('↑', `Move ${what} up`, () => move(i, -1), i === 0),
            btn('↓', `Move ${what} down`, () => move(i, 1), i === list.length - 1),
            btn('Remove', `Remove ${what}`, () => (list.splice(i, 1), draw())),
          );
        });
        return h(
          'fieldset',
          { 'data-store-variant': v.storeVariantId },
          h('legend', {}, `Backups of ${variantName(v.storeVariantId)}`),
          rows.length ? h('ol', {}, ...rows) : h('p', {}, "None: when this variant's order stops, it waits for you."),
        );
      }),
    );
  draw();

  // Adding one: which store variant, which supplier, then a product found by search or by its link, then its variant.
  const forVariant = h(
    'select',
    { name: 'storeVariant', 'aria-label': 'For the store variant' },
    ...link.variants.map((v) => h('option', { value: v.storeVariantId }, variantName(v.storeVariantId))),
  );
  const conn = h(
    'select',
    { name: 'backupConnection', 'aria-label': 'Backup supplier' },
    ...connections.map((c) => h('option', { value: c.id }, connName(c.id))),
  );
  const query = h('input', { type: 'search', name: 'backupQuery', placeholder: 'for example: lamp', maxlength: 200 });
  const pasted = h('input', { type: 'url', name: 'backupUrl', placeholder: 'https://…', maxlength: 2000 });
  const found = h('div', { class: 'found' });
  const choose = (p: SupplierProduct) => {
    const pick = h(
      'select',
      { name: 'backupVariant', 'aria-label': `Variant of ${p.title}` },
      ...p.variants.map((v) =>
        h(
          'option',
          { value: v.id, disabled: !v.available },
          `${v.title} (${v.sku}) — ${money(v.cost.amountMinor, v.cost.currency)}, ${v.available ? `${v.stock} in stock` : 'not offered'}`,
        ),
      ),
    );
    const add = h(
      'button',
      {
        type: 'button',
        class: 'primary small',
        onclick: () => {
          const v = p.variants.find((x) => x.id === pick.value)!;
          const list = lists.get(forVariant.value)!;
          if (list.some((a) => a.connectionId === conn.value && a.supplierVariantId === v.id))
            return notice('That variant is already a backup of this store variant.', 'error');
          list.push({
            connectionId: conn.value,
            supplierProductId: p.id,
            supplierVariantId: v.id,
            costMinor: v.cost.amountMinor,
            currency: v.cost.currency,
            stock: v.stock,
            available: v.available,
            label: `${p.title}, ${v.title}`,
          });
          draw();
          notice(`${p.title}, ${v.title} added as a backup; save to keep it.`);
        },
      },
      'Add as backup',
    );
    clear(
      found,
      h('p', {}, h('strong', {}, p.title), ' ', h('small', { class: 'mono' }, p.id)),
      h('div', { class: 'row' }, field('Supplier variant', pick), h('div', { class: 'actions' }, add)),
    );
  };
  // A new lookup clears the last one first, so a picker from the old result cannot be used while it runs.
  const lookup = (btn: () => HTMLButtonElement, run: () => Promise<void>) => () =>
    void act(btn(), async () => {
      clear(found, h('p', { 'aria-busy': 'true' }, 'Looking…'));
      await run().catch((err) => {
        clear(found);
        throw err;
      });
    });
  const searchBtn: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: lookup(
        () => searchBtn,
        async () => {
          const page = (await api<Page<SupplierProduct>>('GET', `${base}/${conn.value}/products${qs({ query: query.value.trim(), pageSize: 5 })}`)).result;
          if (!page.items.length) return void clear(found, h('p', {}, 'No product matches.'));
          clear(
            found,
            h(
              'ul',
              { class: 'results' },
              ...page.items.map((p) =>
                h('li', {}, h('button', { type: 'button', class: 'link', onclick: () => choose(p) }, p.title), ' ', h('small', { class: 'mono' }, p.id)),
              ),
            ),
          );
        },
      ),
    },
    'Search',
  );
  const findBtn: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: lookup(
        () => findBtn,
        async () => {
          choose((await api<{ product: SupplierProduct }>('POST', `${base}/${conn.value}/products/resolve-url`, { url: pasted.value.trim() })).result.product);
        },
      ),
    },
    'Find',
  );
  // Enter in a search field searches; it must not submit (and close) the dialog.
  const enter = (btn: HTMLButtonElement) => (ev: Event) => ((ev as KeyboardEvent).key === 'Enter' ? (ev.preventDefault(), btn.click()) : undefined);
  query.addEventListener('keydown', enter(searchBtn));
  pasted.addEventListener('keydown', enter(findBtn));

  const adder = h(
    'fieldset',
    { class: 'add-backup' },
    h('legend', {}, 'Add a backup'),
    h('div', { class: 'row' }, link.variants.length > 1 ? field('For', forVariant) : null, field('At the supplier', conn)),
    h('div', { class: 'row' }, field('Search its catalogue', query), h('div', { class: 'actions' }, searchBtn)),
    h('div', { class: 'row' }, field('Or paste its product link', pasted), h('div', { class: 'actions' }, findBtn)),
    found,
  );
  const body = [
    "When an order of this product stops (for the reasons each connection's automation names), its items go to the first backup that can take them, once the first supplier provably holds no order for them.",
  ];
  if (!(await confirmAction({ title: `"${title}": backup suppliers`, body, action: 'Save backups', input: h('div', {}, listsBox, adder) }))) return;
  const alternates = link.variants.flatMap((v) =>
    lists.get(v.storeVariantId)!.map((a) => ({
      storeVariantId: v.storeVariantId,
      connectionId: a.connectionId,
      supplierProductId: a.supplierProductId,
      supplierVariantId: a.supplierVariantId,
    })),
  );
  try {
    await api('PUT', `${base}/links/${link.id}`, { alternates });
  } catch (err) {
    // Each backup is checked at its supplier: say which failed and why, not only that one did.
    const details =
      err instanceof ApiFailure && Array.isArray(err.details) ? (err.details as Array<{ message?: string }>).map((d) => d.message).filter(Boolean) : [];
    if (!details.length) throw err;
    return notice(`"${title}": backups not saved. ${details.join('; ')}.`, 'error');
  }
  await render();
  notice(`"${title}": ${alternates.length ? `${alternates.length} backup${alternates.length === 1 ? '' : 's'} saved` : 'no backups now'}.`);
}
