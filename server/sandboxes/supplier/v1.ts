import type { Context, Middleware, Next } from 'koa';
import { Router } from '@koa/router';
import { ApiError } from './errors';
import type { SandboxRuntime } from './runtime';
import type { Caller } from './accounts';
import { fromCents } from './money';
import { shippingQuote } from './orders';
import type { Product } from './types';
import { bodyObject, httpUrl, optionalBool, parseCreateOrder, queryInt, queryString } from './validate';

const MAX_PAGE_SIZE = 100;

export function callerOf(ctx: Context): Caller {
  const caller = (ctx.state as { caller?: Caller }).caller;
  if (!caller) throw new ApiError(401, 'invalidCredentials', 'Missing or unknown API key');
  return caller;
}

function unauthorized(ctx: Context, message: string): ApiError {
  ctx.set('WWW-Authenticate', 'Bearer realm="sandbox-supplier"');
  return new ApiError(401, 'invalidCredentials', message);
}

function isV1Path(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}

/** Faults, then auth, for every /v1 call; runs before routing so unknown /v1 paths behave the same. */
export function v1Gate(rt: SandboxRuntime): Middleware {
  return async (ctx: Context, next: Next) => {
    if (!isV1Path(ctx.path)) return next();
    // Counted on arrival: tests want what the wire delivered, faults included.
    if (ctx.method === 'POST' && ctx.path === '/v1/orders') rt.state.records.createAttempts++;

    const latency = rt.state.faults.latencyMs;
    if (latency > 0) await rt.requestTimers.sleep(latency);
    // Re-read: a reset may have replaced the fault set while we slept.
    const faults = rt.state.faults;
    if (faults.failNext > 0) {
      faults.failNext--;
      throw new ApiError(503, 'unavailable', 'Sandbox supplier is temporarily unavailable (injected fault)');
    }
    if (faults.rejectKeys) throw unauthorized(ctx, 'API key rejected (injected fault)');

    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
    const caller = match ? rt.state.authenticate(match[1]) : null;
    if (!caller) throw unauthorized(ctx, match ? 'Unknown API key or access token' : 'Missing Authorization: Bearer header');
    if (faults.unavailableAccounts.includes(caller.account.id))
      throw new ApiError(503, 'unavailable', 'Sandbox supplier is temporarily unavailable for this account (injected fault)');
    (ctx.state as { caller?: Caller }).caller = caller;
    // What was asked, ids taken out: a benchmark counts the calls of each kind a part cost.
    const route = `${ctx.method} ${ctx.path.replace(/^(\/v1\/(?:products|orders))\/[^/]+/, '$1/:id')}`;
    const done = rt.state.records.callStarted(caller.account.id, route);
    try {
      const own = faults.accountLatencyMs[caller.account.id] ?? 0;
      if (own > 0) await rt.requestTimers.sleep(own);
      await next();
    } finally {
      done();
    }
  };
}

export function v1Router(rt: SandboxRuntime): Router {
  const { state } = rt;
  const router = new Router({ prefix: '/v1' });

  router.get('/account', (ctx) => {
    const { account, env } = callerOf(ctx);
    ctx.body = { accountId: account.id, environment: env.environment, balanceMinor: env.balanceMinor, currency: account.currency };
  });

  router.get('/webhook', (ctx) => {
    ctx.body = { url: callerOf(ctx).env.webhookUrl };
  });

  router.put('/webhook', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const url = httpUrl(body.url, 'url');
    ctx.body = state.accounts.setWebhook(callerOf(ctx).env, url, optionalBool(body, 'rotate') ?? false);
  });

  router.get('/products', (ctx) => {
    const page = queryInt(ctx.query.page, 1, 'page');
    const pageSize = queryInt(ctx.query.pageSize, 50, 'pageSize', MAX_PAGE_SIZE);
    const found = state.catalogue.search(queryString(ctx.query.q), page, pageSize);
    ctx.body = { ...found, items: found.items.map((p) => pricedFor(p, callerOf(ctx).account.currency)) };
  });

  router.get('/products/:id', (ctx) => {
    const product = state.catalogue.getProduct(ctx.params.id);
    if (!product) throw new ApiError(404, 'productNotFound', `No product ${ctx.params.id}`);
    ctx.body = pricedFor(product, callerOf(ctx).account.currency);
  });

  // The shipping quote for some items: the one service and its cost, as a create would charge it (faults aside).
  router.post('/shipping/quote', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const items = Array.isArray(body.items) ? body.items : [];
    const units = items.reduce(
      (n: number, i: unknown) =>
        n + (typeof i === 'object' && i && Number.isInteger((i as { quantity?: unknown }).quantity) ? Number((i as { quantity: number }).quantity) : 0),
      0,
    );
    if (units < 1) throw new ApiError(400, 'invalidRequest', 'items must name at least one unit');
    // The longest delivery among the items' products, as this warehouse ships them.
    const days = items
      .map((i: unknown) =>
        typeof i === 'object' && i ? state.catalogue.getVariant(String((i as { variantId?: unknown }).variantId))?.product.deliveryDays.max : undefined,
      )
      .filter((d: number | undefined): d is number => d !== undefined);
    const currency = callerOf(ctx).account.currency;
    ctx.body = {
      service: 'standard',
      costMinor: fromCents(shippingQuote(state.warehouse.shipping, units), currency),
      currency,
      maxDays: days.length ? Math.max(...days) : 12,
    };
  });

  router.post('/orders', (ctx) => {
    const input = parseCreateOrder(ctx.request.body);
    const record = state.orders.create(callerOf(ctx), input);
    const faults = state.faults;
    if (faults.timeoutAfterCreateNext > 0) {
      faults.timeoutAfterCreateNext--;
      hangThenDrop(rt, ctx);
      return;
    }
    ctx.status = 201;
    ctx.body = state.orderView(record);
  });

  router.get('/orders', (ctx) => {
    const caller = callerOf(ctx);
    const orderNumber = ctx.query.orderNumber;
    if (orderNumber !== undefined) {
      const found = state.orders.findByNumber(caller, queryString(orderNumber));
      ctx.body = { items: found ? [state.orderView(found)] : [] };
      return;
    }
    const page = queryInt(ctx.query.page, 1, 'page');
    const pageSize = queryInt(ctx.query.pageSize, 50, 'pageSize', MAX_PAGE_SIZE);
    const all = state.orders.list(caller);
    const start = (page - 1) * pageSize;
    ctx.body = { items: all.slice(start, start + pageSize).map((r) => state.orderView(r)), page, pageSize, total: all.length };
  });

  router.get('/orders/:id', (ctx) => {
    ctx.body = state.orderView(state.orders.get(callerOf(ctx), ctx.params.id));
  });

  router.post('/orders/:id/pay', (ctx) => {
    ctx.body = state.orderView(state.orders.pay(callerOf(ctx), ctx.params.id));
  });

  router.post('/orders/:id/cancel', (ctx) => {
    ctx.body = state.orderView(state.orders.cancel(callerOf(ctx), ctx.params.id));
  });

  return router;
}

/** A product as an account keeping its books in `currency` reads it (the catalogue is kept in US cents). */
function pricedFor(p: Product, currency: string): Product {
  return currency === p.currency ? p : { ...p, currency, variants: p.variants.map((v) => ({ ...v, costMinor: fromCents(v.costMinor, currency) })) };
}

/** The order exists, but the caller never hears so: hold the socket, then drop it without a response. */
function hangThenDrop(rt: SandboxRuntime, ctx: Context): void {
  ctx.respond = false;
  const socket = ctx.req.socket;
  const timer = rt.requestTimers.after(rt.createHangMs, () => socket.destroy());
  socket.once('close', () => rt.requestTimers.cancel(timer));
}
