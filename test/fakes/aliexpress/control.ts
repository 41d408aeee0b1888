/** The AliExpress-format server's test-only `/control` API: buyers, catalogue, countries, orders, faults, what arrived. */
import type { Context } from 'koa';
import { Router } from '@koa/router';
import { FakeAeState, noFaults } from './state';
import { AeFail } from './verify';

type Body = Record<string, unknown>;
const bodyOf = (ctx: Context): Body => (ctx.request.body && typeof ctx.request.body === 'object' ? (ctx.request.body as Body) : {});
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export function controlRouter(state: FakeAeState): Router {
  const router = new Router({ prefix: '/control' });
  router.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof AeFail)) throw err;
      ctx.status = 404;
      ctx.body = { error: err.code, message: err.message };
    }
  });

  router.get('/catalogue', (ctx) => {
    ctx.body = state.products.map((p) => ({ ...p, notSoldTo: [...p.notSoldTo] }));
  });
  router.post('/products/:pid', (ctx) => {
    const p = state.product(ctx.params.pid);
    if (!p) throw new AeFail('NoProduct', 'No such product');
    const b = bodyOf(ctx);
    if (b.status === 'onSelling' || b.status === 'offline') p.status = b.status;
    if (Array.isArray(b.notSoldTo)) p.notSoldTo = new Set(b.notSoldTo.map(String));
    for (const s of Array.isArray(b.skus) ? (b.skus as Body[]) : []) {
      const sku = p.skus.find((x) => x.skuId === s.skuId);
      if (!sku) throw new AeFail('NoSku', 'No such sku');
      sku.priceCents = num(s.priceCents) ?? sku.priceCents;
      sku.stock = num(s.stock) ?? sku.stock;
    }
    ctx.body = { ...p, notSoldTo: [...p.notSoldTo] };
  });
  router.post('/countries/:cc', (ctx) => {
    if (bodyOf(ctx).served === false) state.unserved.add(ctx.params.cc);
    else state.unserved.delete(ctx.params.cc);
    ctx.body = { unserved: [...state.unserved] };
  });

  router.post('/buyers', (ctx) => {
    const b = bodyOf(ctx);
    const buyer = state.signIn.addBuyer({
      nick: typeof b.nick === 'string' ? b.nick : undefined,
      accessTtlMs: num(b.accessTtlMs),
      refreshTtlMs: num(b.refreshTtlMs),
      refreshable: b.refreshable === false ? false : undefined,
    });
    ctx.status = 201;
    ctx.body = { userId: buyer.userId, nick: buyer.nick, account: buyer.account };
  });
  router.get('/buyers/:id', (ctx) => {
    const b = state.signIn.buyer(ctx.params.id);
    ctx.body = { ...b, currentAccessToken: state.signIn.currentAccessToken(b.userId, Date.now()) };
  });
  router.post('/buyers/:id', (ctx) => {
    const b = state.signIn.buyer(ctx.params.id);
    const body = bodyOf(ctx);
    for (const key of ['disabled', 'blacklisted', 'paymentFails', 'refreshable'] as const) if (typeof body[key] === 'boolean') b[key] = body[key] as boolean;
    ctx.body = b;
  });
  router.post('/buyers/:id/revoke', (ctx) => {
    const body = bodyOf(ctx);
    state.signIn.revoke(state.signIn.buyer(ctx.params.id).userId, { access: body.access === true, refresh: body.refresh === true });
    ctx.body = { revoked: true };
  });

  router.get('/orders', (ctx) => {
    const out = typeof ctx.query.outOrderId === 'string' ? ctx.query.outOrderId : undefined;
    ctx.body = [...state.orders.byId.values()].filter((o) => out === undefined || o.outOrderId === out);
  });
  router.post('/orders/:id', (ctx) => {
    const o = state.orders.byId.get(ctx.params.id);
    if (!o) throw new AeFail('NoOrder', 'No such order');
    const b = bodyOf(ctx);
    const s = (v: unknown) => (typeof v === 'string' ? v : undefined);
    state.orders.set(
      o,
      {
        orderStatus: s(b.orderStatus),
        logisticsStatus: s(b.logisticsStatus),
        endReason: b.endReason === null ? null : s(b.endReason),
        trackingNumber: s(b.trackingNumber),
        carrier: s(b.carrier),
      },
      Date.now(),
    );
    ctx.body = o;
  });
  router.post('/orders/:id/pay', (ctx) => {
    const o = state.orders.byId.get(ctx.params.id);
    if (!o) throw new AeFail('NoOrder', 'No such order');
    state.orders.pay(o);
    ctx.body = o;
  });

  // A day goes by for the out_order_id guard only (sign-in tokens keep their clock): a repeated number makes a new order.
  router.post('/orders/guard/expire', (ctx) => {
    state.orders.forgetGuard();
    ctx.status = 204;
  });
  router.post('/faults', (ctx) => {
    const b = bodyOf(ctx);
    const f = state.faults;
    if (Array.isArray(b.failNext)) f.failNext.push(...(b.failNext as never[]));
    f.callLimitNext = num(b.callLimitNext) ?? f.callLimitNext;
    f.timeoutAfterCreateNext = num(b.timeoutAfterCreateNext) ?? f.timeoutAfterCreateNext;
    if (typeof b.unavailable === 'boolean') f.unavailable = b.unavailable;
    if (typeof b.repeatedWithoutIds === 'boolean') f.repeatedWithoutIds = b.repeatedWithoutIds;
    ctx.body = f;
  });
  router.delete('/faults', (ctx) => {
    state.faults = noFaults();
    ctx.status = 204;
  });
  router.get('/received', (ctx) => {
    ctx.body = state.received;
  });
  return router;
}
