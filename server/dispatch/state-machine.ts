/**
 * Supplier order statuses and the only moves between them. Every write of a status goes through
 * `assertMove`, so an impossible move cannot be written; the tests walk this table.
 */
export const SUPPLIER_ORDER_STATUSES = ['queued', 'needsReview', 'submitted', 'confirmed', 'processing', 'shipped', 'delivered', 'cancelled', 'failed'] as const;
export type SupplierOrderStatus = (typeof SUPPLIER_ORDER_STATUSES)[number];

export const MOVES: Readonly<Record<SupplierOrderStatus, readonly SupplierOrderStatus[]>> = {
  // Waiting to be sent: the dispatch job either places it, pauses it, or meets a passing error.
  queued: ['submitted', 'confirmed', 'processing', 'shipped', 'delivered', 'needsReview', 'failed', 'cancelled'],
  // Paused: only a retry (back to queued) or a cancel moves it; it never clears by itself.
  needsReview: ['queued', 'cancelled'],
  // A passing error: the background retry or a caller's retry queues it again; retries run out into review.
  failed: ['queued', 'needsReview', 'cancelled'],
  // Created at the supplier, not paid: paid (confirmed), paused (a payment refused), or read back further on.
  submitted: ['confirmed', 'processing', 'shipped', 'delivered', 'needsReview', 'cancelled'],
  confirmed: ['processing', 'shipped', 'delivered', 'needsReview', 'cancelled'],
  processing: ['shipped', 'delivered', 'needsReview', 'cancelled'],
  // After shipping only delivery remains; a cancel that comes too late pauses the order elsewhere, not here.
  shipped: ['delivered'],
  delivered: [],
  cancelled: [],
};

/** How far along the supplier's own progress is; a read-back never moves an order to a lower rank. */
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
    readonly from: SupplierOrderStatus,
    readonly to: SupplierOrderStatus,
  ) {
    super(`A supplier order cannot move from ${from} to ${to}.`);
  }
}

export function canMove(from: SupplierOrderStatus, to: SupplierOrderStatus): boolean {
  return MOVES[from].includes(to);
}

export function assertMove(from: SupplierOrderStatus, to: SupplierOrderStatus): void {
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
