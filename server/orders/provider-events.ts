import type { DataSource } from 'typeorm';
import type { Actor } from '../identity/permissions';
import type { PaymentAttentionReason, PaymentStatus, StoreOrder } from './types';
import type { OrderService } from './service';
import { orderPaymentOf, nextPayment, staleFor } from './payment-rule';
import { appendRefundDelta, paymentsOfOrders, savePayment } from './sql/order-payments';
import * as sql from './sql/payments';

/** A payment event as the payment provider reported it in a signed notification (server/payments). */
export interface ProviderPaymentEvent {
  /** captured: an authorisation charged (paid); captureFailed: a capture the provider refused (the payment failed); disputed: the shopper disputes a charge (the status stays). */
  kind: 'authorised' | 'paid' | 'captured' | 'captureFailed' | 'failed' | 'refunded' | 'disputed';
  amountMinor: number;
  currency: string;
  /** The provider's own id of the payment. */
  reference: string | null;
  /** The provider's id of this event: an event recorded before is not applied again. */
  eventId: string;
  /** The provider's order of its events (signed in the body): when it happened there, and the payment's version after it. */
  occurredAt: Date;
  version: number | null;
  /** The provider's fee for this charge, when it reports one. */
  fee?: { amountMinor: number; currency: string } | null;
  /** A refund: the provider's total refunded of the payment after it (absent: all of it). */
  refundedMinor?: number | null;
}

export type ProviderEventOutcome = 'applied' | 'stale' | 'duplicate' | 'amountMismatch';

/**
 * A payment taken back after it was paid, or (promise to sell) after the supplier was paid on its authorisation,
 * needs a person: the supplier is paid, the goods may be on their way. A refund in part keeps the order's sale: none.
 */
function attentionFor(from: PaymentStatus, to: PaymentStatus, supplierPaid: boolean): PaymentAttentionReason | null {
  if (to !== 'failed' && to !== 'refunded') return null;
  if (from === 'paid' || from === 'partiallyRefunded') return to === 'failed' ? 'paymentFailedAfterPaid' : 'refundedAfterPaid';
  if (from === 'authorised' && supplierPaid) return to === 'failed' ? 'paymentFailedAfterSupplierPaid' : 'refundedAfterSupplierPaid';
  return null;
}

export const PROVIDER: Actor = { kind: 'system', id: null };

/** Applies one provider event to its payment, by reference and version, and derives the order's status from all its payments. */
export async function applyProviderEvent(db: DataSource, orders: OrderService, order: StoreOrder, event: ProviderPaymentEvent): Promise<ProviderEventOutcome> {
  // An authorisation or capture for another amount is not this order's payment.
  if (['paid', 'captured', 'authorised'].includes(event.kind) && (event.amountMinor !== order.totalMinor || event.currency !== order.currency))
    return 'amountMismatch';
  return db.transaction(async (tx) => {
    const before = await sql.lockPaymentStatus(tx, order.storeId, order.id);
    const all = await paymentsOfOrders(tx, order.storeId, [order.id]);
    const reference = event.reference ?? '';
    const payment = all.find((p) => p.reference === reference) ?? null;
    // Each payment's events are ordered by that payment's own sequence: another payment's events never make them stale.
    const stale = staleFor(payment, event);
    const standing = payment && payment.status !== 'failed' && payment.status !== 'refunded';
    // A dispute leaves the status as it is (the provider's refund or failure follows if the shopper wins) but needs a person.
    const disputed = event.kind === 'disputed' && !stale && !!standing;
    const next = stale || event.kind === 'disputed' ? null : nextPayment(payment, event.kind, event.amountMinor, event.refundedMinor ?? null);
    const refundedNow = next && event.kind === 'refunded' ? next.refundedMinor - (payment?.refundedMinor ?? 0) : null;
    const fresh = await sql.insertPaymentEvent(tx, {
      storeId: order.storeId,
      orderId: order.id,
      kind: event.kind,
      source: 'provider',
      amountMinor: refundedNow ?? event.amountMinor,
      reference: event.reference,
      providerEventId: event.eventId,
      occurredAt: event.occurredAt,
      version: event.version,
      applied: next !== null || disputed,
      stale,
      fee: event.fee ?? null,
    });
    if (!fresh) return 'duplicate';
    if (disputed) {
      await savePayment(tx, order.storeId, order.id, { ...payment!, disputed: true });
      await sql.setPaymentStatus(tx, order.storeId, order.id, before.status, before.status, {
        reportedAs: 'disputed',
        attention: 'paymentDisputed',
        reaction: null,
        actor: PROVIDER,
        reference: event.reference,
      });
    }
    if (!next) return stale ? 'stale' : 'applied';
    const moved = {
      reference,
      amountMinor: payment?.amountMinor ?? event.amountMinor,
      currency: payment?.currency ?? event.currency,
      disputed: payment?.disputed ?? false,
      ...next,
      version: event.version ?? payment?.version ?? null,
      occurredAt: event.occurredAt,
    };
    await savePayment(tx, order.storeId, order.id, moved);
    const after = orderPaymentOf([...all.filter((p) => p.reference !== reference), moved]);
    // A refund takes its amount out of the order's revenue in the profit report, in this transaction.
    if (after.refundedMinor > before.refundedMinor) await appendRefundDelta(tx, order.storeId, order.id, after.refundedMinor - before.refundedMinor);
    if (after.status === before.status && after.refundedMinor === before.refundedMinor) return 'applied';
    const from = before.status;
    const to = after.status;
    const promise = order.contractModel === 'promiseToSell';
    const attention = attentionFor(from, to, promise && from === 'authorised' && (await sql.supplierPaidOn(tx, order.storeId, order.id)));
    // Under promise to sell an authorisation starts sending; one failed or refunded means the shopper cannot be
    // charged: a supplier already paid on the promise waits for a person. Other domains react to these events.
    const reaction =
      to === 'authorised' && from !== 'authorised'
        ? 'storeOrder.authorised'
        : (to === 'failed' || to === 'refunded') && from === 'authorised' && promise
          ? 'storeOrder.captureFailed'
          : null;
    const reportedAs = event.kind === 'refunded' && next.status === 'partiallyRefunded' ? 'partiallyRefunded' : event.kind;
    await sql.setPaymentStatus(tx, order.storeId, order.id, from, to, {
      reportedAs,
      attention,
      reaction,
      actor: PROVIDER,
      reference: event.reference,
      refundedMinor: after.refundedMinor,
    });
    // An online payment that is paid confirms a pending order.
    if (to === 'paid' && from !== 'paid' && order.paymentMethod === 'online' && order.status !== 'cancelled')
      await orders.confirmIn(tx, order.storeId, order.id, PROVIDER);
    return 'applied';
  });
}
