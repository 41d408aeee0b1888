import Router from '@koa/router';
import type { Context } from 'koa';
import { captureRoutes } from './capture';
import { chargeInput } from './charge';
import { Refusal } from './refusal';
import type { Payments } from './runtime';
import { type Merchant, type Payment, STATUS_AFTER } from './state';

/** The merchant API: accounts, the notification address, payments and what became of them, the delivery log. */
export function v1Router(p: Payments): Router {
  const v1 = new Router({ prefix: '/v1' });
  v1.post('/merchants', (ctx) => {
    const m = p.state.createMerchant();
    ctx.status = 201;
    ctx.body = { merchantId: m.id, apiKey: m.apiKey };
  });
  const merchantOf = (ctx: Context): Merchant => {
    const m = /^Bearer (.+)$/.exec(ctx.get('authorization'));
    const merchant = m ? p.state.merchantByKey(m[1]) : undefined;
    if (!merchant) throw new Refusal(401, 'unauthenticated', 'Send the merchant API key as Authorization: Bearer <key>');
    return merchant;
  };
  const body = (ctx: Context) => (ctx.request.body ?? {}) as Record<string, unknown>;
  v1.put('/notification-address', (ctx) => {
    const merchant = merchantOf(ctx);
    const { url } = body(ctx);
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new Refusal(400, 'invalidUrl', 'url must be an http(s) address');
    ctx.body = { url, signingSecret: p.state.setNotificationAddress(merchant, url) };
  });
  v1.post('/payments', (ctx) => {
    const merchant = merchantOf(ctx);
    const input = chargeInput(body(ctx));
    const { capture = true, decline = false } = body(ctx);
    const payment = p.state.addPayment({ ...input, merchantId: merchant.id, status: 'authorised' });
    const eventId = p.emit(merchant, payment, decline === true ? 'payment.failed' : capture === false ? 'payment.authorised' : 'payment.paid');
    ctx.status = 201;
    ctx.body = { id: payment.id, status: payment.status, eventId };
  });
  const paymentOf = (ctx: Context, merchant: Merchant, from?: Payment['status'][]) => {
    const payment = p.state.payments.get(ctx.params.id);
    if (!payment || payment.merchantId !== merchant.id) throw new Refusal(404, 'notFound', 'No such payment');
    if (from && !from.includes(payment.status)) throw new Refusal(409, 'invalidState', `The payment is ${payment.status}`);
    return payment;
  };
  captureRoutes(v1, p, merchantOf, paymentOf);
  // An authorisation that lapses fails; a captured payment can fail later too (a reversal): the store hears of both.
  v1.post('/payments/:id/fail', (ctx) => {
    const merchant = merchantOf(ctx);
    const payment = paymentOf(ctx, merchant, ['authorised', 'paid']);
    ctx.body = { id: payment.id, status: 'failed', eventId: p.emit(merchant, payment, 'payment.failed') };
  });
  // A refund of the whole payment, or of `amountMinor` of it (at most what is left); an Idempotency-Key acts once, and
  // is answered as the first time whatever the payment shows since (a whole refund left it refunded).
  v1.post('/payments/:id/refund', (ctx) => {
    const merchant = merchantOf(ctx);
    const key = ctx.get('idempotency-key') || null;
    const stored = key === null ? undefined : p.state.idempotent.get(`${merchant.id}:refund:${key}`);
    const payment = paymentOf(ctx, merchant, stored ? undefined : ['paid']);
    if (stored && stored.paymentId !== payment.id) throw new Refusal(422, 'idempotencyKeyReused', 'This Idempotency-Key was used for another payment');
    if (stored) {
      ctx.set('Idempotent-Replayed', 'true');
      ctx.status = stored.status;
      ctx.body = stored.body;
      return;
    }
    const { amountMinor } = body(ctx);
    const left = payment.amountMinor - payment.refundedMinor;
    if (amountMinor !== undefined && (!Number.isSafeInteger(amountMinor) || (amountMinor as number) < 1))
      throw new Refusal(400, 'invalidAmount', 'amountMinor must be a positive integer');
    if (amountMinor !== undefined && (amountMinor as number) > left)
      throw new Refusal(409, 'refundExceedsPayment', `At most ${left} is left to refund on this payment`);
    const amount = (amountMinor as number | undefined) ?? left;
    payment.refunds.push({ at: new Date().toISOString(), idempotencyKey: key, amountMinor: amount });
    payment.refundedMinor += amount;
    const type = payment.refundedMinor >= payment.amountMinor ? 'payment.refunded' : 'payment.partiallyRefunded';
    const answer = { id: payment.id, status: STATUS_AFTER[type], refundedMinor: payment.refundedMinor, eventId: p.emit(merchant, payment, type) };
    if (key !== null) p.state.idempotent.set(`${merchant.id}:refund:${key}`, { paymentId: payment.id, status: 200, body: answer });
    if (p.state.faults.loseRefundAnswer > 0) {
      // Refunded here, but the answer never reaches the caller: as a network cut after the refund.
      p.state.faults.loseRefundAnswer--;
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    ctx.body = answer;
  });
  // The shopper disputes the charge with their bank (a chargeback opened): the store hears of it.
  v1.post('/payments/:id/dispute', (ctx) => {
    const merchant = merchantOf(ctx);
    const payment = paymentOf(ctx, merchant, ['paid']);
    ctx.body = { id: payment.id, status: payment.status, eventId: p.emit(merchant, payment, 'payment.disputed') };
  });
  const eventOf = (ctx: Context) => {
    const merchant = merchantOf(ctx);
    const event = p.state.events.get(ctx.params.id);
    if (!event || event.merchantId !== merchant.id) throw new Refusal(404, 'notFound', 'No such event');
    return { merchant, event };
  };
  // The delivery log: so a program (or a test) can wait for an event to arrive instead of guessing.
  v1.get('/events/:id', (ctx) => {
    const { event } = eventOf(ctx);
    ctx.body = { id: event.id, type: event.type, delivered: event.delivered, attempts: event.attempts };
  });
  v1.post('/events/:id/resend', (ctx) => {
    const { merchant, event } = eventOf(ctx);
    p.sender.send(merchant, event);
    ctx.status = 202;
    ctx.body = { id: event.id };
  });
  return v1;
}
