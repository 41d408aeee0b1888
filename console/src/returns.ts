/**
 * Returns on the store's side on the order page (issue 54, item 3): a shipped part's returns (why, the items, the
 * shopper's refund and where it stands, the refund set against the supplier's credit on the claim it goes with), and
 * a way to record one; a cancel that came after the supplier shipped names it as what to do next.
 */
import { api } from './api.js';
import { act, confirmAction, field, h, notice } from './dom.js';
import { money, textToMinor, when } from './format.js';
import { RETURN_REASON_WORDS, type ReturnReason } from './after-shipping-words.js';
import type { SupplierOrder } from './types.js';

/** A return as the order page shows it. */
interface PartReturn {
  _id: string;
  reason: string;
  note: string;
  items: Array<{ itemId: string; sku: string; quantity: number }>;
  claimId: string | null;
  refund: { amountMinor: number; currency: string; status: 'sending' | 'requested' | 'refused'; message: string | null } | null;
  money: { currency: string; refundMinor: number; supplierCreditMinor: number | null; netMinor: number };
  createdAt: string;
}

function refundText(r: PartReturn): string {
  const f = r.refund;
  if (!f) return 'the shopper is not refunded';
  const amount = money(f.amountMinor, f.currency);
  if (f.status === 'requested') return `${amount} refunded to the shopper`;
  if (f.status === 'refused') return `a refund of ${amount} refused${f.message ? `: ${f.message}` : ''}`;
  return `a refund of ${amount} not confirmed by the provider yet (send it again: it is refunded once)`;
}

function moneyText(r: PartReturn): string {
  const m = r.money;
  if (m.supplierCreditMinor === null) return '';
  return ` · the supplier's credit ${money(m.supplierCreditMinor, m.currency)}, net ${money(m.netMinor, m.currency)}`;
}

/** A supplier order's returns and the way to record one, once it shipped; nothing before. */
export async function returnsSection(so: SupplierOrder, opts: { base: string; render: () => Promise<void> }): Promise<HTMLElement | null> {
  const shipped = so.status === 'shipped' || so.status === 'delivered' || (so.status === 'needsReview' && !!so.shipping);
  if (!shipped) return null;
  const returns = (await api<{ items: PartReturn[] }>('GET', `${opts.base}/orders/${so._id}/returns`)).result.items;
  const again = (r: PartReturn) => {
    const b: HTMLButtonElement = h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () =>
          void act(b, async () => {
            await api('POST', `${opts.base}/orders/${so._id}/returns/${r._id}/refund`);
            await opts.render();
            notice(`Order ${so.orderNumber}: the refund was asked again.`);
          }),
      },
      'Send the refund again',
    );
    return b;
  };
  const record: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: so.nextAction?.action === 'return' ? 'primary' : 'secondary',
      onclick: () =>
        void act(record, async () => {
          const reason: HTMLSelectElement = h(
            'select',
            { name: 'reason' },
            ...Object.entries(RETURN_REASON_WORDS).map(([value, label]) =>
              h('option', { value, selected: value === 'cancelledAfterShipping' && !!so.nextAction }, label),
            ),
          );
          const refund: HTMLInputElement = h('input', { type: 'text', name: 'refund', inputmode: 'decimal', placeholder: '0.00' });
          const input = h('div', {}, field('Why', reason), field('Refund the shopper (in the order currency; empty: none)', refund));
          if (
            !(await confirmAction({
              title: `Record a return: order ${so.orderNumber}`,
              body: ["Every item of this part, as sent, is recorded as returned. A refund goes through the store's payment provider, once."],
              action: 'Record the return',
              input,
            }))
          )
            return;
          const order = (
            await api<{ currency: string; items: Array<{ id: string; quantity: number; groupKey: string }> }>(
              'GET',
              `/api/store-orders/${opts.base.split('/').pop()}/${so.orderId}`,
            )
          ).result;
          const items = order.items.filter((i) => i.groupKey === so.fulfilmentGroupKey).map((i) => ({ itemId: i.id, quantity: i.quantity }));
          // Minor units by the currency's exponent, from the text as typed (never through a float).
          const amountMinor = refund.value.trim() ? textToMinor(refund.value.trim(), order.currency) : 0;
          if (amountMinor === null) throw new Error(`The refund is not an amount of ${order.currency}.`);
          await api('POST', `${opts.base}/orders/${so._id}/returns`, {
            reason: reason.value as ReturnReason,
            items,
            ...(amountMinor > 0 ? { refund: { amountMinor } } : {}),
          });
          await opts.render();
          notice(`Order ${so.orderNumber}: return recorded.`);
        }),
    },
    'Record a return',
  );
  return h(
    'div',
    { class: 'returns', 'data-returns': String(returns.length) },
    h('h4', {}, 'Returns'),
    returns.length
      ? h(
          'ul',
          {},
          ...returns.map((r) =>
            h(
              'li',
              { 'data-return': r._id, 'data-refund-status': r.refund?.status ?? 'none' },
              h('strong', {}, RETURN_REASON_WORDS[r.reason as ReturnReason] ?? r.reason),
              `, ${r.items.map((i) => `${i.quantity} × ${i.sku}`).join(', ')} (${when(r.createdAt)}): ${refundText(r)}${moneyText(r)}`,
              r.note ? h('div', { class: 'message' }, r.note) : null,
              r.refund?.status === 'sending' ? h('div', { class: 'actions' }, again(r)) : null,
            ),
          ),
        )
      : h('p', {}, 'None yet.'),
    h('div', { class: 'actions' }, record),
  );
}
