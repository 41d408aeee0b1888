import type { SupplierGateway } from '../connections';
import type { SupplierOrderSnapshot } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { Work } from './work';
import { cleanReviewMessage, reasonFor } from './review-reasons';
import { FINAL } from './state-machine';
import type { SupplierOrder } from './supplier-order';
import type { DispatchEvent } from './dispatch-event';

/** The cancel step of the dispatch job (./job.ts): its one write goes through the job's change. */
type Change = (so: SupplierOrder, e: DispatchEvent) => Promise<SupplierOrder>;

/**
 * Withdraws the order at the supplier, asking it first: the supplier may hold an order our record does not know
 * of, or may have shipped it. Shipped, known before or learnt during the cancel: paused as supplierAlreadyShipped,
 * with the shipment's carrier and tracking.
 */
export async function cancelAtSupplier({ so, conn }: Work, gateway: SupplierGateway, change: Change): Promise<SupplierOrder> {
  if (FINAL.has(so.status)) return change(so, { type: 'cancelRequestCleared' });
  if (so.status === 'shipped') return change(so, { type: 'cancelTooLate', answer: null });
  try {
    const answer = so.supplierOrderId
      ? await gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!))
      : conn.credentialsSealed && conn.enabled
        ? await gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber))
        : null;
    if (!answer || answer.status === 'cancelled') return change(so, { type: 'cancelled', answer, withdrawn: false });
    if (answer.status === 'shipped' || answer.status === 'delivered') return change(so, { type: 'cancelTooLate', answer });
    const after = await gateway.call(conn, (a, ctx) => a.cancelOrder(ctx, answer.supplierOrderId));
    return change(so, { type: 'cancelled', answer: after, withdrawn: true });
  } catch (err) {
    if (!(err instanceof SupplierError)) throw err;
    if (err.kind === 'notFound') return change(so, { type: 'cancelled', answer: null, withdrawn: false });
    // It shipped between our look and our cancel: its answer now carries the shipment.
    if (err.kind === 'alreadyShipped') return change(so, { type: 'cancelTooLate', answer: await shipment(gateway, so, conn).catch(() => null) });
    const reason = reasonFor(err);
    // The supplier refuses to withdraw it (for example once paid): a person decides.
    // A part a move brought here names where it came from: a person then sees both orders (the one before holds none).
    const before = so.earlier.map((e) => `${e.supplierKey} order ${e.supplierOrderNumber}`).join(', ');
    const from = before ? ` The part came here from ${before}, shown to hold no live order for it.` : '';
    if (reason) return change(so, { type: 'cancelRefused', reason, message: `The supplier refused to cancel: ${cleanReviewMessage(err.message)}${from}` });
    throw err; // a passing error: the queue retries the job
  }
}

function shipment(gateway: SupplierGateway, so: SupplierOrder, conn: Work['conn']): Promise<SupplierOrderSnapshot | null> {
  return so.supplierOrderId
    ? gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!))
    : gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber));
}
