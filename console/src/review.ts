import { api, qs } from './api.js';
import { act, clear, confirmAction, h, money, notice, when } from './dom.js';
import type { Ctx, Page } from './types.js';
import { supplierNames } from './names.js';

interface SupplierOrder {
  _id: string;
  orderId: string;
  orderNumber: string;
  fulfilmentGroupKey: string;
  supplierKey: string;
  status: string;
  reviewReason: string | null;
  reviewMessage: string | null;
  retryable: boolean | null;
  supplierOrderNumber: string;
  supplierOrderId: string | null;
  costs: { itemsMinor: number; shippingMinor: number; totalMinor: number; currency: string } | null;
  payment: { status: string };
  attempt: number;
  events: Array<{ at: string; actor: { kind: string; id: string | null }; type: string; from: string | null; to: string | null; details: Record<string, unknown> }>;
  createdAt: string;
}

/** The spec's review reasons, said for a person. */
const REASONS: Record<string, string> = {
  insufficientBalance: 'Your balance at the supplier is too low to pay for it',
  variantUnavailable: 'The supplier no longer offers this item',
  destinationUnsupported: 'The supplier or your settings do not ship to this country',
  costAboveLimit: 'It costs more than the limit you set',
  costChanged: 'The supplier\'s price changed',
  customerPaymentPending: 'The shopper has not paid yet',
  customerPaymentNotSettled: 'The shopper\'s payment is not settled yet',
  connectionUnhealthy: 'The supplier could not be reached, even after automatic retries',
  supplierRefused: 'The supplier refused the order',
  connectionMissing: 'The supplier connection is off or gone',
  supplierAlreadyShipped: 'The supplier shipped it before it could be cancelled',
  testMode: 'The connection is in test mode and this supplier has no test environment',
  customerCaptureFailed: 'The supplier was paid but charging the shopper failed',
};
const STATUS: Record<string, string> = { needsReview: 'Needs review', failed: 'Failed', confirmed: 'Confirmed', submitted: 'Sent', queued: 'Queued', cancelled: 'Cancelled', shipped: 'Shipped', delivered: 'Delivered' };
const LISTS = { needsReview: { title: 'Waiting for you', query: { needsReview: true } }, failed: { title: 'Failed (automatic retries pending or stopped)', query: { status: 'failed' } } };
const EVENTS: Record<string, string> = {
  created: 'Created',
  paused: 'Stopped for review',
  retry: 'Retried',
  automaticRetry: 'Retried automatically',
  createdAtSupplier: 'Created at the supplier',
  foundAtSupplier: 'Found at the supplier',
  payRequested: 'Payment asked for',
  paid: 'Paid',
  alreadyPaidAtSupplier: 'Already paid at the supplier',
  failed: 'Failed',
  cancelRequested: 'Cancellation asked for',
  cancelled: 'Cancelled',
  readBack: 'Read back from the supplier',
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
        page.items.length ? ordersTable(page.items, base, render) : h('p', {}, id === 'needsReview' ? 'Nothing waits for review.' : 'No failed orders.'),
        page.pagination.previousCursor || page.pagination.hasMore ? h('div', { class: 'actions' }, pager('Newer', page.pagination.previousCursor), pager('Older', page.pagination.hasMore ? page.pagination.nextCursor : null)) : null,
      );
    }),
  );
  clear(root, h('h1', {}, 'Review queue'), h('p', {}, 'Supplier orders that stopped and need a decision, newest first. Each says why it stopped and what every action will do before you choose it.'), ...sections);
}

function ordersTable(items: SupplierOrder[], base: string, render: () => Promise<void>): HTMLElement {
  const rows: HTMLElement[] = [];
  for (const so of items) {
    const toggle = h('button', { type: 'button', class: 'link', 'aria-expanded': String(openId === so._id), onclick: () => ((openId = openId === so._id ? null : so._id), void render()) }, openId === so._id ? 'Hide' : 'Details');
    rows.push(
      h(
        'tr',
        { 'data-supplier-order': so._id, 'data-status': so.status },
        h('td', {}, h('strong', {}, so.orderNumber), h('br'), h('small', { class: 'mono' }, so.supplierOrderNumber)),
        h('td', {}, names.get(so.supplierKey) ?? so.supplierKey),
        h('td', {}, h('span', { class: `badge ${so.status === 'needsReview' || so.status === 'failed' ? 'bad' : 'ok'}` }, STATUS[so.status] ?? so.status)),
        h('td', {}, so.reviewReason ? h('strong', {}, REASONS[so.reviewReason] ?? so.reviewReason) : '', so.reviewMessage ? h('div', { class: 'message' }, so.reviewMessage) : null, so.reviewReason ? h('small', {}, `${so.reviewReason} · ${so.retryable ? 'may clear by itself on a retry' : 'retry only after the cause changed'}`) : null),
        h('td', {}, so.costs ? money(so.costs.totalMinor, so.costs.currency) : '—', h('br'), h('small', {}, `payment: ${so.payment.status}`)),
        h('td', {}, when(so.createdAt)),
        h('td', {}, toggle),
      ),
    );
    if (openId === so._id) rows.push(h('tr', { class: 'details' }, h('td', { colspan: 7 }, details(so, base, render))));
  }
  return h('table', {}, h('thead', {}, h('tr', {}, ...['Order', 'Supplier', 'Status', 'Why it stopped', 'Cost', 'Created', ''].map((t) => h('th', {}, t)))), h('tbody', {}, ...rows));
}

/** The actions the spec allows for this order, each with what it will do. */
function actionsFor(so: SupplierOrder): Array<{ label: string; does: string; path: string; body?: unknown; danger?: boolean }> {
  const id = so._id;
  const group = `orders/${so.orderId}/groups/${encodeURIComponent(so.fulfilmentGroupKey)}`;
  const supplier = names.get(so.supplierKey) ?? so.supplierKey;
  const cost = so.costs ? money(so.costs.totalMinor, so.costs.currency) : 'the supplier\'s current cost';
  const out: Array<{ label: string; does: string; path: string; body?: unknown; danger?: boolean }> = [];
  if (['needsReview', 'failed', 'queued'].includes(so.status)) {
    out.push({ label: 'Retry', does: so.supplierOrderId && so.payment.status === 'unpaid' ? `Asks ${supplier} again for the same order and pays it (${cost}) from your balance there. Do it once the cause is fixed, for example after a top-up.` : `Sends the order to ${supplier} again as it is. Do it once the cause is fixed.`, path: `orders/${id}/retry`, body: {} });
    if (so.reviewReason === 'costChanged' || so.reviewReason === 'costAboveLimit') out.push({ label: 'Retry accepting the new cost', does: `Sends the order at the supplier's current cost and records that you accepted it.`, path: `orders/${id}/retry`, body: { acceptCost: true } });
  }
  if (so.supplierOrderId && so.payment.status === 'unpaid' && so.status !== 'cancelled') out.push({ label: 'Pay', does: `Pays ${supplier} for this order (${cost}). An order already paid there is recorded, not paid twice.`, path: `orders/${id}/pay` });
  if (!['cancelled', 'delivered', 'shipped'].includes(so.status)) {
    out.push({ label: 'Cancel', does: `Withdraws the order at ${supplier} where it still allows it. If the supplier already shipped, it stops for review again.`, path: `orders/${id}/cancel`, danger: true });
    out.push({ label: 'Fulfil it yourself', does: 'You ship this part from your own stock; its supplier order is cancelled.', path: `${group}/fulfil-manually`, danger: true });
  }
  return out;
}

function details(so: SupplierOrder, base: string, render: () => Promise<void>): HTMLElement {
  const buttons = actionsFor(so).map((a) => {
    const b: HTMLButtonElement = h('button', { type: 'button', class: a.danger ? 'danger' : 'primary', onclick: () => void act(b, async () => {
      if (!(await confirmAction({ title: `${a.label}: order ${so.orderNumber}`, body: [a.does], action: a.label, danger: a.danger }))) return;
      const res = await api<{ status?: string; supplierOrder?: { status: string } }>('POST', `${base}/${a.path}`, a.body);
      await render();
      const status = res.result.status ?? res.result.supplierOrder?.status;
      notice(res.status === 202 ? 'The supplier is still working on it; look again in a moment.' : `Order ${so.orderNumber}: ${STATUS[status ?? ''] ?? status ?? 'done'}.`);
    }) }, a.label);
    return h('div', { class: 'action' }, b, h('span', {}, a.does));
  });
  const costs = so.costs ? `items ${money(so.costs.itemsMinor, so.costs.currency)} + shipping ${money(so.costs.shippingMinor, so.costs.currency)} = ${money(so.costs.totalMinor, so.costs.currency)}` : 'not known yet';
  return h(
    'div',
    { class: 'so-details' },
    h('p', {}, `Costs: ${costs}. Attempt ${so.attempt}. Supplier order ${so.supplierOrderId ?? 'not created yet'}.`),
    h('h4', {}, 'What you can do'),
    ...buttons,
    h('h4', {}, 'History'),
    h('ol', { class: 'history' }, ...so.events.map((e) => h('li', {}, h('time', {}, when(e.at)), ` ${EVENTS[e.type] ?? e.type}`, e.to ? ` → ${STATUS[e.to] ?? e.to}` : '', ` (by ${e.actor.kind === 'system' ? 'the service' : e.actor.kind === 'key' ? 'an API key' : 'a person'})`, Object.keys(e.details).length ? h('small', { class: 'mono' }, ` ${JSON.stringify(e.details)}`) : null))),
  );
}
