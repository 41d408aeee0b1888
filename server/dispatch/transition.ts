import type { Actor } from '../identity/permissions';
import type { DeliveryWatch } from '../connections';
import type { PartMove } from '../orders';
import type { DeliveryAttentionReason } from '../platform/vocabulary/delivery';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { REVIEW_REASONS, ReviewReason } from './review-reasons';
import { ImpossibleMoveError, moveOf, MoveEvent, SAME, SupplierOrderStatus } from './state-machine';
import { partMove } from './part-follow';
import { watchedChange } from './delivery/effect';
import type { DeliveryState } from './delivery/types';
import type { EventType } from '../events';
import type { LandedCost } from './landed';
import { nextStep, Step } from './steps';
import { rerouteMessage } from './reroute-message';
import { EarlierOrder, NewSupplierOrder, RerouteRequest, RerouteTry, RoutingChoice, SupplierOrder, supplierOrderNumber } from './supplier-order';

export const SYSTEM: Actor = { kind: 'system', id: null };

/** Something that happens to a supplier order: a request, or what the dispatch job learnt (see MOVE_TABLE). */
export type DispatchEvent =
  /** `reroutedFrom`: made by a reroute (what the history records of it); `tried`: the alternates tried before, carried. */
  | { type: 'create'; record: NewSupplierOrder; actor: Actor; trigger: string; reroutedFrom?: Record<string, unknown>; tried?: RerouteTry[]; routing?: RoutingChoice; earlier?: EarlierOrder[] }
  | { type: 'retry'; actor: Actor; acceptCost?: { costMinor: number | null }; resumed?: 'exchangeRateAvailable' }
  | { type: 'automaticRetry' }
  | { type: 'payRequested'; actor: Actor }
  | { type: 'cancelRequested'; actor: Actor; storeTakesOver: boolean }
  /**
   * The supplier's view of our order; `history` names how we learnt it (createdAtSupplier, paid, readBack, ...);
   * `landed`: the part's landed costs this answer records (at confirmation, accepted, paid: ./landed.ts).
   */
  | { type: 'supplierAnswered'; answer: SupplierOrderSnapshot; history: string; details?: Record<string, unknown>; paymentDue?: boolean; payRequestDone?: boolean; landed?: LandedCost[]; watch?: DeliveryWatch }
  /** The delivery watch (./delivery/): a threshold came due (the sweep), or a person acknowledged the attention; the status stays. */
  | { type: 'deliveryWatched'; watch: DeliveryWatch }
  | { type: 'attentionAcknowledged'; actor: Actor; reason: DeliveryAttentionReason; watch: DeliveryWatch }
  /** A claim with the supplier (./claims/) goes to the history, with its event; the status stays. */
  | { type: 'claimRecorded'; actor: Actor; kind: 'claimOpened' | 'claimUpdated' | 'claimClosed'; details: Record<string, unknown> }
  /** `numberUnused`: the supplier refused the create, so the number was never used. */
  | { type: 'paused'; reason: ReviewReason; message: string; details?: Record<string, unknown>; numberUnused?: boolean; reroute?: RerouteRequest }
  | { type: 'failed'; error: string; message: string; retryInSeconds: number }
  /** The payment provider took the request to capture the shopper's payment (`reference`: its payment id). */
  | { type: 'captureRequested'; reference: string | null }
  /** The shopper cannot be charged: the provider refused the capture (its answer or its signed event). */
  | { type: 'captureFailed'; message: string }
  /** `withdrawn`: cancelled at the supplier just now; otherwise the supplier had it cancelled, or never had it. */
  | { type: 'cancelled'; answer: SupplierOrderSnapshot | null; withdrawn: boolean }
  | { type: 'cancelRefused'; reason: ReviewReason; message: string }
  | { type: 'cancelTooLate'; answer: SupplierOrderSnapshot | null }
  | { type: 'cancelRequestCleared' }
  | { type: 'rerouteRequested'; actor: Actor; request: RerouteRequest }
  /** The items went to `to` (the alternate's new supplier order); `details`: from, to, reason, cost difference. */
  | { type: 'rerouted'; actor: Actor; to: string; details: Record<string, unknown>; answer: SupplierOrderSnapshot | null }
  /** No alternate could take the items: the pause stands, its message listing each tried and why. */
  | { type: 'rerouteEnded'; tried: RerouteTry[]; message: string; reason?: ReviewReason }
  /** Routing's move (./sourcing/move.ts): the items gone to the chosen order (the choice rides on the write: ./carry.ts). */
  | { type: 'routedAway'; to: string; details: Record<string, unknown> };

export type Fields = Partial<Omit<SupplierOrder, 'id' | 'status' | 'storeId' | 'orderId' | 'groupKey' | 'createdAt' | 'updatedAt'>>;

/** One change of a supplier order, as ./sql/write.ts `writeChange` writes it in one statement. */
export interface Change {
  id: string;
  /** The status the record must still have (compare and set); null: the change makes the record. */
  from: SupplierOrderStatus | null;
  to: SupplierOrderStatus;
  /** The columns that change besides the status. */
  fields: Fields;
  /**
   * What else the record must still hold, decided by the same compare and set: a person's request waits for no
   * reroute under way (`noReroute`); a reroute's request and its move find no cancel asked (`noCancel`), and the move
   * its request still standing (`reroute`). One winner between a reroute and a person, decided in the database.
   */
  guard: Array<'noReroute' | 'noCancel' | 'reroute'>;
  /** A change the delivery watch decided writes only over the delivery state it read (two sweeps, a sweep and a read-back). */
  deliveryWas?: DeliveryState | null;
  /** The delivery watch's event, besides the status's (./delivery/effect.ts). */
  alsoEvent?: EventType | null;
  history: { actor: Actor; type: string; details: Record<string, unknown> };
  /** How the order part moves with it (orders' `partMove`, through its `PartMoves`, in the same statement); null: it does not. */
  part: PartMove | null;
  /** The part's landed costs recorded with the change (one row per stage, written once: ./sql/write.ts). */
  landed: LandedCost[];
  /** The record as it reads once written, and the step then due. */
  after: SupplierOrder;
  next: Step | null;
}

const GUARDS: Partial<Record<DispatchEvent['type'], Change['guard']>> = {
  // A person's cancel waits on no machine: it ends a reroute under way (whose move then finds it: `noCancel`).
  retry: ['noReroute'], payRequested: ['noReroute'],
  rerouteRequested: ['noReroute', 'noCancel'],
  rerouted: ['reroute', 'noCancel'],
  routedAway: ['noReroute', 'noCancel'],
};

/** The supplier's order status, as the table's event. */
const ANSWER_EVENT: Record<SupplierOrderSnapshot['status'], MoveEvent> = {
  created: 'supplierCreated',
  paid: 'supplierPaid',
  processing: 'supplierProcessing',
  shipped: 'supplierShipped',
  delivered: 'supplierDelivered',
  cancelled: 'supplierCancelled',
};

/**
 * The one transition: what `e` does to `so` (null before the record exists). Refuses (ImpossibleMoveError) any
 * event the table does not allow for the record's status and payment status; otherwise answers the next status,
 * the fields that change (payment status included), the history event, the part's move and the step then due.
 */
export function transition(so: SupplierOrder | null, e: DispatchEvent, now = new Date()): Change {
  const event = e.type === 'supplierAnswered' ? ANSWER_EVENT[e.answer.status] : e.type;
  const move = moveOf(so?.status ?? null, so?.paymentStatus ?? null, event);
  if (!move) throw new ImpossibleMoveError(so?.status ?? null, event);
  const base = so ?? newRecord((e as Extract<DispatchEvent, { type: 'create' }>).record, now);
  const to = move.to === SAME ? base.status : move.to;
  const { fields, history } = effect(base, e, now);
  if (e.type === 'create' && e.tried?.length) base.rerouteTried = e.tried;
  // Made by routing's move: the choice travels with the items, so the chosen supplier's order is not routed again.
  if (e.type === 'create' && e.routing) base.routing = e.routing;
  // Made by a move: every order the part was at before goes with it (./sourcing/absence.ts asks them again).
  if (e.type === 'create' && e.earlier) base.earlier = e.earlier;
  let after: SupplierOrder = { ...base, ...fields, status: to, updatedAt: now };
  const watched = so && (e.type === 'supplierAnswered' || e.type === 'deliveryWatched' || e.type === 'attentionAcknowledged') ? watchedChange(so, e, after, now, to !== so.status || history.type === 'packageReturned') : null;
  if (watched) {
    Object.assign(fields, watched.fields);
    after = { ...after, ...watched.fields };
    Object.assign(history, watched.history ?? { details: { ...history.details, ...watched.details } });
  }
  const landed = e.type === 'supplierAnswered' ? (e.landed ?? []) : [];
  if (landed.length) history.details = { ...history.details, landedCosts: landed.map(({ stage, currency, totalMinor, storeCurrency, storeTotalMinor, rate }) => ({ stage, currency, totalMinor, storeCurrency, storeTotalMinor, rate })) };
  const delivery = watched ? { deliveryWas: watched.was, alsoEvent: watched.also } : {};
  return { id: base.id, from: so?.status ?? null, to, fields, guard: GUARDS[e.type] ?? [], history, part: partMove(base, e, after), landed, after, next: nextStep(after), ...delivery };
}

/** A passing error: failed, retried after a backoff while retries remain; then, or with the circuit open, a pause. */
export function failure(so: SupplierOrder, err: { kind: string; message: string; circuitOpen: boolean }, settings: { retryLimit: number; retryBaseSeconds: number }): DispatchEvent {
  const used = so.retriesUsed + 1;
  if (err.circuitOpen) return { type: 'paused', reason: 'connectionUnhealthy', message: err.message };
  if (used > settings.retryLimit) return { type: 'paused', reason: 'connectionUnhealthy', message: `The supplier did not answer after ${settings.retryLimit} retries: ${err.message}` };
  return { type: 'failed', error: err.kind, message: err.message, retryInSeconds: settings.retryBaseSeconds * 2 ** (used - 1) };
}

function newRecord(r: NewSupplierOrder, now: Date): SupplierOrder {
  return {
    ...r, status: 'queued', reviewReason: null, reviewMessage: null, retryable: null, supplierOrderNumber: supplierOrderNumber(r.id, 1), numberKnownAbsent: false,
    supplierOrderId: null, supplierStatus: null, costs: null, paymentStatus: 'unpaid', shipping: null, attempt: 1, payRequested: false, cancelRequested: false,
    paymentDue: false, captureRequested: false, storeTakesOver: false, acceptedCostMinor: null, rerouteRequest: null, rerouteTried: [], reroutedTo: null, returns: [], routing: null, earlier: [], delivery: null, deliveryDueAt: null, reshipOf: r.reshipOf ?? null, retriesUsed: 0, nextRetryAt: null, createdAt: now, updatedAt: now,
  };
}

/** What the supplier says of our order: its ids, status, costs, shipping and payment. */
function answerFields(so: SupplierOrder, a: SupplierOrderSnapshot): Fields {
  const paymentStatus = a.paid ? 'paid' : a.status === 'cancelled' && so.paymentStatus === 'paid' ? 'refunded' : so.paymentStatus;
  return { supplierOrderId: a.supplierOrderId, supplierStatus: a.supplierStatus, costs: a.costs, shipping: a.shipping, paymentStatus, numberKnownAbsent: false };
}

const review = (reason: ReviewReason, message: string): Fields => ({ reviewReason: reason, reviewMessage: message.slice(0, 500), retryable: REVIEW_REASONS[reason].retryable, payRequested: false });
// A cancel that won over a reroute asked meanwhile (by the rule's pause) ends that request too.
const WITHDRAWN: Fields = { cancelRequested: false, storeTakesOver: false, rerouteRequest: null };
const TOO_LATE = 'The cancel came after the supplier shipped the order; handle it as a return.';

function effect(so: SupplierOrder, e: DispatchEvent, now: Date): { fields: Fields; history: Change['history'] } {
  const by = (actor: Actor, type: string, details: Record<string, unknown> = {}) => ({ actor, type, details });
  switch (e.type) {
    case 'create':
      return { fields: {}, history: by(e.actor, 'created', { trigger: e.trigger, ...(e.record.payNow ? { payNow: true } : {}), ...(e.reroutedFrom ? { reroutedFrom: e.reroutedFrom } : {}) }) };
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
      return { fields, history: by(e.actor, e.storeTakesOver ? 'fulfilManuallyRequested' : 'cancelRequested', so.rerouteRequest ? { rerouteWithdrawn: true } : {}) };
    }
    case 'supplierAnswered': {
      const fields: Fields = { ...answerFields(so, e.answer), ...(e.paymentDue !== undefined ? { paymentDue: e.paymentDue } : {}), ...(e.payRequestDone ? { payRequested: false } : {}) };
      // A package returned to the supplier is recorded once, whatever answer first tells it (event supplierOrder.returned).
      const known = new Set(so.returns.map((r) => r.trackingNumber));
      const returned = (e.answer.returns ?? []).filter((r) => !known.has(r.trackingNumber)).map((r) => ({ carrier: r.carrier, trackingNumber: r.trackingNumber, at: now.toISOString() }));
      if (returned.length) {
        fields.returns = [...so.returns, ...returned];
        return { fields, history: by(SYSTEM, 'packageReturned', { supplierStatus: e.answer.supplierStatus, via: e.history, returned: returned.map(({ carrier, trackingNumber }) => ({ carrier, trackingNumber })), ...e.details }) };
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
      return { fields: { ...review('customerCaptureFailed', `The supplier was paid, but charging the shopper failed. ${e.message}`), captureRequested: false }, history: by(SYSTEM, 'paused', { reason: 'customerCaptureFailed' }) };
    case 'cancelled': {
      const fields = { ...(e.answer ? answerFields(so, e.answer) : {}), cancelRequested: false, rerouteRequest: null };
      return { fields, history: e.withdrawn ? by(SYSTEM, 'cancelledAtSupplier', { supplierStatus: e.answer?.supplierStatus }) : by(SYSTEM, 'cancelled', { atSupplier: !!e.answer }) };
    }
    case 'cancelRefused':
      return { fields: { ...review(e.reason, e.message), ...WITHDRAWN }, history: by(SYSTEM, 'paused', { reason: e.reason }) };
    case 'cancelTooLate':
      return { fields: { ...(e.answer ? answerFields(so, e.answer) : {}), ...review('supplierAlreadyShipped', TOO_LATE), ...WITHDRAWN }, history: by(SYSTEM, 'paused', { reason: 'supplierAlreadyShipped' }) };
    case 'cancelRequestCleared':
      return { fields: { cancelRequested: false }, history: by(SYSTEM, 'cancelRequestCleared') };
    case 'rerouteRequested':
      return { fields: { rerouteRequest: e.request }, history: by(e.actor, 'rerouteRequested', { reason: e.request.reason, ...(e.request.connectionId ? { connectionId: e.request.connectionId } : {}) }) };
    case 'rerouted':
      return { fields: { ...(e.answer ? answerFields(so, e.answer) : {}), rerouteRequest: null, reroutedTo: e.to, retryable: false }, history: by(e.actor, 'rerouted', e.details) };
    case 'routedAway':
      return { fields: { reroutedTo: e.to, retryable: false }, history: by(SYSTEM, 'routedAway', e.details) };
    case 'deliveryWatched':
      return { fields: {}, history: by(SYSTEM, 'deliveryWatched') };
    case 'attentionAcknowledged':
      return { fields: {}, history: by(e.actor, 'deliveryAttentionCleared', { reason: e.reason }) };
    case 'claimRecorded':
      return { fields: {}, history: by(e.actor, e.kind, e.details) };
    case 'rerouteEnded': {
      // Spread, not Object.assign: the compiler checks each field's type (a reason's flags are not its retryable).
      const fields: Fields = {
        rerouteRequest: null, reviewMessage: rerouteMessage(so.reviewMessage, e.message, e.tried), rerouteTried: [...so.rerouteTried, ...e.tried],
        ...(e.reason ? { reviewReason: e.reason, retryable: REVIEW_REASONS[e.reason].retryable } : {}),
      };
      return { fields, history: by(SYSTEM, 'rerouteFailed', { tried: e.tried, message: e.message, ...(e.reason ? { reason: e.reason } : {}) }) };
    }
  }
}
