import type { PartReturn } from './types';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const refundView = (r: PartReturn) =>
  r.refund
    ? {
        amountMinor: r.refund.amountMinor,
        currency: r.refund.currency,
        status: r.refund.status,
        idempotencyKey: `refund:${r.refund.key}`,
        paymentReference: r.refund.paymentReference,
        message: r.refund.message,
        requestedAt: iso(r.refund.requestedAt),
      }
    : null;

/** A return as the supplier order's history keeps it (the entries returnRecorded and returnUpdated). */
export function returnDetails(r: PartReturn) {
  return { _id: r.id, reason: r.reason, items: r.items, claimId: r.claimId, refund: refundView(r) };
}

/**
 * The money of a return: the refund to the shopper (unless refused), the credit the supplier gave on its claim (in the
 * store's currency at its recorded rate; null when none, or none in the order's currency) and the net of the two.
 */
export interface ReturnMoney {
  currency: string;
  refundMinor: number;
  supplierCreditMinor: number | null;
  netMinor: number;
}

/** A return as the return routes answer it. */
export function returnView(r: PartReturn, money: ReturnMoney | null) {
  return {
    ...returnDetails(r),
    storeId: r.storeId,
    supplierOrderId: r.supplierOrderId,
    orderId: r.orderId,
    note: r.note,
    money,
    createdBy: r.actor,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
