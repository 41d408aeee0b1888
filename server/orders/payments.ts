import type { DataSource } from 'typeorm';
import type { Actor } from '../identity/permissions';
import { errors } from '../platform/errors';
import type { PaymentAttentionReason, PaymentStatus, StoreOrder } from './types';
import type { OrderService } from './service';
import { orderInStore } from './sql/orders';
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
}

type ProviderEventOutcome = 'applied' | 'stale' | 'duplicate' | 'amountMismatch';

const STATUS_OF: Record<Exclude<ProviderPaymentEvent['kind'], 'disputed'>, PaymentStatus> = { authorised: 'authorised', paid: 'paid', captured: 'paid', captureFailed: 'failed', failed: 'failed', refunded: 'refunded' };

/**
 * The shopper's payment status after a provider event: a refund is final; a paid payment moves only when the provider
 * takes it back (failed or refunded); events may arrive out of order, so an authorisation after the capture changes nothing.
 */
function nextPaymentStatus(current: PaymentStatus, kind: Exclude<ProviderPaymentEvent['kind'], 'disputed'>): PaymentStatus | null {
  const next = STATUS_OF[kind];
  if (current === 'refunded' || next === current) return null;
  if (current === 'paid' && next !== 'failed' && next !== 'refunded') return null;
  return next;
}

/**
 * A payment taken back after it was paid, or (promise to sell) after the supplier was paid on its authorisation,
 * needs a person: the supplier is paid, the goods may be on their way.
 */
function attentionFor(from: PaymentStatus, to: PaymentStatus, supplierPaid: boolean): PaymentAttentionReason | null {
  if (to !== 'failed' && to !== 'refunded') return null;
  if (from === 'paid') return to === 'failed' ? 'paymentFailedAfterPaid' : 'refundedAfterPaid';
  if (from === 'authorised' && supplierPaid) return to === 'failed' ? 'paymentFailedAfterSupplierPaid' : 'refundedAfterSupplierPaid';
  return null;
}

const PROVIDER: Actor = { kind: 'system', id: null };

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
    // An authorisation or capture for another amount is not this order's payment.
    if (['paid', 'captured', 'authorised'].includes(event.kind) && (event.amountMinor !== order.totalMinor || event.currency !== order.currency)) return 'amountMismatch';
    return this.db.transaction(async (tx) => {
      const current = await sql.lockPaymentStatus(tx, order.storeId, order.id);
      const stale = await sql.laterEventApplied(tx, order.storeId, order.id, event);
      // A dispute leaves the status as it is (the provider's refund or failure follows if the shopper wins) but needs a person.
      const disputed = event.kind === 'disputed' && !stale && (current === 'paid' || current === 'authorised');
      const next = stale || event.kind === 'disputed' ? null : nextPaymentStatus(current, event.kind);
      const fresh = await sql.insertPaymentEvent(tx, {
        storeId: order.storeId, orderId: order.id, kind: event.kind, source: 'provider', amountMinor: event.amountMinor, reference: event.reference, providerEventId: event.eventId,
        occurredAt: event.occurredAt, version: event.version, applied: next !== null || disputed, stale, fee: event.fee ?? null,
      });
      if (!fresh) return 'duplicate';
      if (disputed) await sql.setPaymentStatus(tx, order.storeId, order.id, current, current, { reportedAs: 'disputed', attention: 'paymentDisputed', reaction: null, actor: PROVIDER });
      if (!next) return stale ? 'stale' : 'applied';
      const promise = order.contractModel === 'promiseToSell';
      const attention = attentionFor(current, next, promise && current === 'authorised' && (await sql.supplierPaidOn(tx, order.storeId, order.id)));
      // Under promise to sell an authorisation starts sending; one failed or refunded means the shopper cannot be
      // charged: a supplier already paid on the promise waits for a person. Other domains react to these events.
      const reaction = next === 'authorised' ? 'storeOrder.authorised' : (next === 'failed' || next === 'refunded') && current === 'authorised' && promise ? 'storeOrder.captureFailed' : null;
      await sql.setPaymentStatus(tx, order.storeId, order.id, current, next, { reportedAs: event.kind, attention, reaction, actor: PROVIDER, reference: event.reference });
      // An online payment that is paid confirms a pending order.
      if (next === 'paid' && order.paymentMethod === 'online' && order.status !== 'cancelled') await this.orders.confirmIn(tx, order.storeId, order.id, PROVIDER);
      return 'applied';
    });
  }

  /** What a capture of the order's payment needs: its status as the provider reported it, and the payment it was authorised on. */
  async capturable(storeId: string, orderId: string): Promise<{ status: PaymentStatus; reference: string | null } | null> {
    const order = await orderInStore(this.db, storeId, orderId);
    return order ? { status: order.paymentStatus, reference: await sql.paymentReferenceOf(this.db, storeId, orderId) } : null;
  }

  /**
   * The service asked the provider to capture (or the provider refused in its answer): recorded once per payment. A
   * refusal after a supplier part shipped needs a person: the goods are gone, pausing the part holds nothing back.
   */
  async recordCapture(storeId: string, orderId: string, kind: 'captureRequested' | 'captureFailed', reference: string | null): Promise<void> {
    await this.db.transaction(async (tx) => {
      const current = await sql.lockPaymentStatus(tx, storeId, orderId);
      const fresh = await sql.insertPaymentEvent(tx, { storeId, orderId, kind, source: 'service', reference });
      if (!fresh || kind !== 'captureFailed' || !(await sql.supplierPartShipped(tx, storeId, orderId))) return;
      await sql.setPaymentStatus(tx, storeId, orderId, current, current, { reportedAs: 'captureRefused', attention: 'captureRefusedAfterShipped', reaction: null, actor: PROVIDER });
    });
  }

  /** A person looked at the payment needing attention: it clears, and their note (and who) stays in the history. */
  async acknowledgeAttention(order: StoreOrder, note: string, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const reason = await sql.clearPaymentAttention(tx, order.storeId, order.id);
      if (!reason) throw errors.conflict('noPaymentAttention', 'The order\'s payment needs no attention: there is nothing to acknowledge.');
      await sql.insertPaymentEvent(tx, { storeId: order.storeId, orderId: order.id, kind: 'attentionAcknowledged', source: 'manual', note, attention: reason, actor });
    });
  }

  /** Cash, a bank transfer: a person says the shopper paid. Marking twice changes nothing the second time. */
  async markPaid(order: StoreOrder, input: { reference?: string; amountMinor?: number }, actor: Actor): Promise<void> {
    if (order.status === 'cancelled') throw errors.invalidState('A cancelled order cannot be marked paid.');
    if (order.paymentStatus === 'paid' || order.paymentStatus === 'refunded') throw errors.invalidState(`The payment provider already reported this order ${order.paymentStatus}.`);
    await this.db.transaction(async (tx) => {
      if (!(await sql.markPaid(tx, order.storeId, order.id))) return;
      await sql.insertPaymentEvent(tx, { storeId: order.storeId, orderId: order.id, kind: 'paid', source: 'manual', amountMinor: input.amountMinor ?? null, reference: input.reference ?? null, actor });
      await this.orders.confirmIn(tx, order.storeId, order.id, actor);
    });
  }

  /** Each order's payment history (orders of one store), oldest first: who said what, when. */
  async history(storeId: string, orderIds: string[]): Promise<Map<string, PaymentHistoryEntry[]>> {
    const out = new Map<string, PaymentHistoryEntry[]>(orderIds.map((id) => [id, []]));
    if (!orderIds.length) return out;
    for (const r of await sql.paymentEventsOf(this.db, storeId, orderIds)) {
      out.get(r.order_id)!.push({
        kind: r.kind, source: r.source, amountMinor: r.amount_minor === null ? null : Number(r.amount_minor), reference: r.reference, actor: r.actor, at: r.created_at.toISOString(),
        ...(r.fee_minor !== null ? { fee: { amountMinor: Number(r.fee_minor), currency: r.fee_currency! } } : {}), ...(r.stale ? { stale: true } : {}), ...(r.note !== null ? { note: r.note } : {}), ...(r.attention !== null ? { attentionReason: r.attention } : {}),
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
