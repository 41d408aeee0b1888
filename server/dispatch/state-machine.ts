/**
 * Supplier order statuses and the one table of moves between them. Each row names the statuses an event may find a
 * supplier order in and the status it leaves it in; an event a row does not list for the record's status is refused.
 * `transition` (./transition.ts) reads this table for every change, and the one SQL write (./sql/write.ts `writeChange`)
 * checks the same table again before it writes; test/dispatch/transition.test.ts walks every status and event.
 */

import { SUPPLIER_ORDER_STATUSES, type SupplierOrderStatus } from '../platform/vocabulary/statuses';

export { SUPPLIER_ORDER_STATUSES, type SupplierOrderStatus };

/**
 * What may happen to a supplier order. Requests (create, retry, pay, cancel) come from callers, the sweeper and the
 * order events; the rest are what the dispatch job learnt: the supplier's answer (one event per status the supplier
 * reports), a pause with its review reason, a passing error, the shopper's capture asked of the payment provider
 * (or refused by it), or the end of a cancel.
 */
export const EVENTS = [
  'create',
  'retry',
  'automaticRetry',
  'payRequested',
  'cancelRequested',
  'supplierCreated',
  'supplierPaid',
  'supplierProcessing',
  'supplierShipped',
  'supplierDelivered',
  'supplierCancelled',
  'paused',
  'failed',
  'captureRequested',
  'captureFailed',
  'cancelled',
  'cancelRefused',
  'cancelTooLate',
  'cancelRequestCleared',
  'rerouteRequested',
  'rerouted',
  'rerouteEnded',
  'routedAway',
  'deliveryWatched',
  'attentionAcknowledged',
  'claimRecorded',
  'returnRecorded',
] as const;
export type MoveEvent = (typeof EVENTS)[number];

/** Before the record exists. */
const NONE = 'none';
/** The status does not change (only the record's fields, or a request flag). */
export const SAME = 'same';

export interface Move {
  from: ReadonlyArray<SupplierOrderStatus | typeof NONE>;
  event: MoveEvent;
  to: SupplierOrderStatus | typeof SAME;
  /** The payment statuses the record must have for the move; absent: any. */
  payment?: readonly SupplierPaymentStatus[];
}

const row = (from: Move['from'], event: MoveEvent, to: Move['to'], payment?: Move['payment']): Move => ({ from, event, to, ...(payment ? { payment } : {}) });

/** Not final, not shipped, not paused or failed: where the supplier's progress and the dispatch job's work happen. */
const OPEN = ['queued', 'submitted', 'confirmed', 'processing'] as const;
/** Still withdrawable: everything before the supplier ships. */
const CANCELLABLE = ['queued', 'needsReview', 'failed', 'submitted', 'confirmed', 'processing'] as const;

export const MOVE_TABLE: readonly Move[] = [
  // from                                                                   event                   to              payment
  row([NONE], 'create', 'queued'),
  row(['queued', 'needsReview', 'failed'], 'retry', 'queued'),
  row(['failed'], 'automaticRetry', 'queued'),
  row(['submitted'], 'payRequested', SAME, ['unpaid']),
  // A cancel is asked of anything not final; after the supplier shipped it ends in a pause (cancelTooLate).
  row([...CANCELLABLE, 'shipped'], 'cancelRequested', SAME),

  // The supplier's answer moves the status forwards only; a paused or failed order keeps its status (a paused
  // order never clears by itself), and so does one already further on: only the supplier's fields are refreshed.
  row(['queued'], 'supplierCreated', 'submitted'),
  row(['submitted', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled', 'needsReview', 'failed'], 'supplierCreated', SAME),
  row(['queued', 'submitted'], 'supplierPaid', 'confirmed'),
  row(['confirmed', 'processing', 'shipped', 'delivered', 'cancelled', 'needsReview', 'failed'], 'supplierPaid', SAME),
  row(['queued', 'submitted', 'confirmed'], 'supplierProcessing', 'processing'),
  row(['processing', 'shipped', 'delivered', 'cancelled', 'needsReview', 'failed'], 'supplierProcessing', SAME),
  row(OPEN, 'supplierShipped', 'shipped'),
  row(['shipped', 'delivered', 'cancelled', 'needsReview', 'failed'], 'supplierShipped', SAME),
  row([...OPEN, 'shipped'], 'supplierDelivered', 'delivered'),
  row(['delivered', 'cancelled', 'needsReview', 'failed'], 'supplierDelivered', SAME),
  row(OPEN, 'supplierCancelled', 'cancelled'),
  row(['shipped', 'delivered', 'cancelled', 'needsReview', 'failed'], 'supplierCancelled', SAME),

  // What the dispatch job decided.
  // A failed order waiting for its automatic retry may be paused for a person instead (the database went back in time).
  row([...OPEN, 'failed'], 'paused', 'needsReview'),
  row(['queued'], 'failed', 'failed'),
  row(['confirmed', 'processing', 'shipped', 'delivered'], 'captureRequested', SAME, ['paid']),
  // The supplier was paid but the shopper cannot be charged: a person is told at once (a delivered order stays final).
  row(['confirmed', 'processing', 'shipped'], 'captureFailed', 'needsReview', ['paid']),
  row(['delivered'], 'captureFailed', SAME, ['paid']),
  row(CANCELLABLE, 'cancelled', 'cancelled'),
  row(CANCELLABLE, 'cancelRefused', 'needsReview'),
  row([...CANCELLABLE, 'shipped'], 'cancelTooLate', 'needsReview'),
  row(['delivered', 'cancelled'], 'cancelRequestCleared', SAME),

  // Rerouting to a backup supplier: asked of a paused order (by its connection's rule, or a person); it ends with
  // the items moved to an alternate (this order cancelled, once the first supplier provably holds no live order for
  // them), or with the pause standing and the alternates tried in its message.
  row(['needsReview'], 'rerouteRequested', SAME),
  row(['needsReview'], 'rerouted', 'cancelled'),
  row(['needsReview'], 'rerouteEnded', SAME),

  // Routing at dispatch, before the first create: another supplier chosen, the items moved to that supplier's order in
  // one transaction, this one cancelled (the choice rides on a change's write: ./carry.ts).
  row(['queued'], 'routedAway', 'cancelled'),

  // After shipping (./delivery/, ./claims/): the delivery watch's look, a person's acknowledgement of it, and a claim's
  // history entry. None moves the status.
  row([...SUPPLIER_ORDER_STATUSES], 'deliveryWatched', SAME),
  row([...SUPPLIER_ORDER_STATUSES], 'attentionAcknowledged', SAME),
  row([...SUPPLIER_ORDER_STATUSES], 'claimRecorded', SAME),
  // A return on the store's side (./returns/): the route checks the part shipped; the status stays.
  row([...SUPPLIER_ORDER_STATUSES], 'returnRecorded', SAME),
];

/** The row of the table for this status, payment status and event; undefined when the move is not allowed. */
export function moveOf(from: SupplierOrderStatus | null, payment: SupplierPaymentStatus | null, event: MoveEvent): Move | undefined {
  const status = from ?? NONE;
  return MOVE_TABLE.find((m) => m.event === event && m.from.includes(status) && (!m.payment || (payment !== null && m.payment.includes(payment))));
}

/** Every status each status may move to (a status kept is not a move), read from the table. */
export const MOVES: Readonly<Record<SupplierOrderStatus, readonly SupplierOrderStatus[]>> = Object.fromEntries(
  SUPPLIER_ORDER_STATUSES.map((from) => [
    from,
    [...new Set(MOVE_TABLE.filter((m) => m.from.includes(from) && m.to !== SAME && m.to !== from).map((m) => m.to as SupplierOrderStatus))],
  ]),
) as Record<SupplierOrderStatus, SupplierOrderStatus[]>;

/** How far along the supplier's own progress is; the table never moves an order to a lower rank on a supplier's answer. */
export const PROGRESS_RANK: Readonly<Record<SupplierOrderStatus, number>> = {
  queued: 0,
  needsReview: 0,
  failed: 0,
  submitted: 1,
  confirmed: 2,
  processing: 3,
  shipped: 4,
  delivered: 5,
  cancelled: 6,
};

export class ImpossibleMoveError extends Error {
  constructor(
    readonly from: SupplierOrderStatus | null,
    readonly to: SupplierOrderStatus | MoveEvent,
  ) {
    super(`A supplier order cannot move from ${from ?? 'nothing'} ${SUPPLIER_ORDER_STATUSES.includes(to as SupplierOrderStatus) ? 'to' : 'on'} ${to}.`);
  }
}

/** Whether the table has a move from `from` to `to` (keeping a status is always allowed). */
export function canMove(from: SupplierOrderStatus | null, to: SupplierOrderStatus): boolean {
  if (from === null) return MOVE_TABLE.some((m) => m.from.includes(NONE) && m.to === to);
  return from === to || MOVES[from].includes(to);
}

export function assertMove(from: SupplierOrderStatus | null, to: SupplierOrderStatus): void {
  if (!canMove(from, to)) throw new ImpossibleMoveError(from, to);
}

export const FINAL: ReadonlySet<SupplierOrderStatus> = new Set(['delivered', 'cancelled']);

/** The order part's status that follows from its supplier order's status. */
export function partStatusOf(status: SupplierOrderStatus): 'pending' | 'processing' | 'shipped' | 'delivered' | 'cancelled' {
  switch (status) {
    case 'queued':
    case 'needsReview':
    case 'failed':
      return 'pending';
    case 'submitted':
    case 'confirmed':
    case 'processing':
      return 'processing';
    default:
      return status;
  }
}

/** The supplier's side of the payment of a supplier order. */
export type SupplierPaymentStatus = 'notRequired' | 'unpaid' | 'paid' | 'refunded';
