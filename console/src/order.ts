/** One store order: the shopper's payment, its parts, each part's supplier order (status, costs, payment), shipments and tracking, and history. */
import { api } from './api.js';
import { act, clear, confirmAction, h, notice } from './dom.js';
import { automationWords, paysByItself, type Automation } from './automation.js';
import type { Connection } from './supplier-connection.js';
import { money, when } from './format.js';
import { orderMargin, partMarginLine } from './margin.js';
import { supplierNames } from './names.js';
import { paymentCard } from './order-payment.js';
import { reportOutcome, statusBadge, supplierOrderDetails, whyStopped, type SupplierOrder } from './supplier-order.js';
import { claimsSection } from './after-shipping.js';
import { returnsSection } from './returns.js';
import type { Ctx, OrderPart, PaymentProviderView, StoreOrder } from './types.js';
import { ORDER_STATUS, PART_STATUS, wordFor } from './words.js';

type FullOrder = StoreOrder & { supplierOrders?: SupplierOrder[] };
/** A part's supplier and its connection's automation as it is set now (none for the store's own part or a removed connection). */
type PartOf = (part: OrderPart) => { supplier: string; automation?: Automation };

export async function orderPage(root: HTMLElement, ctx: Ctx, orderId: string): Promise<void> {
  const storeId = ctx.store!.id;
  const url = `/api/store-orders/${storeId}/${orderId}`;
  const render = () => orderPage(root, ctx, orderId);
  const [order, provider, connections, names] = await Promise.all([
    api<FullOrder>('GET', url).then((r) => r.result),
    // Needs payments.manage: without it the page says where payments come from, without the checkout.
    api<PaymentProviderView>('GET', `/api/stores/${storeId}/payment-provider`).then(
      (r) => r.result,
      () => null,
    ),
    api<Connection[]>('GET', `/api/store-suppliers/${storeId}`).then(
      (r) => r.result,
      () => [],
    ),
    supplierNames(storeId).catch(() => new Map<string, string>()),
  ]);
  const partOf: PartOf = (part) => {
    if (part.groupKey === 'store') return { supplier: 'Your own items' };
    const conn = connections.find((c) => c.id === part.connectionId);
    return conn
      ? { supplier: `${names.get(conn.supplierKey) ?? conn.supplierKey} · ${conn.accountLabel}`, automation: conn.automation }
      : { supplier: 'a supplier connection that was removed' };
  };
  const supplierParts = order.fulfilmentGroups.filter((p) => p.groupKey !== 'store').map(partOf);
  const btn = (label: string, run: () => Promise<unknown>, cls = 'primary') => {
    const b: HTMLButtonElement = h('button', { type: 'button', class: cls, onclick: () => void act(b, run) }, label);
    return b;
  };
  const confirm =
    order.status === 'pending'
      ? btn('Confirm the order', async () => {
          if (
            !(await confirmAction({
              title: `Confirm order ${order.number}?`,
              body: ['The order is accepted.', ...supplierParts.map(onConfirm)],
              action: 'Confirm',
            }))
          )
            return;
          await api('POST', `${url}/confirm`);
          await render();
          notice(`Order ${order.number} is confirmed.`);
        })
      : null;
  const d = order.destination;
  clear(
    root,
    h('p', {}, h('a', { href: '#orders' }, '← All orders')),
    h(
      'h1',
      {},
      `Order ${order.number} `,
      h('span', { class: 'badge ok' }, wordFor(ORDER_STATUS, order.status)),
      order.needsAttention ? h('span', { class: 'badge bad' }, 'needs attention') : null,
    ),
    h(
      'section',
      { class: 'card' },
      h(
        'dl',
        {},
        h('dt', {}, 'Total'),
        h('dd', {}, money(order.totalMinor, order.currency)),
        h('dt', {}, 'Cost and margin'),
        h('dd', {}, orderMargin(order)),
        h('dt', {}, 'Created'),
        h('dd', {}, when(order.createdAt), order.confirmedAt ? ` · confirmed ${when(order.confirmedAt)}` : ' · not confirmed yet'),
        h('dt', {}, 'Deliver to'),
        h(
          'dd',
          {},
          d
            ? `${d.name}${d.email ? ` <${d.email}>` : ''}, ${d.line1}, ${d.postalCode} ${d.city}, ${d.country}`
            : 'hidden (your access does not include customer data)',
        ),
      ),
      h('div', { class: 'actions' }, confirm, btn('Read again', render, 'secondary')),
    ),
    paymentCard(order, provider, ctx, { url, render, supplierParts }),
    ...order.fulfilmentGroups.map((part) => partCard(order, part, partOf(part), { storeId, render })),
  );
}

/** What confirming does to a supplier part, as its connection is set. */
function onConfirm(p: { supplier: string; automation?: Automation }): string {
  if (!p.automation || p.automation.level === 'off') return `${p.supplier}: not sent (its connection sends no orders).`;
  return p.automation.level === 'automatic' ? `${p.supplier}: sent to the supplier now.` : `${p.supplier}: waits for you to send it.`;
}

function partCard(
  order: FullOrder,
  part: OrderPart,
  of: { supplier: string; automation?: Automation },
  opts: { storeId: string; render: () => Promise<void> },
): HTMLElement {
  const title = of.supplier;
  const items = (order.items ?? []).filter((i) => i.groupKey === part.groupKey);
  const so = order.supplierOrders?.find((s) => s.fulfilmentGroupKey === part.groupKey);
  const base = `/api/store-suppliers/${opts.storeId}`;
  const s = part.shipment;
  return h(
    'section',
    { class: 'card part', 'data-part': part.groupKey },
    h(
      'h2',
      {},
      `${title} `,
      h('span', { class: `badge ${part.status === 'cancelled' ? '' : 'ok'}` }, wordFor(PART_STATUS, part.status)),
      part.fulfilledByStore && part.groupKey !== 'store' ? h('span', { class: 'badge' }, 'you ship it yourself') : null,
    ),
    h(
      'ul',
      { class: 'items' },
      ...items.map((i) =>
        h(
          'li',
          {},
          `${i.quantity} × `,
          h('strong', {}, i.productTitle ?? 'a product deleted since'),
          ` — ${i.title} (${i.sku}) at ${money(i.unitPriceMinor, order.currency)}`,
        ),
      ),
    ),
    partMarginLine(order, part),
    // How its connection sends and pays, while that is still to come: before the part is sent, or while it is unpaid.
    of.automation && !part.fulfilledByStore && (!so || so.payment.status === 'unpaid')
      ? h('p', { class: 'message automation' }, automationWords(of.automation))
      : null,
    h(
      'p',
      { class: 'tracking' },
      s
        ? `Shipped with ${s.carrier}, tracking number ${s.trackingNumber}${s.shippedAt ? ` (${when(s.shippedAt)})` : ''}${s.deliveredAt ? `; delivered ${when(s.deliveredAt)}` : ''}.`
        : 'No shipment yet.',
    ),
    part.groupKey === 'store' ? null : so ? supplierOrderCard(so, { base, supplier: title, render: opts.render }) : notSent(order, part, of, base, opts.render),
  );
}

function supplierOrderCard(so: SupplierOrder, opts: { base: string; supplier: string; render: () => Promise<void> }): HTMLElement {
  // Its claims are read on their own, after the page shows (./after-shipping.ts).
  const claims = h('div', { class: 'claims-slot' });
  void claimsSection(so, opts).then(
    (el) => el && claims.append(el),
    () => undefined,
  );
  // Its returns too, after the claims (./returns.ts).
  const returns = h('div', { class: 'returns-slot' });
  void returnsSection(so, opts).then(
    (el) => el && returns.append(el),
    () => undefined,
  );
  return h(
    'div',
    { class: 'supplier-order', 'data-supplier-order': so._id },
    h('h3', {}, 'Supplier order ', statusBadge(so.status), so.reshipOf ? h('span', { class: 'badge' }, 'a reship') : null),
    whyStopped(so),
    supplierOrderDetails(so, opts),
    claims,
    returns,
  );
}

/** A supplier part with no supplier order yet: sending it creates the one supplier order of the part. */
function notSent(order: FullOrder, part: OrderPart, of: { supplier: string; automation?: Automation }, base: string, render: () => Promise<void>): HTMLElement {
  const supplier = of.supplier;
  if (part.status === 'cancelled' || part.fulfilledByStore) return h('p', {}, 'Nothing is sent to the supplier for this part.');
  const payNow = h('input', { type: 'checkbox', name: 'payNow' });
  const send: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'primary',
      onclick: () =>
        void act(send, async () => {
          const choice = h(
            'label',
            { class: 'check' },
            payNow,
            "Pay the supplier at once from your balance there (pay now), without waiting for the shopper's payment",
          );
          if (
            !(await confirmAction({
              title: `Send order ${order.number} to ${supplier}?`,
              body: ['Creates the supplier order for this part. Calling it twice still makes one supplier order.', withoutPayNow(order, of.automation)],
              action: 'Send',
              input: choice,
            }))
          )
            return;
          const res = await api<SupplierOrder>('POST', `${base}/orders/${order.id}/groups/${encodeURIComponent(part.groupKey)}/submit`, {
            payNow: payNow.checked,
          });
          await render();
          reportOutcome(order.number, res);
        }),
    },
    'Send to the supplier…',
  );
  return h('div', { class: 'supplier-order' }, h('p', {}, 'Not sent to the supplier yet.'), h('div', { class: 'actions' }, send));
}

/** What happens to the supplier's payment without "pay now", as the part's connection is set. */
function withoutPayNow(order: FullOrder, a: Automation | undefined): string {
  const paid = order.paymentStatus === 'paid';
  const shopper = paid
    ? "The payment provider confirmed the shopper's payment"
    : "The payment provider has not confirmed the shopper's payment (a mark by hand does not count)";
  if (!paysByItself(a))
    return `${shopper}. This connection does not pay the supplier by itself: without pay now, the supplier order waits unpaid until you pay it.`;
  if (paid) return `${shopper}: without pay now, the service pays the supplier automatically once the order is created.`;
  if (a!.allowUnpaidOrders && order.paymentMethod !== 'online')
    return `${shopper}. This connection allows unpaid orders: without pay now, the service still pays the supplier automatically.`;
  return `${shopper}: without pay now, this connection stops it for review until the provider confirms it.`;
}
