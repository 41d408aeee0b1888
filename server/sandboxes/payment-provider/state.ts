import { randomBytes } from 'node:crypto';

/** A merchant account at the sandbox payment provider: one per store (the demo store uses DEMO_MERCHANT). */
export interface Merchant {
  id: string;
  apiKey: string;
  notificationUrl: string | null;
  signingSecret: string | null;
}

export interface Payment {
  id: string;
  merchantId: string;
  orderId: string;
  amountMinor: number;
  currency: string;
  status: 'authorised' | 'paid' | 'failed' | 'refunded';
  /** Goes up by one with each change of the payment (each event sent): the store orders this payment's events by it. */
  version: number;
  /** The provider's own record of what it charged: one entry per capture it made (never two for one payment). */
  captures: Array<{ at: string; idempotencyKey: string | null; amountMinor: number }>;
  /** Every capture request it received, with the status it answered (replays and refusals included). */
  captureRequests: Array<{ at: string; idempotencyKey: string | null; status: number; replayed: boolean }>;
  /** What it refunded, each refund once (a repeated Idempotency-Key is answered from the first). */
  refunds: Array<{ at: string; idempotencyKey: string | null; amountMinor: number }>;
  refundedMinor: number;
}

export type EventType =
  | 'payment.authorised'
  | 'payment.paid'
  | 'payment.captured'
  | 'payment.captureFailed'
  | 'payment.failed'
  | 'payment.refunded'
  | 'payment.partiallyRefunded'
  | 'payment.disputed';

/** The payment's status after each event. */
export const STATUS_AFTER: Record<EventType, Payment['status']> = {
  'payment.authorised': 'authorised',
  'payment.paid': 'paid',
  'payment.captured': 'paid',
  'payment.captureFailed': 'failed',
  'payment.failed': 'failed',
  'payment.refunded': 'refunded',
  // Refunded in part: the rest stays charged (and may be refunded later).
  'payment.partiallyRefunded': 'paid',
  // A dispute leaves the charge as it is until it is decided (a refund, or nothing).
  'payment.disputed': 'paid',
};

/**
 * Faults for the next capture requests (the control API sets them): refused (declined in the answer, or accepted
 * and then failed in a signed event), unavailable (503, nothing done), or captured with the answer lost on the way.
 */
export interface CaptureFaults {
  refuse: { count: number; message: string; mode: 'answer' | 'event' } | null;
  unavailable: number;
  loseAnswer: number;
  /** The next refunds are made, their answers lost on the way. */
  loseRefundAnswer: number;
}

export const noCaptureFaults = (): CaptureFaults => ({ refuse: null, unavailable: 0, loseAnswer: 0, loseRefundAnswer: 0 });

export interface SentEvent {
  id: string;
  merchantId: string;
  type: EventType;
  /** The exact bytes sent, the same on every attempt (only the timestamp and signature change). */
  body: string;
  attempts: Array<{ at: string; status: number | null; error?: string }>;
  /** A 2xx answer came back. */
  delivered: boolean;
}

/** The built-in merchant account, so the demo survives restarts of this in-memory sandbox. */
export const DEMO_MERCHANT = { id: 'mer_demo', apiKey: 'spk_demo' } as const;

const id = (prefix: string, bytes = 12) => `${prefix}_${randomBytes(bytes).toString('hex')}`;

/** Everything the sandbox payment provider knows, in memory: it forgets all but the demo merchant on restart. */
export class PaymentsState {
  readonly merchants = new Map<string, Merchant>();
  readonly payments = new Map<string, Payment>();
  readonly events = new Map<string, SentEvent>();
  /** Answers kept per merchant and idempotency key: the same key is answered the same, and acts once. */
  readonly idempotent = new Map<string, { paymentId: string; status: number; body: unknown }>();
  faults: CaptureFaults = noCaptureFaults();

  constructor() {
    this.merchants.set(DEMO_MERCHANT.apiKey, { ...DEMO_MERCHANT, notificationUrl: null, signingSecret: null });
  }

  createMerchant(): Merchant {
    const m: Merchant = { id: id('mer', 8), apiKey: id('spk', 24), notificationUrl: null, signingSecret: null };
    this.merchants.set(m.apiKey, m);
    return m;
  }

  merchantByKey(apiKey: string): Merchant | undefined {
    return this.merchants.get(apiKey);
  }

  merchantById(merchantId: string): Merchant | undefined {
    return [...this.merchants.values()].find((m) => m.id === merchantId);
  }

  /** A new signing secret each time: setting the address again rotates it. */
  setNotificationAddress(m: Merchant, url: string): string {
    m.notificationUrl = url;
    m.signingSecret = `whsec_${randomBytes(24).toString('base64')}`;
    return m.signingSecret;
  }

  addPayment(p: Omit<Payment, 'id' | 'captures' | 'captureRequests' | 'version' | 'refunds' | 'refundedMinor'>): Payment {
    const payment: Payment = { ...p, id: id('pay'), version: 0, captures: [], captureRequests: [], refunds: [], refundedMinor: 0 };
    this.payments.set(payment.id, payment);
    return payment;
  }

  /**
   * The event for a payment as it is now; its body never changes afterwards. `timestamp` is when the change happened
   * here and `data.version` the payment's version after it: signed, so the store can put late deliveries in order.
   */
  eventFor(payment: Payment, type: EventType): SentEvent {
    const event: SentEvent = {
      id: id('evt'),
      merchantId: payment.merchantId,
      type,
      body: JSON.stringify({
        type,
        timestamp: new Date().toISOString(),
        data: {
          orderId: payment.orderId,
          paymentId: payment.id,
          amountMinor: payment.amountMinor,
          currency: payment.currency,
          version: payment.version,
          ...(CHARGED.has(type) ? { fee: feeOf(payment.amountMinor, payment.currency) } : {}),
          ...(type === 'payment.refunded' || type === 'payment.partiallyRefunded' ? { refundedMinor: payment.refundedMinor } : {}),
        },
      }),
      attempts: [],
      delivered: false,
    };
    this.events.set(event.id, event);
    return event;
  }
}

/** The events that charge the shopper: the sandbox reports its fee on them, as real providers report theirs. */
const CHARGED = new Set<EventType>(['payment.paid', 'payment.captured']);

/** The sandbox's fee: 2.9% of the amount (rounded half up) plus 30 minor units, in the payment's currency. */
export function feeOf(amountMinor: number, currency: string): { amountMinor: number; currency: string } {
  return { amountMinor: Math.floor((amountMinor * 29 + 500) / 1000) + 30, currency };
}
