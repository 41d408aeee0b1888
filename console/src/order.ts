/** One store order: the shopper's payment, its parts, each part's supplier order (status, costs, payment), shipments and tracking, and history. */
import { api } from './api.js';
import { act, clear, confirmAction, h, notice } from './dom.js';
import { money, when } from './format.js';
import { supplierNames } from './names.js';
import { paymentCard } from './order-payment.js';
import { reportOutcome, statusBadge, supplierOrderDetails, whyStopped, type SupplierOrder } from './supplier-order.js';
import type { Ctx, OrderPart, PaymentProviderView, StoreOrder } from './types.js';
import { ORDER_STATUS, PART_STATUS } from './words.js';

type FullOrder = StoreOrder & { supplierOrders?: SupplierOrder[] };

export async function orderPage(root: HTMLElement, ctx: Ctx, orderId: string): Promise<void> {
  const storeId = ctx.store!.id;
  const url = `/api/store-orders/${storeId}/${orderId}`;
  const render = () => orderPage(root, ctx, orderId);
  const [order, provider, connections, names] = await Promise.all([
    api<FullOrder>('GET', url).then((r) => r.result),
    // Needs payments.manage: without it the page says where payments come from, without the checkout.
    api<PaymentProviderView>('GET', `/api/stores/${storeId}/payment-provider`).then((r) => r.result, () => null),
    api<Array<{ id: string; supplierKey: string; accountLabel: string }>>('GET', `/api/store-suppliers/${storeId}`).then((r) => r.result, () => []),
    supplierNames(storeId).catch(() => new Map<string, string>()),
  ]);
  const supplierOf = (part: OrderPart) => {
    const conn = connections.find((c) => c.id === part.connectionId);
    return conn ? `${names.get(conn.supplierKey) ?? conn.supplierKey} · ${conn.accountLabel}` : 'a supplier connection that was removed';
  };
  const btn = (label: string, run: () => Promise<unknown>, cls = 'primary') => {
    const b: HTMLButtonElement = h('button', { type: 'button', class: cls, onclick: () => void act(b, run) }, label);
    return b;
  };
  const confirm = order.status === 'pending'
    ? btn('Confirm the order', async () => {
        if (!(await confirmAction({ title: `Confirm order ${order.number}?`, body: ['The order is accepted. Supplier parts whose connection sends orders automatically go to their supplier now; the others wait for you to send them.'], action: 'Confirm' }))) return;
        await api('POST', `${url}/confirm`);
        await render();
        notice(`Order ${order.number} is confirmed.`);
      })
    : null;
  const d = order.destination;
  clear(
    root,
    h('p', {}, h('a', { href: '#orders' }, '← All orders')),
    h('h1', {}, `Order ${order.number} `, h('span', { class: 'badge ok' }, ORDER_STATUS[order.status] ?? order.status), order.needsAttention ? h('span', { class: 'badge bad' }, 'needs attention') : null),
    h(
      'section',
      { class: 'card' },
      h(
        'dl',
        {},
        h('dt', {}, 'Total'), h('dd', {}, money(order.totalMinor, order.currency)),
        h('dt', {}, 'Created'), h('dd', {}, when(order.createdAt), order.confirmedAt ? ` · confirmed ${when(order.confirmedAt)}` : ' · not confirmed yet'),
        h('dt', {}, 'Deliver to'), h('dd', {}, d ? `${d.name}, ${d.line1}, ${d.postalCode} ${d.city}, ${d.country}` : 'hidden (your access does not include customer data)'),
      ),
      h('div', { class: 'actions' }, confirm, btn('Read again', render, 'secondary')),
    ),
    paymentCard(order, provider, ctx, { url, render }),
    ...order.fulfilmentGroups.map((part) => partCard(order, part, part.groupKey === 'store' ? 'Your own items' : supplierOf(part), { storeId, render })),
  );
}

function partCard(order: FullOrder, part: OrderPart, title: string, opts: { storeId: string; render: () => Promise<void> }): HTMLElement {
  const items = (order.items ?? []).filter((i) => i.groupKey === part.groupKey);
  const so = order.supplierOrders?.find((s) => s.fulfilmentGroupKey === part.groupKey);
  const base = `/api/store-suppliers/${opts.storeId}`;
  const s = part.shipment;
  return h(
    'section',
    { class: 'card part', 'data-part': part.groupKey },
    h('h2', {}, `${title} `, h('span', { class: `badge ${part.status === 'cancelled' ? '' : 'ok'}` }, PART_STATUS[part.status] ?? part.status), part.fulfilledByStore && part.groupKey !== 'store' ? h('span', { class: 'badge' }, 'you ship it yourself') : null),
    h('ul', { class: 'items' }, ...items.map((i) => h('li', {}, `${i.quantity} × ${i.title} (${i.sku}) at ${money(i.unitPriceMinor, order.currency)}`))),
    h('p', { class: 'tracking' }, s ? `Shipped with ${s.carrier}, tracking number ${s.trackingNumber}${s.shippedAt ? ` (${when(s.shippedAt)})` : ''}${s.deliveredAt ? `; delivered ${when(s.deliveredAt)}` : ''}.` : 'No shipment yet.'),
    part.groupKey === 'store' ? null : so ? supplierOrderCard(so, { base, supplier: title, render: opts.render }) : notSent(order, part, title, base, opts.render),
  );
}

function supplierOrderCard(so: SupplierOrder, opts: { base: string; supplier: string; render: () => Promise<void> }): HTMLElement {
  return h('div', { class: 'supplier-order', 'data-supplier-order': so._id }, h('h3', {}, 'Supplier order ', statusBadge(so.status)), whyStopped(so), supplierOrderDetails(so, opts));
}

/** A supplier part with no supplier order yet: sending it creates the one supplier order of the part. */
function notSent(order: FullOrder, part: OrderPart, supplier: string, base: string, render: () => Promise<void>): HTMLElement {
  if (part.status === 'cancelled' || part.fulfilledByStore) return h('p', {}, 'Nothing is sent to the supplier for this part.');
  const payNow = h('input', { type: 'checkbox', name: 'payNow' });
  const send: HTMLButtonElement = h('button', { type: 'button', class: 'primary', onclick: () => void act(send, async () => {
    const choice = h('label', { class: 'check' }, payNow, 'Pay the supplier at once from your balance there (pay now), without waiting for the shopper\'s payment');
    if (!(await confirmAction({ title: `Send order ${order.number} to ${supplier}?`, body: ['Creates the supplier order for this part. Calling it twice still makes one supplier order.', order.paymentStatus === 'paid' ? 'The payment provider confirmed the shopper\'s payment.' : 'The payment provider has not confirmed the shopper\'s payment (a mark by hand does not count): without pay now, a connection that pays the supplier automatically stops it for review.'], action: 'Send', input: choice }))) return;
    const res = await api<SupplierOrder>('POST', `${base}/orders/${order.id}/groups/${encodeURIComponent(part.groupKey)}/submit`, { payNow: payNow.checked });
    await render();
    reportOutcome(order.number, res);
  }) }, 'Send to the supplier…');
  return h('div', { class: 'supplier-order' }, h('p', {}, 'Not sent to the supplier yet.'), h('div', { class: 'actions' }, send));
}
