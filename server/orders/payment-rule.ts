import type { PaymentStatus } from './types';

// One provider payment of a store order, and the one rule that derives the order's payment status from its payments
// (docs/decisions.md, "Payments as records (issue 53)").

export type OnePaymentStatus = Exclude<PaymentStatus, 'none'>;

export interface PaymentRecord {
  reference: string;
  amountMinor: number;
  currency: string;
  status: OnePaymentStatus;
  refundedMinor: number;
  /** The provider's version of the last change applied to it (null when its events carry none). */
  version: number | null;
  occurredAt: Date;
  disputed: boolean;
}

/** What a provider event reports of one payment. */
export type PaymentEventKind = 'authorised' | 'paid' | 'captured' | 'captureFailed' | 'failed' | 'refunded' | 'disputed';

const STATUS_OF: Record<Exclude<PaymentEventKind, 'disputed' | 'refunded'>, OnePaymentStatus> = {
  authorised: 'authorised',
  paid: 'paid',
  captured: 'paid',
  captureFailed: 'failed',
  failed: 'failed',
};

/**
 * True when the payment already had a later change applied than this event, in the provider's order: by version
 * when both carry one, else by the provider's time. A dispute is not a change of the payment (it moves neither its
 * version nor its time), so it never makes a refund or a failure that follows it stale.
 */
export function staleFor(p: PaymentRecord | null, e: { version: number | null; occurredAt: Date }): boolean {
  if (!p) return false;
  if (p.version !== null && e.version !== null) return e.version <= p.version;
  return e.occurredAt.getTime() < p.occurredAt.getTime();
}

/**
 * One payment after a provider event, or null when it does not move it: a full refund is final; a paid payment moves
 * only when the provider takes money back (failed, refunded in part or whole); an authorisation or a capture after
 * paid changes nothing. A refund's `refundedMinor` is the provider's total refunded of the payment (absent: all of it).
 */
export function nextPayment(
  current: PaymentRecord | null,
  kind: Exclude<PaymentEventKind, 'disputed'>,
  amountMinor: number,
  refundedTotal: number | null,
): { status: OnePaymentStatus; refundedMinor: number } | null {
  const was = current?.status ?? null;
  if (was === 'refunded') return null;
  if (kind === 'refunded') {
    const amount = current?.amountMinor ?? amountMinor;
    // An authorisation (or a failed payment) given back holds no money: the whole of it.
    if (was === 'authorised' || was === 'failed') return { status: 'refunded', refundedMinor: amount };
    const refunded = Math.min(amount, Math.max(refundedTotal ?? amount, current?.refundedMinor ?? 0));
    if (current && refunded === current.refundedMinor) return null;
    return { status: refunded >= amount ? 'refunded' : 'partiallyRefunded', refundedMinor: refunded };
  }
  const next = STATUS_OF[kind];
  if (next === was) return null;
  if ((was === 'paid' || was === 'partiallyRefunded') && next !== 'failed') return null;
  return { status: next, refundedMinor: current?.refundedMinor ?? 0 };
}

/** Which status stands, highest first: a payment that holds money (or may) before one that ended. */
const PRECEDENCE: OnePaymentStatus[] = ['paid', 'partiallyRefunded', 'authorised', 'refunded', 'failed'];

/**
 * THE rule: the order's payment status is that of its standing payment, the first by PRECEDENCE (paid, partially
 * refunded, authorised, refunded, failed; none without payments). Every payment that reaches authorised or paid
 * covers the order's total (another amount is refused), so one paid payment keeps the order paid whatever its other
 * payments do (a declined second attempt, a refunded duplicate charge). The amount refunded is the standing
 * payment's (of two partly refunded, the one that keeps the most).
 */
export function orderPaymentOf(payments: PaymentRecord[]): { status: PaymentStatus; refundedMinor: number; reference: string | null } {
  let best: PaymentRecord | null = null;
  for (const p of payments) {
    if (!best) best = p;
    const rank = PRECEDENCE.indexOf(p.status) - PRECEDENCE.indexOf(best.status);
    if (rank < 0 || (rank === 0 && p.refundedMinor < best.refundedMinor)) best = p;
  }
  if (!best) return { status: 'none', refundedMinor: 0, reference: null };
  return { status: best.status, refundedMinor: best.status === 'failed' || best.status === 'authorised' ? 0 : best.refundedMinor, reference: best.reference };
}
