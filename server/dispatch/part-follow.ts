import type { PartMove } from '../orders';
import { partStatusOf } from './state-machine';
import type { SupplierOrder } from './supplier-order';

/**
 * The order part after the change: it follows its supplier order (a late cancel's pause shows the part shipped, as
 * the goods are on their way, and needing a person for the return), or goes to the store once it took the part over.
 */
export function partMove(before: SupplierOrder, e: { type: string }, after: SupplierOrder): PartMove | null {
  switch (e.type) {
    case 'payRequested':
    case 'cancelRequested':
    case 'captureRequested':
    case 'rerouteRequested':
    case 'rerouteEnded':
      return null;
    case 'cancelRequestCleared':
      return before.storeTakesOver && after.status === 'cancelled' ? { kind: 'handToStore' } : null;
    case 'cancelled':
      if (before.storeTakesOver) return { kind: 'handToStore' };
  }
  const shippedAnyway = after.status === 'needsReview' && after.reviewReason === 'supplierAlreadyShipped';
  // The supplier was paid, so the goods go on (prepared, or shipped); it is the shopper's charge that waits for a person.
  const goodsGoOn = after.status === 'needsReview' && after.reviewReason === 'customerCaptureFailed';
  return {
    kind: 'follow',
    status: shippedAnyway || (goodsGoOn && after.shipping) ? 'shipped' : goodsGoOn ? 'processing' : partStatusOf(after.status),
    shipment: after.shipping ? { ...after.shipping, deliveredAt: after.status === 'delivered' ? after.updatedAt.toISOString() : null } : null,
    // Paused or failed, or its delivery needs a look (./delivery/): the store order's list of orders needing attention.
    needsAttention: after.status === 'needsReview' || after.status === 'failed' || !!after.delivery?.attention,
  };
}
