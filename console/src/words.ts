/** The service's codes said for a person: statuses, review reasons with what to do next, and history in sentences. */
import { money } from './format.js';
import type { PaymentEntry, SupplierOrder } from './types.js';
import { REVIEW_REASON_WORDS, type PartStatus, type ReviewReason, type StoreOrderStatus, type SupplierOrderStatus } from './vocabulary.js';

export const SUPPLIER_ORDER_STATUS: Record<SupplierOrderStatus, string> = {
  queued: 'Waiting to be sent',
  needsReview: 'Needs review',
  submitted: 'Created at the supplier, not paid',
  confirmed: 'Accepted and paid',
  processing: 'Being prepared',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  failed: 'Failed for now (retried automatically)',
};
export const PART_STATUS: Record<PartStatus, string> = {
  pending: 'Not started',
  processing: 'Being prepared',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};
export const ORDER_STATUS: Record<StoreOrderStatus, string> = {
  pending: 'Waiting for confirmation',
  confirmed: 'Confirmed',
  processing: 'Being prepared',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};
export const SUPPLIER_PAYMENT: Record<string, string> = { notRequired: 'nothing to pay', unpaid: 'not paid yet', paid: 'paid', refunded: 'refunded' };
export const SHOPPER_PAYMENT: Record<string, string> = {
  none: 'not paid',
  authorised: 'authorised, not settled',
  paid: 'paid',
  partiallyRefunded: 'partly refunded',
  failed: 'payment failed',
  refunded: 'refunded',
};
export const PAYMENT_METHOD: Record<string, string> = {
  online: 'Online payment',
  cashOnDelivery: 'Cash on delivery',
  manual: 'Outside the store (bank transfer, cash)',
};

/** What the payment provider said, for the history ("The payment provider <said>"); `m` is the amount or ''. */
const PROVIDER_SAID: Record<string, (m: string) => string> = {
  authorised: (m) => `authorised the shopper's payment${m && ` of ${m}`} (not settled yet)`,
  paid: (m) => `confirmed the shopper paid${m && ` ${m}`}`,
  captured: (m) => `captured the shopper's authorised payment${m && ` of ${m}`}: the shopper is charged`,
  captureFailed: (m) => `refused to capture the shopper's payment${m && ` of ${m}`}: the shopper is not charged`,
  failed: (m) => `reported the shopper's payment${m && ` of ${m}`} failed`,
  refunded: (m) => `refunded ${m || 'the payment'} to the shopper`,
  disputed: () => 'reported that the shopper disputes the charge with their bank',
};

/** One payment history entry as a sentence: who said it (the provider, a person by hand, the service), money with its currency. */
/** `autoPay`: a connection of the order pays its supplier by itself (a mark by hand never lets it). */
export function paymentSentence(e: PaymentEntry, currency: string, you: string, autoPay: boolean): string {
  const m = e.amountMinor === null ? '' : money(e.amountMinor, currency);
  const ref = e.reference ? ` (${e.source === 'provider' ? 'its payment id' : 'reference'} ${e.reference})` : '';
  if (e.source === 'provider')
    return `The payment provider ${PROVIDER_SAID[e.kind]?.(m) ?? `reported the payment ${e.kind}`}${ref}, in a signed notification.${e.stale ? ' It arrived after a later event of the provider and changed nothing.' : ''}`;
  if (e.source === 'service') {
    if (e.kind === 'captureRequested')
      return `The supplier accepted the order, so the service asked the payment provider to capture the shopper's payment${ref}; the provider's signed notification confirms the charge.`;
    if (e.kind === 'captureFailed')
      return `The service asked the payment provider to capture the shopper's payment${ref}, and the provider refused: the shopper is not charged.`;
    // Recorded by earlier versions without asking the provider; asked of the provider since.
    return `An earlier version of the service recorded the shopper as charged${m && ` ${m}`} without the payment provider's word.`;
  }
  const who =
    e.actor?.kind === 'user' ? (e.actor.id === you ? 'You' : 'Another person of the store') : e.actor?.kind === 'key' ? 'A program with an API key' : 'Someone';
  if (e.kind === 'attentionAcknowledged') return `${who} dealt with the payment needing attention: "${e.note ?? ''}".`;
  if (e.kind === 'refundRequested')
    return `${who} asked the payment provider to refund ${m} to the shopper${ref}${e.note ? `: "${e.note}"` : ''}; its signed notification confirms it.`;
  if (e.kind === 'refundFailed') return `The payment provider refused to refund ${m}${ref}: ${e.note ?? ''}`;
  const what = e.kind === 'paid' ? 'marked it paid by hand' : `recorded the payment as ${SHOPPER_PAYMENT[e.kind] ?? e.kind} by hand`;
  return `${who} ${what}${m && `: the shopper paid ${m}`}${ref}. A person's word, not the provider's: it confirms the order${autoPay ? ' but does not let the service pay the supplier automatically' : ''}.`;
}

/** The spec's review reasons: why the order stopped, and what a person can do about it (the vocabulary's words). */
export const REASONS: Record<ReviewReason, { why: string; next: string }> = REVIEW_REASON_WORDS;

/** A code in words; the code itself when the service is newer than this page. */
export const wordFor = <K extends string>(words: Record<K, string>, code: string): string => (Object.hasOwn(words, code) ? words[code as K] : code);
export const reasonOf = (reason: string | null) => (reason && Object.hasOwn(REASONS, reason) ? REASONS[reason as ReviewReason] : undefined);

export const reasonWords = (reason: string | null) => reasonOf(reason)?.why ?? reason ?? '';

type HistoryEvent = SupplierOrder['events'][number];

interface Rerouted {
  from?: { supplierOrderId?: string; supplierKey?: string };
  to?: { supplierOrderId?: string; supplierKey?: string };
  reason?: string;
  by?: string;
  costDifferenceMinor?: number;
  currency?: string;
}

/** A `rerouted` entry: from, to, the reason, who asked, and the cost difference (in its own currency). */
export function reroutedSentence(details: Record<string, unknown>, currency: string): string {
  const d = details as Rerouted;
  const diff = typeof d.costDifferenceMinor === 'number' ? d.costDifferenceMinor : 0;
  const cost = diff === 0 ? 'at the same cost' : `${money(Math.abs(diff), d.currency ?? currency)} ${diff > 0 ? 'dearer' : 'cheaper'}`;
  const why = reasonWords(d.reason ?? null).toLowerCase() || 'it stopped';
  const who = d.by === 'rule' ? "by the connection's reroute rule" : 'by hand';
  return `Rerouted from ${d.from?.supplierKey ?? 'this supplier'} to the backup supplier ${d.to?.supplierKey ?? ''} (its supplier order ${d.to?.supplierOrderId ?? ''}), ${who}, because ${why}; ${cost}.`;
}

interface RoutedQuote {
  supplierKey?: string;
  currency?: string;
  totalMinor?: number;
  storeCurrency?: string;
  storeTotalMinor?: number;
  rate?: string;
  maxDays?: number | null;
  connectionId?: string;
}

/** A `routed` entry: the rule, every candidate's quote (in the store's currency, with the supplier's and the rate), those left out, and why the winner won. */
export function routedSentence(details: Record<string, unknown>): string {
  const d = details as {
    rule?: string;
    why?: string;
    connectionId?: string;
    candidates?: RoutedQuote[];
    excluded?: Array<{ supplierKey?: string; why?: string }>;
  };
  const rule = d.rule === 'fastest' ? 'the fastest within a cost cap' : 'the lowest landed cost';
  const quote = (q: RoutedQuote) => {
    const store = typeof q.storeTotalMinor === 'number' ? money(q.storeTotalMinor, q.storeCurrency ?? 'USD') : '?';
    const own = q.currency && q.currency !== q.storeCurrency && typeof q.totalMinor === 'number' ? ` (${money(q.totalMinor, q.currency)} at ${q.rate})` : '';
    return `${q.supplierKey ?? '?'}${q.connectionId === d.connectionId ? ' (chosen)' : ''} ${store}${own}${typeof q.maxDays === 'number' ? `, up to ${q.maxDays} days` : ''}`;
  };
  const candidates = (d.candidates ?? []).map(quote).join('; ');
  // Each why is the service's sentence (it ends with its own full stop, taken off to join them).
  const excluded = (d.excluded ?? []).map((x) => `${x.supplierKey ?? '?'}: ${(x.why ?? '').replace(/\.$/, '')}`).join('; ');
  return `Supplier chosen by ${rule}. ${d.why ?? ''} Candidates: ${candidates || 'none'}.${excluded ? ` Not candidates: ${excluded}.` : ''}`;
}

const TRIGGERS: Record<string, string> = {
  submit: 'someone sent the part',
  confirmation: 'the store order was confirmed',
  authorisation: "the shopper's payment was authorised",
  payment: 'the shopper paid',
  reroute: 'its items were rerouted here from a paused supplier order',
  routing: 'the routing rule chose this supplier for its items',
};

/** One history entry as a sentence, amounts with their currency; nothing is shown as raw JSON. */
export function eventSentence(e: HistoryEvent, currency: string): string {
  const d = e.details;
  const amount = (v: unknown) => (typeof v === 'number' ? money(v, currency) : '');
  const supplierSays = typeof d.supplierStatus === 'string' && d.supplierStatus ? ` (the supplier says "${d.supplierStatus}")` : '';
  const sentence = (() => {
    switch (e.type) {
      case 'created':
        return `Created because ${TRIGGERS[String(d.trigger)] ?? 'it was sent'}${d.payNow ? ", to be paid at once (pay now, without waiting for the shopper's payment)" : ''}.`;
      case 'paused': {
        const costs =
          typeof d.currentCostMinor === 'number'
            ? ` It costs ${amount(d.currentCostMinor)} now${typeof d.recordedCostMinor === 'number' ? `, ${amount(d.recordedCostMinor)} when imported` : ''}${typeof d.limitMinor === 'number' ? `; your limit is ${amount(d.limitMinor)}` : ''}.`
            : '';
        return `Stopped for review: ${reasonWords(typeof d.reason === 'string' ? d.reason : null) || 'see the message'}.${costs}`;
      }
      case 'retry':
        return `Tried again${d.acceptCost ? `, accepting the new cost of ${amount(d.acceptedCostMinor)}` : ''}${typeof d.newAttempt === 'number' ? ` as attempt ${d.newAttempt}, with a new order number` : ''}.`;
      case 'automaticRetry':
        return `Tried again automatically (retry ${d.retriesUsed}).`;
      case 'payRequested':
        return 'Payment to the supplier asked for.';
      case 'createdAtSupplier':
        return `Created at the supplier under our number ${d.supplierOrderNumber ?? ''}${supplierSays}.`;
      case 'foundAtSupplier':
        return `Found already created at the supplier under our number ${d.supplierOrderNumber ?? ''}, so not created twice${supplierSays}.`;
      case 'paid':
        return `Paid to the supplier${d.payNow ? ' (pay now)' : ''}${supplierSays}.`;
      case 'alreadyPaidAtSupplier':
        return `Already paid at the supplier: recorded, not paid twice${supplierSays}.`;
      case 'failed':
        return `The supplier could not be reached${typeof d.message === 'string' ? ` (${d.message})` : ''}; tried again automatically${typeof d.retryInSeconds === 'number' ? ` after ${d.retryInSeconds} s` : ''}.`;
      case 'readBack':
        return `Read again from the supplier${supplierSays}.`;
      case 'packageReturned': {
        const packages = Array.isArray(d.returned)
          ? (d.returned as Array<{ carrier?: unknown; trackingNumber?: unknown }>).map((r) =>
              `${String(r.carrier ?? '')} ${String(r.trackingNumber ?? '')}`.trim(),
            )
          : [];
        return `A package went back to the supplier${packages.length ? ` (${packages.join(', ')})` : ''}: reship or refund it${supplierSays}.`;
      }
      case 'captureRequested':
        return "The payment provider was asked to capture the shopper's payment, and took the request (its signed notification confirms the charge).";
      case 'captureFailed':
        return `The payment provider refused to charge the shopper${typeof d.message === 'string' ? ` (${d.message})` : ''}.`;
      case 'shopperCharged':
        return "Recorded as charged by an earlier version of the service, without the payment provider's word.";
      case 'cancelRequested':
        return 'Cancellation asked for.';
      case 'rerouteRequested':
        return `Reroute to a backup supplier asked for (${reasonWords(typeof d.reason === 'string' ? d.reason : null).toLowerCase() || 'paused'}).`;
      case 'rerouted':
        return reroutedSentence(d, currency);
      case 'routed':
        return routedSentence(d);
      case 'routedAway': {
        const to = (d.to ?? {}) as { supplierKey?: string; supplierOrderId?: string };
        return `Its items went to the chosen supplier ${to.supplierKey ?? ''} (its supplier order ${to.supplierOrderId ?? ''}); nothing was placed here.`;
      }
      case 'rerouteFailed':
        return `Not rerouted: ${typeof d.message === 'string' ? d.message.replace(/^Not rerouted: /, '') : 'no backup supplier could take it.'}`;
      case 'fulfilManuallyRequested':
        return 'Taken over by the store, to ship it itself.';
      case 'cancelled':
        return d.atSupplier === false ? 'Cancelled; nothing was placed at the supplier.' : 'Cancelled.';
      case 'cancelledAtSupplier':
        return `Cancelled at the supplier${supplierSays}.`;
      default: {
        const words = e.type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
        return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
      }
    }
  })();
  const by = e.actor.kind === 'system' ? 'the service' : e.actor.kind === 'key' ? 'an API key' : 'a person in the console or API';
  const moved = e.to && e.to !== e.from ? ` Now: ${wordFor(SUPPLIER_ORDER_STATUS, e.to).toLowerCase()}.` : '';
  return `${sentence}${moved} (By ${by}.)`;
}
