/** A supplier order as the review queue and the order page show it: costs, payment, shipping, what to do, history. */
import { api, type Answer } from './api.js';
import { act, confirmAction, h, notice } from './dom.js';
import { money, when } from './format.js';
import { eventSentence, reasonOf, reasonWords, reroutedSentence, SUPPLIER_ORDER_STATUS, SUPPLIER_PAYMENT, wordFor } from './words.js';

import type { SupplierOrder } from './types.js';
import { deliveryAttention, trackingList } from './after-shipping.js';

export type { SupplierOrder };

interface Action {
  label: string;
  does: string;
  path: string;
  body?: unknown;
  danger?: boolean;
}

const STOPPED = new Set(['needsReview', 'failed']);

export function statusBadge(status: string): HTMLElement {
  const tone = STOPPED.has(status) ? 'bad' : status === 'cancelled' ? '' : 'ok';
  return h('span', { class: `badge ${tone}` }, wordFor(SUPPLIER_ORDER_STATUS, status));
}

/** Why it stopped, the supplier's words, and what to do next; nothing when it did not stop. */
export function whyStopped(so: SupplierOrder): HTMLElement | null {
  // A rerouted order is done with: its items went to a backup supplier (its history says so).
  if ((!so.reviewReason && so.status !== 'failed') || so.events.some((e) => e.type === 'rerouted')) return null;
  return h(
    'div',
    { class: 'stopped' },
    h('strong', {}, so.reviewReason ? reasonWords(so.reviewReason) : 'The supplier could not be reached; the service tries again by itself'),
    so.reviewMessage ? h('div', { class: 'message' }, `The supplier or the service said: ${so.reviewMessage}`) : null,
    so.reviewReason ? h('div', { class: 'next' }, `What to do: ${reasonOf(so.reviewReason)?.next ?? 'Read the message, then decide.'}`) : null,
    so.reviewReason ? h('small', {}, `${so.reviewReason} · ${so.retryable ? 'a retry may clear it by itself' : 'retry only after the cause changed'}`) : null,
  );
}

export function costsText(so: SupplierOrder): string {
  const c = so.costs;
  return c
    ? `${money(c.itemsMinor, c.currency)} for the items + ${money(c.shippingMinor, c.currency)} shipping = ${money(c.totalMinor, c.currency)}`
    : 'not known yet';
}

/** The actions the spec allows for this order, each with what it will do. */
function actionsFor(so: SupplierOrder, supplier: string): Action[] {
  const partPath = `orders/${so.orderId}/groups/${encodeURIComponent(so.fulfilmentGroupKey)}`;
  const cost = so.costs ? money(so.costs.totalMinor, so.costs.currency) : "the supplier's current cost";
  const out: Action[] = [];
  // Shipped before a cancel reached the supplier: nothing to retry, reroute, cancel or fulfil; a return is what is left.
  if (so.nextAction?.action === 'return') return out;
  if (['needsReview', 'failed', 'queued'].includes(so.status)) {
    const pays = so.supplierOrderId && so.payment.status === 'unpaid';
    out.push({
      label: 'Retry',
      does: pays
        ? `Asks ${supplier} again for the same order and pays it (${cost}) from your balance there. Do it once the cause is fixed, for example after a top-up.`
        : `Sends the order to ${supplier} again as it is. Do it once the cause is fixed.`,
      path: `orders/${so._id}/retry`,
      body: {},
    });
    if (so.reviewReason === 'costChanged' || so.reviewReason === 'costAboveLimit')
      out.push({
        label: 'Retry accepting the new cost',
        does: "Sends the order at the supplier's current cost and records that you accepted it.",
        path: `orders/${so._id}/retry`,
        body: { acceptCost: true },
      });
  }
  if (so.status === 'needsReview')
    out.push({
      label: 'Reroute to a backup supplier',
      does: `Sends the items to the product's backup suppliers, in their order, once ${supplier} provably holds no order for them; this order is then cancelled. If none can take them, it stays stopped and says why.`,
      path: `orders/${so._id}/reroute`,
      body: {},
    });
  if (so.supplierOrderId && so.payment.status === 'unpaid' && so.status !== 'cancelled')
    out.push({
      label: 'Pay',
      does: `Pays ${supplier} for this order (${cost}). An order already paid there is recorded, not paid twice.`,
      path: `orders/${so._id}/pay`,
    });
  if (!['cancelled', 'delivered', 'shipped'].includes(so.status)) {
    out.push({
      label: 'Cancel',
      does: `Withdraws the order at ${supplier} where it still allows it. If the supplier already shipped, it stops for review again.`,
      path: `orders/${so._id}/cancel`,
      danger: true,
    });
    out.push({
      label: 'Fulfil it yourself',
      does: 'You ship this part from your own stock; its supplier order is cancelled.',
      path: `${partPath}/fulfil-manually`,
      danger: true,
    });
  }
  return out;
}

/** What came of an action, said honestly: a pause or a failure is an error, with what to do next. */
export function reportOutcome(orderNumber: string, answer: Answer<Partial<SupplierOrder> & { supplierOrder?: SupplierOrder | null }>): void {
  const so = answer.result.supplierOrder ?? (answer.result as SupplierOrder);
  if (answer.status === 202) return notice(`Order ${orderNumber}: the supplier is still working on it. Look again in a moment.`, 'waiting');
  const rerouted = so?.events?.find((e) => e.type === 'rerouted');
  if (so?.status === 'cancelled' && rerouted) return notice(`Order ${orderNumber}: ${reroutedSentence(rerouted.details, so.costs?.currency ?? 'USD')}`);
  if (so?.status === 'needsReview') {
    const reason = reasonOf(so.reviewReason);
    return notice(
      `Order ${orderNumber} stopped: ${reason?.why ?? 'see the message'}.${so.reviewMessage ? ` ${so.reviewMessage}.` : ''} ${reason?.next ?? ''}`
        .replace(/\.\./g, '.')
        .trim(),
      'error',
    );
  }
  if (so?.status === 'failed')
    return notice(
      `Order ${orderNumber}: the supplier could not be reached${so.reviewMessage ? ` (${so.reviewMessage})` : ''}. The service tries again by itself; look again later.`,
      'error',
    );
  notice(`Order ${orderNumber}: ${(so?.status ? wordFor(SUPPLIER_ORDER_STATUS, so.status) : 'done').toLowerCase()}.`);
}

/** Costs, payment, shipping, the actions and the history of one supplier order. */
export function supplierOrderDetails(so: SupplierOrder, opts: { base: string; supplier: string; render: () => Promise<void> }): HTMLElement {
  const buttons = actionsFor(so, opts.supplier).map((a) => {
    const b: HTMLButtonElement = h(
      'button',
      {
        type: 'button',
        class: a.danger ? 'danger' : 'primary',
        onclick: () =>
          void act(b, async () => {
            if (!(await confirmAction({ title: `${a.label}: order ${so.orderNumber}`, body: [a.does], action: a.label, danger: a.danger }))) return;
            const res = await api<Partial<SupplierOrder> & { supplierOrder?: SupplierOrder | null }>('POST', `${opts.base}/${a.path}`, a.body);
            await opts.render();
            reportOutcome(so.orderNumber, res);
          }),
      },
      a.label,
    );
    return h('div', { class: 'action' }, b, h('span', {}, a.does));
  });
  const currency = so.costs?.currency ?? 'USD';
  return h(
    'div',
    { class: 'so-details' },
    deliveryAttention(so, opts),
    h(
      'dl',
      {},
      h('dt', {}, 'Costs'),
      h('dd', {}, costsText(so)),
      h('dt', {}, 'Payment to the supplier'),
      h('dd', {}, SUPPLIER_PAYMENT[so.payment.status] ?? so.payment.status),
      h('dt', {}, 'Shipping'),
      h(
        'dd',
        {},
        so.shipping
          ? `${so.shipping.carrier}, tracking ${so.shipping.trackingNumber}${so.shipping.shippedAt ? `, shipped ${when(so.shipping.shippedAt)}` : ''}`
          : 'not shipped yet',
        trackingList(so),
      ),
      h('dt', {}, 'At the supplier'),
      h(
        'dd',
        {},
        so.supplierOrderId ? `order ${so.supplierOrderId}${so.supplierStatus ? ` ("${so.supplierStatus}")` : ''}` : 'not created yet',
        h('small', { class: 'mono' }, ` · our number ${so.supplierOrderNumber}, attempt ${so.attempt}`),
      ),
    ),
    buttons.length || so.nextAction ? h('h4', {}, 'What you can do') : null,
    so.nextAction?.action === 'return'
      ? h('p', {}, 'The supplier shipped it: record a return below (which items, why, and whether the shopper is refunded).')
      : null,
    ...buttons,
    h('h4', {}, 'History'),
    h('ol', { class: 'history' }, ...so.events.map((e) => h('li', {}, h('time', {}, when(e.at)), ' ', eventSentence(e, currency)))),
  );
}
