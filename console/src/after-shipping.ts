/**
 * After shipping on the order page and in the review queue (issue 54): a sent order's delivery attention (why, what to
 * do, acknowledge it), the carrier's last scans, and its claims with the supplier (open one for the items, follow it,
 * the outcome; a person's claim with its deadline and evidence pack).
 */
import { api } from './api.js';
import { act, confirmAction, h, notice } from './dom.js';
import { money, when } from './format.js';
import {
  CLAIM_OUTCOME_WORDS,
  CLAIM_REASON_WORDS,
  DELIVERY_ATTENTION_WORDS,
  type ClaimOutcomeKind,
  type ClaimReason,
  type DeliveryAttentionReason,
} from './after-shipping-words.js';
import type { Claim, SupplierOrder } from './types.js';

const words = (reason: string) => DELIVERY_ATTENTION_WORDS[reason as DeliveryAttentionReason];

/** The delivery attention: why, the service's words, what to do, and the acknowledgement; nothing when none. */
export function deliveryAttention(so: SupplierOrder, opts: { base: string; render: () => Promise<void> }): HTMLElement | null {
  const a = so.deliveryAttention;
  if (!a) return null;
  const ack: HTMLButtonElement = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      onclick: () =>
        void act(ack, async () => {
          if (
            !(await confirmAction({
              title: `Acknowledge: order ${so.orderNumber}`,
              body: [`The attention clears. "${words(a.reason)?.why ?? a.reason}" is not raised again until its threshold passes anew; another reason can be.`],
              action: 'Acknowledge',
            }))
          )
            return;
          await api('POST', `${opts.base}/orders/${so._id}/delivery-attention/acknowledge`, { reason: a.reason });
          await opts.render();
          notice(`Order ${so.orderNumber}: acknowledged.`);
        }),
    },
    'Acknowledge',
  );
  return h(
    'div',
    { class: 'stopped attention', 'data-attention': a.reason },
    h('strong', {}, `Delivery needs a look: ${words(a.reason)?.why ?? a.reason}`),
    h('div', { class: 'message' }, a.message),
    h('div', { class: 'next' }, `What to do: ${words(a.reason)?.next ?? 'Check the tracking.'}`),
    h('small', {}, `${a.reason} · since ${when(a.since)} · the order keeps its status`),
    h('div', { class: 'actions' }, ack),
  );
}

/** One line for a list: why the delivery needs a look. */
export function attentionBrief(so: SupplierOrder): HTMLElement | null {
  const a = so.deliveryAttention;
  return a
    ? h(
        'div',
        { class: 'stopped attention' },
        h('strong', {}, `Delivery: ${words(a.reason)?.why ?? a.reason}`),
        h('small', {}, ` · ${a.reason}, since ${when(a.since)}`),
      )
    : null;
}

/** The carrier's last scans, newest first. */
export function trackingList(so: SupplierOrder): HTMLElement | null {
  const t = so.tracking;
  if (!t?.events.length) return null;
  return h(
    'ol',
    { class: 'history tracking' },
    ...[...t.events]
      .reverse()
      .slice(0, 5)
      .map((e) => h('li', {}, h('time', {}, when(e.at)), ` ${e.description}${e.location ? ` (${e.location})` : ''}`)),
  );
}

function outcomeText(c: Claim): string {
  const o = c.outcome;
  if (!o)
    return c.status === 'withPerson'
      ? `to send yourself before ${c.deadline ? when(c.deadline) : 'the deadline'}`
      : c.status === 'sending'
        ? 'being sent to the supplier'
        : `open at the supplier${c.supplierStatus ? ` ("${c.supplierStatus}")` : ''}`;
  const said = CLAIM_OUTCOME_WORDS[o.kind as ClaimOutcomeKind] ?? o.kind;
  if (o.kind === 'refunded' && o.amount)
    return `${said}: ${money(o.amount.amountMinor, o.amount.currency)}${o.storeAmount && o.storeAmount.currency !== o.amount.currency ? ` (${money(o.storeAmount.amountMinor, o.storeAmount.currency)})` : ''}`;
  if (o.kind === 'reshipped' && o.supplierOrderId) return `${said}: a new supplier order`;
  return o.message ? `${said}: ${o.message}` : said;
}

/** A supplier order's claims, and a way to open one for its items (a reship or a refund) once it shipped. */
export async function claimsSection(so: SupplierOrder, opts: { base: string; render: () => Promise<void> }): Promise<HTMLElement | null> {
  const shipped = so.status === 'shipped' || so.status === 'delivered' || (so.status === 'needsReview' && !!so.shipping);
  if (!shipped || so.reshipOf) return null;
  const claims = (await api<{ items: Claim[] }>('GET', `${opts.base}/orders/${so._id}/claims`)).result.items;
  const open = (expectation: 'refund' | 'reship') => {
    const b: HTMLButtonElement = h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () =>
          void act(b, async () => {
            const reason: HTMLSelectElement = h(
              'select',
              { name: 'reason' },
              ...Object.entries(CLAIM_REASON_WORDS).map(([value, label]) => h('option', { value }, label)),
            );
            if (
              !(await confirmAction({
                title: `Claim a ${expectation}: order ${so.orderNumber}`,
                body: [
                  'The supplier is asked for a ' +
                    expectation +
                    ' of every item of this part. Where it has a claims API the service sends the claim once and follows it; otherwise you send it, with the evidence pack shown here.',
                ],
                action: `Claim a ${expectation}`,
                input: reason,
              }))
            )
              return;
            const order = (
              await api<{ items: Array<{ id: string; quantity: number; groupKey: string }> }>(
                'GET',
                `/api/store-orders/${opts.base.split('/').pop()}/${so.orderId}`,
              )
            ).result;
            const items = order.items.filter((i) => i.groupKey === so.fulfilmentGroupKey).map((i) => ({ itemId: i.id, quantity: i.quantity }));
            await api('POST', `${opts.base}/orders/${so._id}/claims`, { reason: reason.value as ClaimReason, expectation, items });
            await opts.render();
            notice(`Order ${so.orderNumber}: claim opened.`);
          }),
      },
      `Claim a ${expectation}`,
    );
    return b;
  };
  return h(
    'div',
    { class: 'claims', 'data-claims': String(claims.length) },
    h('h4', {}, 'Claims with the supplier'),
    claims.length
      ? h(
          'ul',
          {},
          ...claims.map((c) =>
            h(
              'li',
              { 'data-claim': c._id, 'data-claim-status': c.status },
              h('strong', {}, CLAIM_REASON_WORDS[c.reason as ClaimReason] ?? c.reason),
              `, a ${c.expectation}: ${outcomeText(c)}`,
              c.evidencePack && c.status === 'withPerson' ? h('pre', { class: 'evidence' }, `${c.evidencePack.where}\n\n${c.evidencePack.text}`) : null,
            ),
          ),
        )
      : h('p', {}, 'None yet.'),
    h('div', { class: 'actions' }, open('reship'), open('refund')),
  );
}
