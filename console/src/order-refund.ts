/**
 * The order's payments as the provider reported them, what was refunded, and a refund to the shopper (whole or in
 * part) through the store's payment provider (issue 53). The order moves on the provider's signed notification.
 */
import { api } from './api.js';
import { act, confirmAction, field, h, notice } from './dom.js';
import { minorToText, money, stepOf, textToMinor, when } from './format.js';
import type { StoreOrder } from './types.js';

const PAYMENT_STATUS: Record<string, string> = {
  authorised: 'authorised',
  paid: 'paid',
  partiallyRefunded: 'partly refunded',
  refunded: 'refunded',
  failed: 'failed',
};

/** Each payment of the order at the provider (several when the shopper tried again or was charged twice). */
export function providerPaymentsList(order: StoreOrder): HTMLElement | null {
  const list = order.providerPayments ?? [];
  if (!list.length) return null;
  return h(
    'table',
    { class: 'provider-payments' },
    h(
      'thead',
      {},
      h('tr', {}, h('th', {}, 'Payment at the provider'), h('th', {}, 'Amount'), h('th', {}, 'Status'), h('th', {}, 'Refunded'), h('th', {}, 'Last change')),
    ),
    h(
      'tbody',
      {},
      ...list.map((p) =>
        h(
          'tr',
          { 'data-reference': p.reference },
          h('td', {}, p.reference || '(no id)'),
          h('td', {}, money(p.amountMinor, p.currency)),
          h('td', {}, `${PAYMENT_STATUS[p.status] ?? p.status}${p.disputed ? ', disputed' : ''}`),
          h('td', {}, p.refundedMinor ? money(p.refundedMinor, p.currency) : '—'),
          h('td', {}, when(p.updatedAt)),
        ),
      ),
    ),
  );
}

/** What is left to refund on the standing payment (the paid one that keeps the most). */
const refundable = (order: StoreOrder) =>
  Math.max(
    0,
    ...(order.providerPayments ?? []).filter((p) => p.status === 'paid' || p.status === 'partiallyRefunded').map((p) => p.amountMinor - p.refundedMinor),
  );

/** "Refund…": an amount (all that is left by default) and a reason, asked of the provider. */
export function refundButton(order: StoreOrder, url: string, render: () => Promise<void>): HTMLButtonElement | null {
  const left = refundable(order);
  if (!left) return null;
  const amount = h('input', {
    name: 'refundAmount',
    type: 'number',
    min: stepOf(order.currency),
    step: stepOf(order.currency),
    value: minorToText(left, order.currency),
    required: true,
  });
  const reason = h('input', { name: 'refundReason', maxlength: 500, autocomplete: 'off' });
  const button: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () =>
        void act(button, async () => {
          const asked = await confirmAction({
            title: `Refund the shopper of order ${order.number}?`,
            body: [
              `At most ${money(left, order.currency)} is left to refund. The payment provider gives it back to the shopper; the order shows it when its signed notification arrives, and its profit loses it.`,
            ],
            action: 'Refund',
            danger: true,
            input: h('div', {}, field(`Amount (${order.currency})`, amount), field('Reason (optional, kept in the history)', reason)),
          });
          if (!asked) return;
          const amountMinor = textToMinor(amount.value, order.currency);
          if (!amountMinor || amountMinor > left) return notice(`Refund between ${money(1, order.currency)} and ${money(left, order.currency)}.`, 'error');
          await api('POST', `${url}/refunds`, { amountMinor, currency: order.currency, ...(reason.value.trim() ? { reason: reason.value.trim() } : {}) });
          notice(
            `Order ${order.number}: the payment provider took the refund of ${money(amountMinor, order.currency)}; the order shows it when its notification arrives.`,
          );
          await render();
        }),
    },
    'Refund…',
  );
  return button;
}
