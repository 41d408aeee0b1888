/**
 * The shopper's payment on the order page: what the payment provider confirmed (the only word automatic supplier
 * payment trusts), a person's mark by hand, paying as the shopper at the store's checkout, and the history (its
 * words: ./order-payment-words.ts).
 */
import { api } from './api.js';
import { paysByItself } from './automation.js';
import { act, append, confirmAction, field, h, notice } from './dom.js';
import { money, when } from './format.js';
import type { Ctx, PaymentProviderView, StoreOrder } from './types.js';
import { PAYMENT_METHOD, paymentSentence, SHOPPER_PAYMENT } from './words.js';
import { providerPaymentsList, refundButton } from './order-refund.js';
import { ATTENTION, CAPTURE_BADGE, captureStage, providerLine, providerSays, type SupplierPart } from './order-payment-words.js';

const WAIT_MS = 10 * 60_000;
const LOOK_EVERY_MS = 1500;
/** What a mark by hand does about paying the supplier, as the order's connections are set. */
const manualRule = (autoPay: boolean) =>
  autoPay
    ? 'A mark by hand confirms the order but does not by itself let the service pay the supplier automatically: for that, send the supplier part with "pay now", or allow unpaid orders in the connection\'s automation (Connections).'
    : 'A mark by hand confirms the order. The supplier is paid only when you pay it: send the supplier part with "pay now", or press Pay on its supplier order.';

/** After "Pay as the shopper": the order whose provider notification the page waits for, and how many it had. */
let waiting: { orderId: string; seen: number; until: number } | null = null;

const fromProvider = (o: StoreOrder) => (o.payments ?? []).filter((p) => p.source === 'provider');

/** The store's checkout with the order's id, amount and currency (the sandbox payment provider's parameters); null if none. */
export function checkoutFor(provider: PaymentProviderView | null, order: StoreOrder): string | null {
  if (!provider?.configured || !provider.checkoutUrl) return null;
  const url = new URL(provider.checkoutUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.set('orderId', order.id);
  url.searchParams.set('amountMinor', String(order.totalMinor));
  url.searchParams.set('currency', order.currency);
  return url.toString();
}

/** The payment card; `render` reads the order again (the card follows a pending checkout by calling it). */
export function paymentCard(
  order: StoreOrder,
  provider: PaymentProviderView | null,
  ctx: Ctx,
  opts: { url: string; render: () => Promise<void>; supplierParts: SupplierPart[] },
): HTMLElement {
  const total = money(order.totalMinor, order.currency);
  const autoPay = opts.supplierParts.some((p) => paysByItself(p.automation));
  const open = order.status !== 'cancelled' && !['paid', 'partiallyRefunded', 'refunded'].includes(order.paymentStatus);
  const refund = refundButton(order, opts.url, opts.render);
  const checkout = order.paymentMethod === 'online' && open && order.paymentStatus !== 'authorised' ? checkoutFor(provider, order) : null;
  const card: HTMLElement = h('section', { class: 'card payment', 'data-payment': order.paymentStatus });
  const wait = waiting?.orderId === order.id ? follow(order, card, opts.render) : null;

  const pay: HTMLButtonElement | null = checkout
    ? h(
        'button',
        {
          type: 'button',
          class: 'primary',
          onclick: () => {
            // Opened at once, inside the click, so the browser does not take it for a pop-up nobody asked for.
            window.open(checkout, '_blank', 'noopener');
            waiting = { orderId: order.id, seen: fromProvider(order).length, until: Date.now() + WAIT_MS };
            void act(pay, opts.render);
          },
        },
        'Pay as the shopper',
      )
    : null;
  const reference = h('input', { name: 'reference', maxlength: 200, autocomplete: 'off' });
  const mark: HTMLButtonElement | null =
    open && !order.markedPaidAt
      ? h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            onclick: () =>
              void act(mark, async () => {
                const asked = await confirmAction({
                  title: `Mark order ${order.number} paid by hand?`,
                  body: [
                    `Records that the shopper paid ${total} outside the payment provider (cash, bank transfer), as your word, and confirms the order.`,
                    manualRule(autoPay),
                  ],
                  action: 'Mark as paid',
                  input: field('Receipt or transfer reference (optional)', reference),
                });
                if (!asked) return;
                await api('POST', `${opts.url}/mark-paid`, {
                  amountMinor: order.totalMinor,
                  ...(reference.value.trim() ? { reference: reference.value.trim() } : {}),
                });
                await opts.render();
                notice(
                  `Order ${order.number} is marked paid by hand and confirmed. ${autoPay ? 'The supplier is not paid automatically because of it: send its part with pay now, or allow unpaid orders on the connection.' : 'Pay the supplier yourself: send its part with pay now, or press Pay on its supplier order.'}`,
                );
              }),
          },
          'Mark as paid…',
        )
      : null;

  const history = order.payments ?? [];
  const capture = captureStage(order);
  append(
    card,
    h(
      'h2',
      {},
      "Shopper's payment ",
      h(
        'span',
        { class: `badge ${order.paymentStatus === 'paid' ? 'ok' : order.paymentStatus === 'failed' ? 'bad' : ''}` },
        SHOPPER_PAYMENT[order.paymentStatus] ?? order.paymentStatus,
      ),
    ),
    h(
      'dl',
      {},
      h('dt', {}, 'How the shopper pays'),
      h('dd', {}, PAYMENT_METHOD[order.paymentMethod] ?? order.paymentMethod),
      h('dt', {}, 'Payment provider says'),
      h(
        'dd',
        {},
        order.paymentMethod !== 'online' && order.paymentStatus === 'none' ? 'nothing (not paid online)' : providerSays(order, total, opts.supplierParts),
      ),
      ...(order.amountRefundedMinor
        ? [h('dt', {}, 'Refunded to the shopper'), h('dd', { class: 'refunded' }, money(order.amountRefundedMinor, order.currency))]
        : []),
      h('dt', {}, 'Marked paid by hand'),
      h('dd', {}, order.markedPaidAt ? `${when(order.markedPaidAt)} (a person's word, not the provider's)` : 'no'),
      ...(capture
        ? [
            h('dt', {}, 'Charging the shopper (promise to sell)'),
            h(
              'dd',
              { class: 'capture', 'data-capture': capture.stage },
              h('span', { class: `badge ${capture.stage === 'captured' ? 'ok' : capture.stage === 'failed' ? 'bad' : ''}` }, CAPTURE_BADGE[capture.stage]),
              ' ',
              capture.words,
            ),
          ]
        : []),
    ),
    order.paymentAttention
      ? h('p', { class: 'message attention' }, ATTENTION[order.paymentAttention.reason] ?? `Needs attention: ${order.paymentAttention.reason}.`)
      : null,
    h('p', { class: 'message' }, providerLine(order, provider)),
    wait,
    providerPaymentsList(order),
    pay || mark || refund ? h('div', { class: 'actions' }, pay, mark, refund) : null,
    mark || order.markedPaidAt ? h('p', { class: 'message rule' }, manualRule(autoPay)) : null,
    h('h3', {}, 'Payment history'),
    history.length
      ? h(
          'ol',
          { class: 'history payments' },
          ...history.map((e) => h('li', {}, h('time', {}, when(e.at)), ' ', paymentSentence(e, order.currency, ctx.account.id, autoPay))),
        )
      : h('p', {}, 'Nothing yet: no word from the payment provider and no mark by hand.'),
  );
  return card;
}

/** While a checkout is open: read again every 1.5 s until the provider's notification arrives, then say what it said. */
function follow(order: StoreOrder, card: HTMLElement, render: () => Promise<void>): HTMLElement | null {
  const w = waiting!;
  const news = fromProvider(order).slice(w.seen);
  if (news.length) {
    waiting = null;
    const last = news[news.length - 1];
    if (last.kind === 'failed')
      notice(`Order ${order.number}: the payment provider reported the shopper's payment failed. Pay again, or ask the shopper.`, 'error');
    else
      notice(
        `Order ${order.number}: the payment provider confirmed the payment${last.amountMinor === null ? '' : ` of ${money(last.amountMinor, order.currency)}`} (${SHOPPER_PAYMENT[order.paymentStatus] ?? order.paymentStatus}).`,
      );
    return null;
  }
  if (Date.now() > w.until) {
    waiting = null;
    notice(
      `Order ${order.number}: no word from the payment provider in 10 minutes. If the shopper paid, check the notification address at the provider, then "Read again".`,
      'error',
    );
    return null;
  }
  setTimeout(() => void (card.isConnected && render()), LOOK_EVERY_MS);
  notice(
    `Order ${order.number}: waiting for the payment provider's signed notification. Pay in the checkout window that opened; this page shows the payment when it arrives.`,
    'waiting',
  );
  return h('p', { class: 'waiting' }, "Waiting for the payment provider's notification…");
}
