import { api, qs } from './api.js';
import { clear, h } from './dom.js';
import { money, when } from './format.js';
import type { Ctx, Page } from './types.js';
import { supplierNames } from './names.js';
import { statusBadge, supplierOrderDetails, whyStopped, type SupplierOrder } from './supplier-order.js';
import { attentionBrief } from './after-shipping.js';
import { SUPPLIER_PAYMENT } from './words.js';

const LISTS = {
  needsReview: { title: 'Waiting for you', query: { needsReview: true } },
  needsAttention: { title: 'Deliveries needing a look (sent, no tracking, stalled, late or held)', query: { needsAttention: true } },
  failed: { title: 'Failed (automatic retries pending or stopped)', query: { status: 'failed' } },
};
let names = new Map<string, string>();

/** Cursor per list while the page is open. */
const cursors: Record<string, string | undefined> = {};
let openId: string | null = null;

export async function reviewPage(root: HTMLElement, ctx: Ctx): Promise<void> {
  const base = `/api/store-suppliers/${ctx.store!.id}`;
  const render = () => reviewPage(root, ctx);
  names = await supplierNames(ctx.store!.id).catch(() => names);
  const sections = await Promise.all(
    Object.entries(LISTS).map(async ([id, list]) => {
      const page = (await api<Page<SupplierOrder>>('GET', `${base}/orders${qs({ ...list.query, pageSize: 10, cursor: cursors[id] })}`)).result;
      const pager = (label: string, cursor: string | null) =>
        h('button', { type: 'button', class: 'secondary', disabled: !cursor, onclick: () => ((cursors[id] = cursor ?? undefined), void render()) }, label);
      return h(
        'section',
        { class: 'card', id: `list-${id}` },
        h('h2', {}, `${list.title} (${page.pagination.totalCount})`),
        page.items.length
          ? ordersTable(page.items, base, render)
          : h('p', {}, id === 'needsReview' ? 'Nothing waits for review.' : id === 'needsAttention' ? 'Every sent parcel is on its way.' : 'No failed orders.'),
        page.pagination.previousCursor || page.pagination.hasMore
          ? h(
              'div',
              { class: 'actions' },
              pager('Newer', page.pagination.previousCursor),
              pager('Older', page.pagination.hasMore ? page.pagination.nextCursor : null),
            )
          : null,
      );
    }),
  );
  clear(
    root,
    h('h1', {}, 'Review queue'),
    h(
      'p',
      {},
      'Supplier orders that stopped and need a decision, and sent ones whose delivery needs a look, newest first. Each says why, what to do next, and what every action will do before you choose it.',
    ),
    ...sections,
  );
}

function ordersTable(items: SupplierOrder[], base: string, render: () => Promise<void>): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const so of items) {
    const supplier = names.get(so.supplierKey) ?? so.supplierKey;
    const toggle = h(
      'button',
      {
        type: 'button',
        class: 'link',
        'aria-expanded': String(openId === so._id),
        onclick: () => ((openId = openId === so._id ? null : so._id), void render()),
      },
      openId === so._id ? 'Hide' : 'Details',
    );
    rows.push(
      h(
        'tr',
        { 'data-supplier-order': so._id, 'data-status': so.status },
        h('td', {}, h('a', { href: `#orders/${so.orderId}` }, h('strong', {}, so.orderNumber)), h('br'), h('small', { class: 'mono' }, so.supplierOrderNumber)),
        h('td', {}, supplier),
        h('td', {}, statusBadge(so.status)),
        h('td', {}, whyStopped(so) ?? attentionBrief(so)),
        h(
          'td',
          {},
          so.costs ? money(so.costs.totalMinor, so.costs.currency) : '—',
          h('br'),
          h('small', {}, `payment: ${SUPPLIER_PAYMENT[so.payment.status] ?? so.payment.status}`),
        ),
        h('td', {}, when(so.createdAt)),
        h('td', {}, toggle),
      ),
    );
    if (openId === so._id) rows.push(h('tr', { class: 'details' }, h('td', { colspan: 7 }, supplierOrderDetails(so, { base, supplier, render }))));
  }
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...['Order', 'Supplier', 'Status', 'Why it stopped', 'Cost', 'Created', ''].map((t) => h('th', {}, t)))),
    h('tbody', {}, ...rows),
  );
}
