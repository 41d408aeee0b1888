import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Payments } from './runtime';
import { Refusal } from './refusal';
import type { Merchant, Payment } from './state';

type MerchantOf = (ctx: Context) => Merchant;
type PaymentOf = (ctx: Context, merchant: Merchant, from?: Payment['status'][]) => Payment;

/** What the provider shows of a payment: its status, what it charged (captures) and every capture request it had. */
export const paymentView = (payment: Payment) => ({
  id: payment.id,
  orderId: payment.orderId,
  amountMinor: payment.amountMinor,
  currency: payment.currency,
  status: payment.status,
  captures: payment.captures.map((c) => ({ ...c })),
  captureRequests: payment.captureRequests.map((r) => ({ ...r })),
  refunds: payment.refunds.map((r) => ({ ...r })),
  refundedMinor: payment.refundedMinor,
});

/** The answer to a capture request that acted: what the same idempotency key is answered from now on. */
function captureAnswer(p: Payments, merchant: Merchant, payment: Payment, key: string | null): { status: number; body: unknown } {
  if (payment.status === 'paid') return { status: 409, body: { error: { code: 'alreadyCaptured', message: 'The payment was captured before' } } };
  if (payment.status !== 'authorised') return { status: 409, body: { error: { code: 'invalidState', message: `The payment is ${payment.status}` } } };
  const refuse = p.state.faults.refuse;
  if (refuse && refuse.count > 0) {
    refuse.count--;
    if (refuse.count === 0) p.state.faults.refuse = null;
    const eventId = p.emit(merchant, payment, 'payment.captureFailed');
    // Declined in the answer, or taken and failed afterwards: either way the store's signed event says so.
    return refuse.mode === 'answer'
      ? { status: 402, body: { error: { code: 'captureDeclined', message: refuse.message }, eventId } }
      : { status: 202, body: { id: payment.id, status: 'capturing', eventId } };
  }
  return { status: 200, body: { id: payment.id, status: 'paid', eventId: p.emit(merchant, payment, 'payment.captured', key) } };
}

/**
 * Capturing an authorised payment, as a real provider offers it: `POST /v1/payments/:id/capture` with the merchant's key
 * and an `Idempotency-Key`. A key already used is answered as the first time, and acts only once; the capture is
 * recorded in the payment's own captures, and the store is sent `payment.captured` (or `payment.captureFailed`).
 */
export function captureRoutes(v1: Router, p: Payments, merchantOf: MerchantOf, paymentOf: PaymentOf): void {
  v1.get('/payments/:id', (ctx) => {
    ctx.body = paymentView(paymentOf(ctx, merchantOf(ctx)));
  });
  v1.post('/payments/:id/capture', (ctx) => {
    const merchant = merchantOf(ctx);
    const payment = paymentOf(ctx, merchant);
    const key = ctx.get('idempotency-key') || null;
    if (key !== null && key.length > 255) throw new Refusal(400, 'invalidIdempotencyKey', 'Idempotency-Key must be at most 255 characters');
    const at = new Date().toISOString();
    const faults = p.state.faults;
    if (faults.unavailable > 0) {
      faults.unavailable--;
      payment.captureRequests.push({ at, idempotencyKey: key, status: 503, replayed: false });
      ctx.status = 503;
      ctx.body = { error: { code: 'unavailable', message: 'The provider is unavailable; try again later' } };
      return;
    }
    const stored = key === null ? undefined : p.state.idempotent.get(`${merchant.id}:${key}`);
    if (stored && stored.paymentId !== payment.id) throw new Refusal(422, 'idempotencyKeyReused', 'This Idempotency-Key was used for another payment');
    const answer = stored ?? captureAnswer(p, merchant, payment, key);
    if (key !== null && !stored) p.state.idempotent.set(`${merchant.id}:${key}`, { paymentId: payment.id, ...answer });
    payment.captureRequests.push({ at, idempotencyKey: key, status: answer.status, replayed: !!stored });
    if (faults.loseAnswer > 0) {
      // Done here, but the answer never reaches the caller: as a network cut after the capture.
      faults.loseAnswer--;
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    if (stored) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = answer.status;
    ctx.body = answer.body;
  });
}
