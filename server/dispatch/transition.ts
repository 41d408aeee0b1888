import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { ImpossibleMoveError, moveOf, MoveEvent, SAME } from './state-machine';
import { partMove } from './part-follow';
import { watchedChange } from './delivery/effect';
import { nextStep } from './steps';
import { NewSupplierOrder, SupplierOrder, supplierOrderNumber } from './supplier-order';
import type { DispatchEvent } from './dispatch-event';
import type { Change } from './change';
import { effect } from './effect';

const GUARDS: Partial<Record<DispatchEvent['type'], Change['guard']>> = {
  // A person's cancel waits on no machine: it ends a reroute under way (whose move then finds it: `noCancel`).
  retry: ['noReroute'],
  payRequested: ['noReroute'],
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
  const watched =
    so && (e.type === 'supplierAnswered' || e.type === 'deliveryWatched' || e.type === 'attentionAcknowledged')
      ? watchedChange(so, e, after, now, to !== so.status || history.type === 'packageReturned')
      : null;
  if (watched) {
    Object.assign(fields, watched.fields);
    after = { ...after, ...watched.fields };
    Object.assign(history, watched.history ?? { details: { ...history.details, ...watched.details } });
  }
  const landed = e.type === 'supplierAnswered' ? (e.landed ?? []) : [];
  if (landed.length)
    history.details = {
      ...history.details,
      landedCosts: landed.map(({ stage, currency, totalMinor, storeCurrency, storeTotalMinor, rate }) => ({
        stage,
        currency,
        totalMinor,
        storeCurrency,
        storeTotalMinor,
        rate,
      })),
    };
  const delivery = watched ? { deliveryWas: watched.was, alsoEvent: watched.also } : {};
  return {
    id: base.id,
    from: so?.status ?? null,
    to,
    fields,
    guard: GUARDS[e.type] ?? [],
    history,
    part: partMove(base, e, after),
    landed,
    after,
    next: nextStep(after),
    ...delivery,
  };
}

/** A passing error: failed, retried after a backoff while retries remain; then, or with the circuit open, a pause. */
export function failure(
  so: SupplierOrder,
  err: { kind: string; message: string; circuitOpen: boolean },
  settings: { retryLimit: number; retryBaseSeconds: number },
): DispatchEvent {
  const used = so.retriesUsed + 1;
  if (err.circuitOpen) return { type: 'paused', reason: 'connectionUnhealthy', message: err.message };
  if (used > settings.retryLimit)
    return { type: 'paused', reason: 'connectionUnhealthy', message: `The supplier did not answer after ${settings.retryLimit} retries: ${err.message}` };
  return { type: 'failed', error: err.kind, message: err.message, retryInSeconds: settings.retryBaseSeconds * 2 ** (used - 1) };
}

function newRecord(r: NewSupplierOrder, now: Date): SupplierOrder {
  return {
    ...r,
    status: 'queued',
    reviewReason: null,
    reviewMessage: null,
    retryable: null,
    supplierOrderNumber: supplierOrderNumber(r.id, 1),
    numberKnownAbsent: false,
    supplierOrderId: null,
    supplierStatus: null,
    costs: null,
    paymentStatus: 'unpaid',
    shipping: null,
    attempt: 1,
    payRequested: false,
    cancelRequested: false,
    paymentDue: false,
    captureRequested: false,
    storeTakesOver: false,
    acceptedCostMinor: null,
    rerouteRequest: null,
    rerouteTried: [],
    reroutedTo: null,
    returns: [],
    routing: null,
    earlier: [],
    delivery: null,
    deliveryDueAt: null,
    reshipOf: r.reshipOf ?? null,
    retriesUsed: 0,
    nextRetryAt: null,
    createdAt: now,
    updatedAt: now,
  };
}
