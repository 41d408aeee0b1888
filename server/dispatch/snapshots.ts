import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import type { Actor } from '../identity/permissions';
import type { SupplierOrder } from './entities';
import { Change, Fields, partOf } from './records';
import { assertMove, PROGRESS_RANK, SupplierOrderStatus } from './state-machine';

/** The supplier's order status, in our words. */
const SNAPSHOT_STATUS: Record<SupplierOrderSnapshot['status'], SupplierOrderStatus> = {
  created: 'submitted',
  paid: 'confirmed',
  processing: 'processing',
  shipped: 'shipped',
  delivered: 'delivered',
  cancelled: 'cancelled',
};

/** The supplier's fields of a supplier order, as its answer gives them. */
export function snapshotFields(so: SupplierOrder, snap: SupplierOrderSnapshot): Fields {
  return {
    supplierOrderId: snap.supplierOrderId,
    supplierStatus: snap.supplierStatus,
    costs: snap.costs,
    shipping: snap.shipping,
    paymentStatus: snap.paid ? 'paid' : snap.status === 'cancelled' && so.paymentStatus === 'paid' ? 'refunded' : so.paymentStatus,
    numberKnownAbsent: false,
  };
}

/**
 * What the supplier says of our order, as a change of the record: ids, costs, payment, shipping, and the status,
 * which only moves forwards, and never out of a pause or a failure (a paused order does not clear by itself).
 */
export function snapshotChange(so: SupplierOrder, snap: SupplierOrderSnapshot, actor: Actor, type: string, details: Record<string, unknown> = {}, extra: Fields = {}): Change {
  const fields = { ...snapshotFields(so, snap), ...extra };
  const target = SNAPSHOT_STATUS[snap.status];
  const advance = so.status === 'queued' || (PROGRESS_RANK[target] > PROGRESS_RANK[so.status] && !['needsReview', 'failed'].includes(so.status));
  const to = advance ? target : so.status;
  if (to !== so.status) assertMove(so.status, to);
  return { from: [so.status], to, fields, actor, type, details: { supplierStatus: snap.supplierStatus, ...details }, part: partOf(to, fields.shipping ?? so.shipping) };
}
