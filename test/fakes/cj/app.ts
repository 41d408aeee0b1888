/**
 * The fake CJ's HTTP: CJ API 2.0 paths under /api2.0/v1 answering CJ's envelope, and the test-only /control API.
 */
import { randomUUID } from 'node:crypto';
import Koa, { type Context, type Next } from 'koa';
import { koaBody } from 'koa-body';
import { Router } from '@koa/router';
import { usdToMinor } from '../../../server/suppliers/cj/money';
import { Account, CjFail, FakeCjState, FailRule, noFaults, Faults } from './state';

export const API_PREFIX = '/api2.0/v1';

export interface FakeRuntime {
  state: FakeCjState;
  createHangMs: number;
  /** Timers and sockets of held answers, dropped on close. */
  held: Set<NodeJS.Timeout>;
}

function envelope(code: number, message: string, data: unknown, extra: Record<string, unknown> = {}) {
  return { code, result: code === 200, message, data, requestId: randomUUID(), ...(code === 200 ? { success: true } : { success: false }), ...extra };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function bodyOf(ctx: Context): Record<string, unknown> {
  const body = ctx.request.body as unknown;
  if (body === undefined || body === null || (!ctx.request.length && typeof body === 'object' && Object.keys(body).length === 0))
    throw new CjFail(16900204, 'Missing request body');
  if (typeof body !== 'object' || Array.isArray(body)) throw new CjFail(16900205, 'The body is not a JSON object');
  return body as Record<string, unknown>;
}

function queryText(ctx: Context, key: string): string | undefined {
  const v = ctx.query[key];
  return Array.isArray(v) ? v[0] : v;
}

/** A repeated key (`orderIds=a&orderIds=b`) or a comma-separated list. */
function queryList(ctx: Context, key: string): string[] {
  const v = ctx.query[key];
  const raw = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return raw
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

function intParam(ctx: Context, key: string, dflt: number, min: number, max: number): number {
  const raw = queryText(ctx, key);
  if (raw === undefined || raw === '') return dflt;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new CjFail(1600300, `Param error: ${key} must be ${min}-${max}`);
  return Number(raw);
}

/** CJ's API: faults, then the token, then per-account limits, then the route. */
function apiRouter(rt: FakeRuntime): Router {
  const { state } = rt;
  const router = new Router({ prefix: API_PREFIX });
  const account = (ctx: Context) => ctx.state.account as Account;

  router.post('/authentication/getAccessToken', (ctx) => {
    ctx.body = envelope(200, 'Success', state.getAccessToken(bodyOf(ctx)));
  });
  router.post('/authentication/refreshAccessToken', (ctx) => {
    ctx.body = envelope(200, 'Success', state.refreshAccessToken(bodyOf(ctx)));
  });
  router.post('/authentication/logout', (ctx) => {
    state.logout(account(ctx).openId);
    ctx.body = envelope(200, 'Success', true);
  });

  router.get('/product/listV2', (ctx) => {
    ctx.body = envelope(
      200,
      'Success',
      state.listV2({ keyWord: queryText(ctx, 'keyWord'), page: intParam(ctx, 'page', 1, 1, 1000), size: intParam(ctx, 'size', 10, 1, 100) }),
    );
  });
  router.get('/product/query', (ctx) => {
    ctx.body = envelope(
      200,
      'Success',
      state.productQuery({
        pid: queryText(ctx, 'pid'),
        productSku: queryText(ctx, 'productSku'),
        variantSku: queryText(ctx, 'variantSku'),
        features: queryList(ctx, 'features').join(','),
      }),
    );
  });
  router.get('/product/stock/queryByVid', (ctx) => {
    const vid = queryText(ctx, 'vid');
    if (!vid) throw new CjFail(16900403, 'vid is empty');
    ctx.body = envelope(200, 'Success', state.stockByVid(vid));
  });
  router.post('/logistic/freightCalculate', (ctx) => {
    ctx.body = envelope(200, 'Success', state.freightCalculate(bodyOf(ctx)));
  });

  router.post('/shopping/order/createOrderV2', async (ctx) => {
    const { view } = state.createOrder(account(ctx), bodyOf(ctx));
    if (state.faults.timeoutAfterCreateNext > 0) {
      state.faults.timeoutAfterCreateNext--;
      // The order exists; the answer never comes.
      ctx.respond = false;
      const timer = setTimeout(() => {
        rt.held.delete(timer);
        ctx.req.socket.destroy();
      }, rt.createHangMs);
      rt.held.add(timer);
      return;
    }
    ctx.body = envelope(200, 'Success', view);
  });
  router.get('/shopping/order/list', (ctx) => {
    ctx.body = envelope(
      200,
      'Success',
      state.orderList(account(ctx), {
        pageNum: intParam(ctx, 'pageNum', 1, 1, 100000),
        pageSize: intParam(ctx, 'pageSize', 20, 1, 200),
        orderIds: queryList(ctx, 'orderIds'),
        orderNumbers: queryList(ctx, 'orderNumbers'),
        status: queryText(ctx, 'status'),
      }),
    );
  });
  router.get('/shopping/order/getOrderDetail', (ctx) => {
    ctx.body = envelope(200, 'Success', state.orderDetail(account(ctx), queryText(ctx, 'orderId') ?? ''));
  });
  router.delete('/shopping/order/deleteOrder', (ctx) => {
    state.deleteOrder(account(ctx), queryText(ctx, 'orderId') ?? '');
    ctx.body = envelope(200, 'Success', null);
  });
  router.get('/shopping/pay/getBalance', (ctx) => {
    ctx.body = envelope(200, 'Success', state.balance(account(ctx)));
  });
  router.post('/shopping/pay/payBalance', (ctx) => {
    state.payBalance(account(ctx), bodyOf(ctx).orderId);
    ctx.body = envelope(200, 'Success', null);
  });

  // After shipping (./after-shipping.ts): tracking by number, and disputes by the CJ order.
  router.get('/logistic/trackInfo', (ctx) => {
    const numbers = queryList(ctx, 'trackNumber');
    if (!numbers.length) throw new CjFail(16900403, 'trackNumber is empty');
    const mine = state.orders.filter((o) => o.openId === account(ctx).openId && o.trackNumber && numbers.includes(o.trackNumber));
    ctx.body = envelope(
      200,
      'Success',
      mine.map((o) => state.after.trackInfo(o)),
    );
  });
  const disputed = (ctx: Context, id: unknown) => {
    const o = typeof id === 'string' && id ? state.findOrder(account(ctx), id, false) : undefined;
    if (!o) throw new CjFail(1603100, 'Order not found');
    return o;
  };
  router.get('/disputes/disputeProducts', (ctx) => {
    ctx.body = envelope(200, 'Success', state.after.products(disputed(ctx, queryText(ctx, 'orderId'))));
  });
  router.post('/disputes/disputeConfirmInfo', (ctx) => {
    const body = bodyOf(ctx);
    ctx.body = envelope(200, 'Success', state.after.confirmInfo(disputed(ctx, body.orderId), body.productInfoList));
  });
  router.post('/disputes/create', (ctx) => {
    const body = bodyOf(ctx);
    state.after.create(disputed(ctx, body.orderId), body);
    // As observed of CJ: the answer does not carry the dispute's id; the list by order finds it.
    ctx.body = envelope(200, 'Success', true);
  });
  router.post('/disputes/cancel', (ctx) => {
    const body = bodyOf(ctx);
    state.after.cancel(disputed(ctx, body.orderId), body.disputeId);
    ctx.body = envelope(200, 'Success', true);
  });
  router.get('/disputes/getDisputeList', (ctx) => {
    ctx.body = envelope(200, 'Success', state.after.list(disputed(ctx, queryText(ctx, 'orderId')), queryText(ctx, 'disputeId')));
  });

  router.post('/webhook/set', (ctx) => {
    state.setWebhooks(account(ctx), bodyOf(ctx));
    ctx.body = envelope(200, 'Success', true);
  });
  router.post('/webhook/product/subscribe', (ctx) => {
    state.subscribeProducts(account(ctx), bodyOf(ctx).productIds);
    ctx.body = envelope(200, 'Success', true);
  });
  return router;
}

const PUBLIC_PATHS = new Set(['/authentication/getAccessToken', '/authentication/refreshAccessToken']);

function apiGate(rt: FakeRuntime) {
  const { state } = rt;
  return async (ctx: Context, next: Next) => {
    if (!ctx.path.startsWith(`${API_PREFIX}/`)) return next();
    const path = ctx.path.slice(API_PREFIX.length);
    const token = ctx.get('CJ-Access-Token') || undefined;
    try {
      state.report.calls[path] = (state.report.calls[path] ?? 0) + 1;
      if (state.faults.latencyMs > 0) await sleep(state.faults.latencyMs);
      let who: Account | null = null;
      if (!PUBLIC_PATHS.has(path)) {
        who = state.authenticate(token);
        ctx.state.account = who;
      }
      state.report.arrivals.push({ path, openId: who?.openId ?? null, at: Date.now() });
      if (state.report.arrivals.length > 2000) state.report.arrivals.splice(0, 1000);
      const injected = state.takeFailure(path);
      if (injected) throw new CjFail(injected.code, injected.message, injected.httpStatus);
      if (who && state.faults.unavailableAccounts.includes(who.openId)) throw new CjFail(1600000, 'System busy', 503);
      if (who) state.admit(who, path);
      if (ctx.method === 'POST' && !ctx.is('application/json')) throw new CjFail(16900203, 'Content-Type must be application/json');
      await next();
      if (ctx.body === undefined && ctx.respond !== false) {
        ctx.status = 404;
        ctx.body = envelope(1600101, `Interface not found: ${ctx.method} ${path}`, null);
      }
    } catch (err) {
      if (err instanceof CjFail) {
        ctx.status = err.httpStatus;
        ctx.body = envelope(err.code, err.message, null, err.extra);
        return;
      }
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        ctx.status = 200;
        ctx.body = envelope(16900205, 'Request body is not valid JSON', null);
        return;
      }
      throw err;
    }
  };
}

// ---------------------------------------------------------------- control

function controlError(status: number, message: string): CjFail {
  return new CjFail(1600300, message, status);
}

function cents(value: unknown, name: string): number {
  try {
    return usdToMinor(value);
  } catch {
    throw controlError(400, `${name} must be a USD amount`);
  }
}

function optionalInt(body: Record<string, unknown>, key: string, min = 0): number | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw controlError(400, `${key} must be an integer >= ${min}`);
  return v;
}

function failRules(raw: unknown): FailRule[] {
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item) => {
    const r = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    if (typeof r.code !== 'number' || !Number.isInteger(r.code)) throw controlError(400, 'failNext needs a numeric code');
    return {
      path: typeof r.path === 'string' ? r.path : '*',
      code: r.code,
      message: typeof r.message === 'string' ? r.message : `Injected failure ${r.code}`,
      httpStatus: typeof r.httpStatus === 'number' ? r.httpStatus : 200,
      count: typeof r.count === 'number' ? r.count : 1,
    };
  });
}

function mergeFaults(current: Faults, body: Record<string, unknown>): Faults {
  const next: Faults = { ...current, failNext: current.failNext.map((r) => ({ ...r })), unavailableAccounts: [...current.unavailableAccounts] };
  const latency = optionalInt(body, 'latencyMs');
  if (latency !== undefined) next.latencyMs = Math.min(latency, 120_000);
  const hang = optionalInt(body, 'timeoutAfterCreateNext');
  if (hang !== undefined) next.timeoutAfterCreateNext = hang;
  if (body.failNext !== undefined) next.failNext.push(...failRules(body.failNext));
  if (body.unavailableAccounts !== undefined) {
    if (!Array.isArray(body.unavailableAccounts)) throw controlError(400, 'unavailableAccounts must be an array of openIds');
    next.unavailableAccounts = body.unavailableAccounts.map(String);
  }
  for (const key of ['listIgnoresOrderNumbers', 'rejectDuplicateOrderNumbers', 'omitInventories'] as const) {
    if (body[key] !== undefined) next[key] = body[key] === true;
  }
  if (body.logisticType !== undefined) {
    if (body.logisticType !== 'LOGISTIC' && body.logisticType !== 'LOGISTICS') throw controlError(400, 'logisticType is LOGISTIC or LOGISTICS');
    next.logisticType = body.logisticType;
  }
  return next;
}

function controlRouter(rt: FakeRuntime): Router {
  const { state } = rt;
  const router = new Router({ prefix: '/control' });
  const body = (ctx: Context) => (ctx.request.body && typeof ctx.request.body === 'object' ? (ctx.request.body as Record<string, unknown>) : {});
  const order = (id: string) => {
    const o = state.findOrder(null, id, true);
    if (!o) throw controlError(404, `No order ${id}`);
    return o;
  };
  const accountView = (a: Account) => ({
    openId: a.openId,
    apiKey: a.apiKey,
    email: a.email,
    balanceCents: a.balanceCents,
    qps: a.qps,
    points: a.points,
    pointsUsed: a.pointsUsed,
    callbacks: a.callbacks,
    subscribed: [...a.subscribed],
    tokens: state.tokensOf(a.openId),
    currentAccessToken: a.current?.access ?? null,
  });

  router.post('/accounts', (ctx) => {
    const b = body(ctx);
    const a = state.createAccount({
      balanceCents: b.balance === undefined ? undefined : cents(b.balance, 'balance'),
      qps: optionalInt(b, 'qps', 1),
      points: b.points === undefined || b.points === null ? null : optionalInt(b, 'points'),
      email: typeof b.email === 'string' ? b.email : undefined,
    });
    ctx.status = 201;
    ctx.body = { openId: a.openId, apiKey: a.apiKey, email: a.email };
  });
  router.get('/accounts/:openId', (ctx) => {
    ctx.body = accountView(state.account(ctx.params.openId));
  });
  router.post('/accounts/:openId', (ctx) => {
    const a = state.account(ctx.params.openId);
    const b = body(ctx);
    if (b.balance !== undefined) a.balanceCents = cents(b.balance, 'balance');
    const qps = optionalInt(b, 'qps', 1);
    if (qps !== undefined) a.qps = qps;
    if (b.points !== undefined) a.points = b.points === null ? null : (optionalInt(b, 'points') ?? null);
    ctx.body = accountView(a);
  });
  router.post('/accounts/:openId/revoke-tokens', (ctx) => {
    const b = body(ctx);
    state.revokeTokens(ctx.params.openId, { access: b.access !== false, refresh: b.refresh === true });
    ctx.body = accountView(state.account(ctx.params.openId));
  });
  router.post('/accounts/:openId/token', (ctx) => {
    ctx.body = { accessToken: state.extraToken(ctx.params.openId) };
  });

  router.get('/faults', (ctx) => {
    ctx.body = state.faults;
  });
  router.post('/faults', (ctx) => {
    state.faults = mergeFaults(state.faults, body(ctx));
    ctx.body = state.faults;
  });
  router.delete('/faults', (ctx) => {
    state.faults = noFaults();
    ctx.body = state.faults;
  });

  router.get('/catalogue', (ctx) => {
    ctx.body = state.products.map((p) => ({ ...p, variants: p.variants.map((v) => ({ ...v, totalStock: FakeCjState.variantStock(v) })) }));
  });
  router.post('/products/:pid', (ctx) => {
    const p = state.product(ctx.params.pid);
    if (!p) throw controlError(404, `No product ${ctx.params.pid}`);
    const status = body(ctx).status;
    if (status !== 2 && status !== 3) throw controlError(400, 'status is 2 (off the shelves) or 3 (on sale)');
    p.status = status;
    state.productChanged(p, { product: ['productStatus'] });
    ctx.body = p;
  });
  router.post('/variants/:vid', (ctx) => {
    const v = state.variant(ctx.params.vid);
    if (!v) throw controlError(404, `No variant ${ctx.params.vid}`);
    const b = body(ctx);
    const fields: string[] = [];
    if (b.sellPrice !== undefined) {
      cents(b.sellPrice, 'sellPrice');
      v.sellPrice = String(b.sellPrice);
      fields.push('variantSellPrice');
    }
    if (b.removed !== undefined) {
      v.removed = b.removed === true;
      fields.push('variantStatus');
    }
    const stock = optionalInt(b, 'stock');
    if (stock !== undefined) v.stock = v.stock.map((r, i) => ({ ...r, stock: i === 0 ? stock : 0 }));
    const p = state.product(v.pid)!;
    if (fields.length) state.productChanged(p, { variant: { v, fields } });
    if (stock !== undefined) state.productChanged(p, { stock: v });
    ctx.body = { ...v, totalStock: FakeCjState.variantStock(v) };
  });
  router.post('/countries/:cc', (ctx) => {
    const served = body(ctx).served;
    if (typeof served !== 'boolean') throw controlError(400, 'served is required');
    if (served) state.unserved.delete(ctx.params.cc.toUpperCase());
    else state.unserved.add(ctx.params.cc.toUpperCase());
    ctx.body = { unserved: [...state.unserved] };
  });

  router.post('/orders/:id/pay', (ctx) => {
    const o = order(ctx.params.id);
    state.pay(state.account(o.openId), o, 'control');
    ctx.body = o;
  });
  router.post('/orders/:id/ship', (ctx) => {
    const o = order(ctx.params.id);
    const b = body(ctx);
    state.ship(o, {
      logisticName: typeof b.logisticName === 'string' ? b.logisticName : undefined,
      trackNumber: typeof b.trackNumber === 'string' ? b.trackNumber : undefined,
    });
    ctx.body = o;
  });
  router.post('/orders/:id/deliver', (ctx) => {
    const o = order(ctx.params.id);
    state.deliver(o);
    ctx.body = o;
  });
  router.get('/received', (ctx) => {
    ctx.body = state.received();
  });
  router.post('/clock', (ctx) => {
    const hours = optionalInt(body(ctx), 'advanceHours', 1);
    if (hours === undefined) throw controlError(400, 'advanceHours is required');
    ctx.body = state.advanceClock(hours);
  });
  router.post('/orders/:id/parcel', (ctx) => {
    const b = body(ctx);
    const exception = b.exception as 'customsHold' | 'returnedToSender' | 'failedDelivery' | undefined;
    if (exception !== undefined && !['customsHold', 'returnedToSender', 'failedDelivery'].includes(exception))
      throw controlError(400, 'exception is customsHold, returnedToSender or failedDelivery');
    if (!state.parcel(order(ctx.params.id), { stalled: b.stalled !== false, exception }))
      throw controlError(409, `Order ${ctx.params.id} has no parcel on its way`);
    ctx.body = { ok: true };
  });
  router.post('/disputes/:id/decide', (ctx) => {
    const b = body(ctx);
    const deal = b.finallyDeal;
    if (deal !== 1 && deal !== 2 && deal !== 3) throw controlError(400, 'finallyDeal is 1 (refund), 2 (reissue) or 3 (rejected)');
    ctx.body = state.after.decide(ctx.params.id, deal, typeof b.money === 'number' ? b.money : null, (d) => state.resendFor(d));
  });
  return router;
}

function controlErrors() {
  return async (ctx: Context, next: Next) => {
    if (!ctx.path.startsWith('/control')) return next();
    try {
      await next();
      if (ctx.body === undefined) {
        ctx.status = 404;
        ctx.body = { error: `No control route ${ctx.method} ${ctx.path}` };
      }
    } catch (err) {
      if (err instanceof CjFail) {
        ctx.status = err.httpStatus === 200 ? 409 : err.httpStatus;
        ctx.body = { error: err.message, code: err.code };
        return;
      }
      throw err;
    }
  };
}

export function createFakeCjApp(rt: FakeRuntime, control: boolean): Koa {
  const app = new Koa();
  app.on('error', () => undefined);
  // The gate and the control error handler come first, so that they also answer body parser failures.
  app.use(apiGate(rt));
  if (control) app.use(controlErrors());
  app.use(koaBody({ json: true, jsonStrict: false, urlencoded: false, text: false, multipart: false, jsonLimit: '1mb' }));
  const routers = [apiRouter(rt), ...(control ? [controlRouter(rt)] : [])];
  for (const router of routers) app.use(router.routes());
  app.use(async (ctx) => {
    if (ctx.body === undefined && ctx.respond !== false) {
      ctx.status = 404;
      ctx.body = envelope(1600101, `Interface not found: ${ctx.method} ${ctx.path}`, null);
    }
  });
  return app;
}
