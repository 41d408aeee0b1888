import type { Actor } from '../../identity/permissions';
import type { ReturnReason, ReturnRefundStatus } from '../../platform/vocabulary/returns';

export type { ReturnReason, ReturnRefundStatus };

/** One returned item of the part, by the store order's item. */
export interface ReturnItem {
  itemId: string;
  sku: string;
  quantity: number;
}

/**
 * The shopper's refund of a return, in minor units of the store order's currency. `key` is the return's own key at
 * the payment provider, recorded before the provider is first asked and used every time it is asked.
 */
export interface ReturnRefund {
  amountMinor: number;
  currency: string;
  status: ReturnRefundStatus;
  key: string;
  paymentReference: string | null;
  /** Why it was refused, or why its answer is not known yet (sent again under the same key). */
  message: string | null;
  requestedAt: Date | null;
}

/** A return on the store's side of some of a part's items: why, the claim with the supplier it goes with, the refund. */
export interface PartReturn {
  id: string;
  storeId: string;
  supplierOrderId: string;
  orderId: string;
  reason: ReturnReason;
  note: string;
  items: ReturnItem[];
  claimId: string | null;
  refund: ReturnRefund | null;
  /** Who recorded it; a refund sent again acts on the authority of whoever asks then (the route's permissions). */
  createdByAccountId: string;
  createdByKeyId: string | null;
  actor: Actor;
  createdAt: Date;
  updatedAt: Date;
}
