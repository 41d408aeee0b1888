import type { Actor } from '../identity/permissions';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { REVIEW_REASONS, ReviewReason } from './review-reasons';
import { rerouteMessage } from './reroute-message';
import { SupplierOrder, supplierOrderNumber } from './supplier-order';
import { DispatchEvent, SYSTEM } from './dispatch-event';
import type { Change, Fields } from './change';

/** What the supplier says of our order: its ids, status, costs, shipping and payment. */
function answerFields(so: SupplierOrder, a: SupplierOrderSnapshot): Fields {
  const paymentStatus = a.paid ? 'paid' : a.status === 'cancelled' && so.paymentStatus === 'paid' ? 'refunded' : so.paymentStatus;
  return {
    supplierOrderId: a.supplierOrderId,
    supplierStatus: a.supplierStatus,
    costs: a.costs,
    shipping: a.shipping,
    paymentStatus,
    numberKnownAbsent: false,
  };
}

const review = (reason: ReviewReason, message: string): Fields => ({
  reviewReason: reason,
  reviewMessage: message.slice(0, 500),
  retryable: REVIEW_REASONS[reason].retryable,
  payRequested: false,
});
// A cancel that won over a reroute asked meanwhile (by the rule's pause) ends that request too.
const WITHDRAWN: Fields = { cancelRequested: false, storeTakesOver: false, rerouteRequest: null };
const TOO_LATE = 'The cancel came after the supplier shipped the order; handle it as a return.';

/** What an event writes on the record besides its status, and the history event it records (./transition.ts). */
export function effect(so: SupplierOrder, e: DispatchEvent, now: Date): { fields: Fields; history: Change['history'] } {
  const by = (actor: Actor, type: string, details: Record<string, unknown> = {}) => ({ actor, type, details });
  switch (e.type) {
    case 'create':
      return {
        fields: {},
        history: by(e.actor, 'created', {
          trigger: e.trigger,
          ...(e.record.payNow ? { payNow: true } : {}),
          ...(e.reroutedFrom ? { reroutedFrom: e.reroutedFrom } : {}),
        }),
      };
    case 'retry': {
      const fields: Fields = { reviewReason: null, reviewMessage: null, retryable: false, nextRetryAt: null, rerouteRequest: null };
      const details: Record<string, unknown> = e.resumed ? { resumed: e.resumed } : {};
      if (e.acceptCost) {
        fields.acceptedCostMinor = e.acceptCost.costMinor;
        Object.assign(details, { acceptCost: true, acceptedCostMinor: e.acceptCost.costMinor });
      }
      // A new attempt, with a new number, only once the previous number is known not to exist at the supplier.
      if (so.numberKnownAbsent) {
        Object.assign(fields, { attempt: so.attempt + 1, supplierOrderNumber: supplierOrderNumber(so.id, so.attempt + 1), numberKnownAbsent: false });
        details.newAttempt = so.attempt + 1;
      }
      if (so.status !== 'queued') fields.retriesUsed = 0;
      return { fields, history: by(e.actor, 'retry', details) };
    }
    case 'automaticRetry':
      return { fields: { nextRetryAt: null }, history: by(SYSTEM, 'automaticRetry', { retriesUsed: so.retriesUsed }) };
    case 'payRequested':
      return { fields: { payRequested: true }, history: by(e.actor, 'payRequested') };
    case 'cancelRequested': {
      // Null whatever was read: a reroute asked between the read and this write ends too.
      const fields: Fields = { cancelRequested: true, ...(e.storeTakesOver ? { storeTakesOver: true } : {}), rerouteRequest: null };
      return {
        fields,
        history: by(e.actor, e.storeTakesOver ? 'fulfilManuallyRequested' : 'cancelRequested', so.rerouteRequest ? { rerouteWithdrawn: true } : {}),
      };
    }
    case 'supplierAnswered': {
      const fields: Fields = {
        ...answerFields(so, e.answer),
        ...(e.paymentDue !== undefined ? { paymentDue: e.paymentDue } : {}),
        ...(e.payRequestDone ? { payRequested: false } : {}),
      };
      // A package returned to the supplier is recorded once, whatever answer first tells it (event supplierOrder.returned).
      const known = new Set(so.returns.map((r) => r.trackingNumber));
      const returned = (e.answer.returns ?? [])
        .filter((r) => !known.has(r.trackingNumber))
        .map((r) => ({ carrier: r.carrier, trackingNumber: r.trackingNumber, at: now.toISOString() }));
      if (returned.length) {
        fields.returns = [...so.returns, ...returned];
        return {
          fields,
          history: by(SYSTEM, 'packageReturned', {
            supplierStatus: e.answer.supplierStatus,
            via: e.history,
            returned: returned.map(({ carrier, trackingNumber }) => ({ carrier, trackingNumber })),
            ...e.details,
          }),
        };
      }
      return { fields, history: by(SYSTEM, e.history, { supplierStatus: e.answer.supplierStatus, ...e.details }) };
    }
    case 'paused':
      return {
        fields: { ...review(e.reason, e.message), ...(e.numberUnused ? { numberKnownAbsent: true } : {}), ...(e.reroute ? { rerouteRequest: e.reroute } : {}) },
        history: by(SYSTEM, 'paused', { reason: e.reason, ...e.details, ...(e.reroute ? { reroute: true } : {}) }),
      };
    case 'failed':
      return {
        fields: { retriesUsed: so.retriesUsed + 1, nextRetryAt: new Date(now.getTime() + e.retryInSeconds * 1000) },
        history: by(SYSTEM, 'failed', { error: e.error, message: e.message.slice(0, 500), retryInSeconds: e.retryInSeconds }),
      };
    case 'captureRequested':
      return { fields: { captureRequested: true }, history: by(SYSTEM, 'captureRequested', e.reference ? { reference: e.reference } : {}) };
    case 'captureFailed':
      // Final stays final: a delivered order only records it (the order's payment history and status say the rest).
      if (so.status === 'delivered') return { fields: { captureRequested: true }, history: by(SYSTEM, 'captureFailed', { message: e.message.slice(0, 500) }) };
      // Not asked any more: a retry (once the shopper paid again) asks the provider anew.
      return {
        fields: { ...review('customerCaptureFailed', `The supplier was paid, but charging the shopper failed. ${e.message}`), captureRequested: false },
        history: by(SYSTEM, 'paused', { reason: 'customerCaptureFailed' }),
      };
    case 'cancelled': {
      const fields = { ...(e.answer ? answerFields(so, e.answer) : {}), cancelRequested: false, rerouteRequest: null };
      return {
        fields,
        history: e.withdrawn
          ? by(SYSTEM, 'cancelledAtSupplier', { supplierStatus: e.answer?.supplierStatus })
          : by(SYSTEM, 'cancelled', { atSupplier: !!e.answer }),
      };
    }
    case 'cancelRefused':
      return { fields: { ...review(e.reason, e.message), ...WITHDRAWN }, history: by(SYSTEM, 'paused', { reason: e.reason }) };
    case 'cancelTooLate':
      return {
        fields: { ...(e.answer ? answerFields(so, e.answer) : {}), ...review('supplierAlreadyShipped', TOO_LATE), ...WITHDRAWN },
        history: by(SYSTEM, 'paused', { reason: 'supplierAlreadyShipped' }),
      };
    case 'cancelRequestCleared':
      return { fields: { cancelRequested: false }, history: by(SYSTEM, 'cancelRequestCleared') };
    case 'rerouteRequested':
      return {
        fields: { rerouteRequest: e.request },
        history: by(e.actor, 'rerouteRequested', { reason: e.request.reason, ...(e.request.connectionId ? { connectionId: e.request.connectionId } : {}) }),
      };
    case 'rerouted':
      return {
        fields: { ...(e.answer ? answerFields(so, e.answer) : {}), rerouteRequest: null, reroutedTo: e.to, retryable: false },
        history: by(e.actor, 'rerouted', e.details),
      };
    case 'routedAway':
      return { fields: { reroutedTo: e.to, retryable: false }, history: by(SYSTEM, 'routedAway', e.details) };
    case 'deliveryWatched':
      return { fields: {}, history: by(SYSTEM, 'deliveryWatched') };
    case 'attentionAcknowledged':
      return { fields: {}, history: by(e.actor, 'deliveryAttentionCleared', { reason: e.reason }) };
    case 'claimRecorded':
    case 'returnRecorded':
      return { fields: {}, history: by(e.actor, e.kind, e.details) };
    case 'rerouteEnded': {
      // Spread, not Object.assign: the compiler checks each field's type (a reason's flags are not its retryable).
      const fields: Fields = {
        rerouteRequest: null,
        reviewMessage: rerouteMessage(so.reviewMessage, e.message, e.tried),
        rerouteTried: [...so.rerouteTried, ...e.tried],
        ...(e.reason ? { reviewReason: e.reason, retryable: REVIEW_REASONS[e.reason].retryable } : {}),
      };
      return { fields, history: by(SYSTEM, 'rerouteFailed', { tried: e.tried, message: e.message, ...(e.reason ? { reason: e.reason } : {}) }) };
    }
  }
}
