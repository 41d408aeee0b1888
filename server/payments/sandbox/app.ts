import Koa, { type Context } from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';
import type { EventSender } from './sender';
import type { EventType, Merchant, Payment, PaymentsState } from './state';
import { checkoutRouter } from './checkout';
import { captureRoutes } from './capture';
import { controlRouter } from './control';
import { Refusal } from './refusal';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a charge needs: the store's order id, the amount in minor units and its currency. */
export function chargeInput(body: Record<string, unknown>): { orderId: string; amountMinor: number; currency: string } {
  const { orderId, amountMinor, currency } = body;
  if (typeof orderId !== 'string' || !UUID.test(orderId)) throw new Refusal(400, 'invalidOrderId', 'orderId must be the store order\'s id (a UUID)');
  const amount = typeof amountMinor === 'string' ? Number(amountMinor) : amountMinor;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) throw new Refusal(400, 'invalidAmount', 'amountMinor must be a whole number of minor units');
  if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency)) throw new Refusal(400, 'invalidCurrency', 'currency must be an ISO 4217 code');
  return { orderId, amountMinor: amount, currency };
}

export interface Payments {
  state: PaymentsState;
  sender: EventSender;
  /** Mount /control/* (fault injection, held deliveries, the provider's records); off unless asked. */
  control: boolean;
  /** Records a change of the payment (a charge in its captures) and sends its event; answers the event's id. */
  emit(merchant: Merchant, payment: Payment, type: EventType, idempotencyKey?: string | null): string;
}

export function createPaymentsApp(p: Payments, log: Logger): Koa {
  const app = new Koa();
  app.on('error', (err: unknown) => log.debug({ err }, 'koa error'));
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const known = err instanceof Refusal ? err : null;
      const status = known?.status ?? ((err as { status?: number }).status && (err as { status: number }).status < 500 ? (err as { status: number }).status : 500);
      ctx.status = status;
      ctx.body = { error: { code: known?.code ?? (status === 500 ? 'internal' : 'badRequest'), message: known?.message ?? (err instanceof Error ? err.message : 'error') } };
      if (status === 500) log.error({ err }, 'sandbox payments handler failed');
    }
  });
  app.use(koaBody({ json: true, urlencoded: true, text: false, multipart: false, jsonLimit: '64kb', formLimit: '16kb' }));

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
  v1.post('/payments/:id/refund', (ctx) => {
    const merchant = merchantOf(ctx);
    const payment = paymentOf(ctx, merchant, ['paid']);
    ctx.body = { id: payment.id, status: 'refunded', eventId: p.emit(merchant, payment, 'payment.refunded') };
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

  for (const router of [v1, checkoutRouter(p), ...(p.control ? [controlRouter(p)] : [])]) app.use(router.routes());
  app.use(async (ctx) => {
    if (ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { error: { code: 'notFound', message: `No route ${ctx.method} ${ctx.path}` } };
    }
  });
  return app;
}
