import type { DataSource } from 'typeorm';
import type { Actor } from '../identity/permissions';
import { errors } from '../platform/errors';
import type { PaymentAttentionReason, PaymentStatus, StoreOrder } from './types';
import type { OrderService } from './service';
import { orderInStore } from './sql/orders';
import { paymentsOfOrders, type StoredPayment } from './sql/order-payments';
import * as sql from './sql/payments';
import { applyProviderEvent, PROVIDER, type ProviderEventOutcome, type ProviderPaymentEvent } from './provider-events';

export type { ProviderPaymentEvent } from './provider-events';

/**
 * The shopper's payment on a store order. `paymentStatus` moves only on the payment provider's signed events: that
 * is the "confirmed by the payment provider" automatic supplier payment requires (dispatch reads it). A staff
 * member's mark is recorded as `manual`: it confirms the order and shows in its history, and moves nothing else.
 * Under promise to sell the service asks the provider to capture (server/payments/capture.ts); it records that it
 * asked (or that the provider refused), but the payment is paid only once the provider's signed event says so.
 */
export class OrderPayments {
  constructor(
    private readonly db: DataSource,
    private readonly orders: OrderService,
  ) {}

  /**
   * Records the provider's event, and applies it unless the provider already reported a later change that was applied
   * (its sequence: ../../docs/decisions.md, "Payment events in the provider's order"): a stale event is kept in the
   * history, marked so, and moves nothing.
   */
  async recordProviderEvent(order: StoreOrder, event: ProviderPaymentEvent): Promise<ProviderEventOutcome> {
    return applyProviderEvent(this.db, this.orders, order, event);
  }

  /**
   * The payment a capture takes: one whose capture was asked already (asked again, its key answers the same), else
   * the earliest still authorised (the one the order was confirmed on, never a later duplicate); `paid` when a
   * payment of the order is paid. Each payment is captured under its own key (server/payments/capture.ts).
   */
  async capturable(storeId: string, orderId: string): Promise<{ status: PaymentStatus; reference: string | null } | null> {
    const order = await orderInStore(this.db, storeId, orderId);
    if (!order) return null;
    const all = await paymentsOfOrders(this.db, storeId, [orderId]);
    const paid = all.find((p) => p.status === 'paid' || p.status === 'partiallyRefunded');
    if (paid) return { status: 'paid', reference: paid.reference };
    const asked = new Set(await sql.captureAskedOf(this.db, storeId, orderId));
    const authorised = all.filter((p) => p.status === 'authorised' && p.reference);
    const take = authorised.find((p) => asked.has(p.reference)) ?? authorised[0];
    return { status: take ? 'authorised' : order.paymentStatus, reference: take?.reference ?? null };
  }

  /** The order's payments as the provider reported them, of several orders of one store. */
  async paymentsOf(storeId: string, orderIds: string[]): Promise<Map<string, StoredPayment[]>> {
    const out = new Map<string, StoredPayment[]>(orderIds.map((id) => [id, []]));
    for (const p of await paymentsOfOrders(this.db, storeId, orderIds, { beforeMigration: true })) out.get(p.orderId)?.push(p);
    return out;
  }

  /**
   * The service asks the provider to capture (recorded before it asks, once per payment), or the provider refused: a
   * refusal after a supplier part shipped needs a person, the goods are gone, pausing the part holds nothing back.
   */
  async recordCapture(storeId: string, orderId: string, kind: 'captureRequested' | 'captureFailed', reference: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = (await sql.lockPaymentStatus(tx, storeId, orderId)).status;
      const fresh = await sql.insertPaymentEvent(tx, { storeId, orderId, kind, source: 'service', reference });
      if (!fresh || kind !== 'captureFailed' || !(await sql.supplierPartShipped(tx, storeId, orderId))) return;
      await sql.setPaymentStatus(tx, storeId, orderId, current, current, {
        reportedAs: 'captureRefused',
        attention: 'captureRefusedAfterShipped',
        reaction: null,
        actor: PROVIDER,
      });
    });
  }

  /** A refund a person asked of the provider (recorded before it is asked), or the provider's refusal of it. */
  async recordRefund(
    order: StoreOrder,
    kind: 'refundRequested' | 'refundFailed',
    e: { reference: string; amountMinor: number; note: string | null },
    actor: Actor,
  ): Promise<void> {
    await sql.insertPaymentEvent(this.db, {
      storeId: order.storeId,
      orderId: order.id,
      kind,
      source: 'manual',
      amountMinor: e.amountMinor,
      reference: e.reference,
      note: e.note,
      actor,
    });
  }

  /**
   * A person looked at the payment needing attention for `reason`: it clears, and their note (and who) stays in the
   * history. A reason that arrived meanwhile is not cleared under a note about another (409 attentionChanged).
   */
  async acknowledgeAttention(order: StoreOrder, reason: PaymentAttentionReason, note: string, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const was = await sql.clearPaymentAttention(tx, order.storeId, order.id, reason);
      if (!was) throw errors.conflict('noPaymentAttention', "The order's payment needs no attention: there is nothing to acknowledge.");
      if (was !== reason) throw errors.conflict('attentionChanged', `The order's payment now needs attention for ${was}, not ${reason}: look at it again.`);
      await sql.insertPaymentEvent(tx, {
        storeId: order.storeId,
        orderId: order.id,
        kind: 'attentionAcknowledged',
        source: 'manual',
        note,
        attention: reason,
        actor,
      });
    });
  }

  /** Cash, a bank transfer: a person says the shopper paid. Marking twice changes nothing the second time. */
  async markPaid(order: StoreOrder, input: { reference?: string; amountMinor?: number }, actor: Actor): Promise<void> {
    if (order.status === 'cancelled') throw errors.invalidState('A cancelled order cannot be marked paid.');
    if (['paid', 'partiallyRefunded', 'refunded'].includes(order.paymentStatus))
      throw errors.invalidState(`The payment provider already reported this order ${order.paymentStatus}.`);
    await this.db.transaction(async (tx) => {
      if (!(await sql.markPaid(tx, order.storeId, order.id))) return;
      await sql.insertPaymentEvent(tx, {
        storeId: order.storeId,
        orderId: order.id,
        kind: 'paid',
        source: 'manual',
        amountMinor: input.amountMinor ?? null,
        reference: input.reference ?? null,
        actor,
      });
      await this.orders.confirmIn(tx, order.storeId, order.id, actor);
    });
  }

  /** Each order's payment history (orders of one store), oldest first: who said what, when. */
  async history(storeId: string, orderIds: string[]): Promise<Map<string, PaymentHistoryEntry[]>> {
    const out = new Map<string, PaymentHistoryEntry[]>(orderIds.map((id) => [id, []]));
    if (!orderIds.length) return out;
    for (const r of await sql.paymentEventsOf(this.db, storeId, orderIds)) {
      out.get(r.order_id)!.push({
        kind: r.kind,
        source: r.source,
        amountMinor: r.amount_minor === null ? null : Number(r.amount_minor),
        reference: r.reference,
        actor: r.actor,
        at: r.created_at.toISOString(),
        ...(r.fee_minor !== null ? { fee: { amountMinor: Number(r.fee_minor), currency: r.fee_currency! } } : {}),
        ...(r.stale ? { stale: true } : {}),
        ...(r.note !== null ? { note: r.note } : {}),
        ...(r.attention !== null ? { attentionReason: r.attention } : {}),
      });
    }
    return out;
  }
}

interface PaymentHistoryEntry {
  kind: string;
  source: 'provider' | 'manual' | 'service';
  amountMinor: number | null;
  reference: string | null;
  actor: Actor | null;
  at: string;
  /** The provider's fee for this charge, as it reported it. */
  fee?: { amountMinor: number; currency: string };
  /** A provider event that arrived after a later one was applied: recorded, not applied. */
  stale?: true;
  /** An acknowledgement: the person's note and the reason it cleared. */
  note?: string;
  attentionReason?: string;
}
