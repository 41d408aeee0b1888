import { CLAIM_REASON_WORDS } from '../../platform/vocabulary/claims';
import type { SupplierOrder } from '../supplier-order';
import type { Claim } from './types';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A claim as the supplier order's history keeps it (the entries claimOpened, claimUpdated, claimClosed). */
export function claimDetails(c: Claim) {
  return {
    _id: c.id,
    via: c.via,
    reason: c.reason,
    expectation: c.expectation,
    items: c.items.map(({ itemId, sku, quantity }) => ({ itemId, sku, quantity })),
    status: c.status,
    supplierClaimId: c.supplierClaimId,
    supplierStatus: c.supplierStatus,
    deadline: iso(c.deadline),
    outcome: c.outcome,
  };
}

/**
 * What a person sends the supplier, ready to paste, for a supplier without a claims API: where, by when, the order as
 * the supplier knows it, the items, what happened and the evidence.
 */
export function evidencePack(c: Claim, so: SupplierOrder, where: string) {
  const items = c.items.map((i) => ({ sku: i.sku, supplierVariantId: i.supplierVariantId, quantity: i.quantity }));
  const lines = [
    `Order ${so.supplierOrderId ?? so.supplierOrderNumber} (our number ${so.supplierOrderNumber})${so.shipping ? `, shipped by ${so.shipping.carrier}, tracking ${so.shipping.trackingNumber}` : ''}.`,
    `${CLAIM_REASON_WORDS[c.reason]}: ${items.map((i) => `${i.quantity} x ${i.sku}`).join(', ')}.`,
    `We ask for a ${c.expectation}.`,
    ...(c.message ? [c.message] : []),
    ...(c.evidence.length ? [`Evidence: ${c.evidence.join(' ')}`] : []),
  ];
  return {
    where,
    deadline: iso(c.deadline),
    supplierOrderId: so.supplierOrderId,
    supplierOrderNumber: so.supplierOrderNumber,
    tracking: so.shipping,
    items,
    text: lines.join('\n'),
  };
}

/** A claim as the claim routes answer it (they add the connection, as the wire names it); a person's claim with its evidence pack. */
export function claimView(c: Claim, so: SupplierOrder, where: string) {
  return {
    ...claimDetails(c),
    storeId: c.storeId,
    supplierOrderId: c.supplierOrderId,
    orderId: c.orderId,
    supplierKey: c.supplierKey,
    message: c.message,
    evidence: c.evidence,
    cancelRequested: c.cancelRequested,
    evidencePack: c.via === 'person' ? evidencePack(c, so, where) : null,
    createdBy: c.actor,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    closedAt: iso(c.closedAt),
  };
}
