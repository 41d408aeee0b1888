import type { OrderPayments, OrderService, ProviderPaymentEvent } from '../orders';
import type { Logger } from '../platform/logger';
import type { PaymentProviders } from './providers';
import { verifySignedNotification } from './signature';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;
/** The provider's event types (Standard Webhooks `type`) and what each reports. */
export const PAYMENT_EVENT_TYPES: Record<string, ProviderPaymentEvent['kind']> = {
  'payment.authorised': 'authorised',
  'payment.paid': 'paid',
  'payment.captured': 'captured',
  'payment.captureFailed': 'captureFailed',
  'payment.failed': 'failed',
  'payment.refunded': 'refunded',
  'payment.disputed': 'disputed',
  // A refund of part of the payment: `data.refundedMinor` says how much of it is refunded in all.
  'payment.partiallyRefunded': 'refunded',
};

type Headers = Record<string, string | string[] | undefined>;
const one = (h: Headers, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The event a verified body describes, or null when it is not one we know. */
function readEvent(rawBody: string, eventId: string): (ProviderPaymentEvent & { orderId: string }) | null {
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const { type, timestamp, data } = (body ?? {}) as { type?: unknown; timestamp?: unknown; data?: Record<string, unknown> };
  const kind = typeof type === 'string' && Object.hasOwn(PAYMENT_EVENT_TYPES, type) ? PAYMENT_EVENT_TYPES[type] : undefined;
  if (!kind || !data || typeof data !== 'object') return null;
  const { orderId, amountMinor, currency, paymentId, version, fee, refundedMinor } = data;
  // When the provider says it happened (in the signed body, not the delivery's header): what orders its events.
  const occurredAt = typeof timestamp === 'string' && ISO_TIME.test(timestamp) ? new Date(timestamp) : null;
  if (!occurredAt || Number.isNaN(occurredAt.getTime())) return null;
  if (version !== undefined && (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1 || version > 2_000_000_000)) return null;
  if (typeof orderId !== 'string' || !UUID.test(orderId)) return null;
  if (typeof amountMinor !== 'number' || !Number.isSafeInteger(amountMinor) || amountMinor < 0) return null;
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) return null;
  if (paymentId !== undefined && (typeof paymentId !== 'string' || paymentId.length > 200)) return null;
  // A refund says how much of the payment the provider has refunded in all (absent: the whole of it).
  if (
    refundedMinor !== undefined &&
    (typeof refundedMinor !== 'number' || !Number.isSafeInteger(refundedMinor) || refundedMinor < 1 || refundedMinor > amountMinor)
  )
    return null;
  // The provider's fee, when it reports one (optional; a malformed one is left out, the event still counts).
  const f = fee && typeof fee === 'object' ? (fee as Record<string, unknown>) : null;
  const feeOk =
    f &&
    typeof f.amountMinor === 'number' &&
    Number.isSafeInteger(f.amountMinor) &&
    f.amountMinor >= 0 &&
    typeof f.currency === 'string' &&
    /^[A-Z]{3}$/.test(f.currency);
  return {
    kind,
    orderId,
    amountMinor,
    currency,
    reference: paymentId ?? null,
    eventId,
    occurredAt,
    version: version ?? null,
    fee: feeOk ? { amountMinor: f.amountMinor as number, currency: f.currency as string } : null,
    refundedMinor: kind === 'refunded' ? (refundedMinor ?? null) : null,
  };
}

/**
 * The payment provider's notification address: a store's shopper payments arrive here, signed with the store's
 * own secret. Every refusal is the same answer; an error while deciding is thrown (answered 503: the provider sends
 * again). A verified event is recorded once per event id (a repeat is acknowledged and changes nothing).
 */
export class PaymentNotifications {
  constructor(
    private readonly providers: PaymentProviders,
    private readonly orders: OrderService,
    private readonly payments: OrderPayments,
    private readonly log: Logger,
  ) {}

  async receive(storeId: string, rawBody: string | undefined, headers: Headers): Promise<'accepted' | 'refused'> {
    if (!UUID.test(storeId) || rawBody === undefined) return 'refused';
    const secret = await this.providers.signingSecretOf(storeId);
    if (!secret) return 'refused';
    const eventId = verifySignedNotification(secret, rawBody, {
      id: one(headers, 'webhook-id'),
      timestamp: one(headers, 'webhook-timestamp'),
      signature: one(headers, 'webhook-signature'),
    });
    if (!eventId) return 'refused';
    const event = readEvent(rawBody, eventId);
    if (!event) return 'refused';
    // Only an order of the store whose secret signed the notification.
    const order = await this.orders.byId(storeId, event.orderId);
    if (!order) return 'refused';
    const outcome = await this.payments.recordProviderEvent(order, event);
    this.log.info({ storeId, orderId: order.id, eventId, kind: event.kind, outcome }, 'payment notification');
    return outcome === 'amountMismatch' ? 'refused' : 'accepted';
  }
}
