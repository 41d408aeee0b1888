/**
 * The fake Printful's HTTP: Printful's v1 paths answering its envelope (`{code, result, extra}`; lists add `paging`),
 * its error shapes, the 120-a-minute limit with its headers, and the test-only /control API (control.ts).
 */
import Koa, { type Context, type Next } from 'koa';
import { koaBody } from 'koa-body';
import { Router } from '@koa/router';
import { controlRouter } from './control';
import { Account, FakePrintfulState, PfFail, RATES } from './state';

export interface FakeRuntime {
  state: FakePrintfulState;
  hangMs: number;
  held: Set<NodeJS.Timeout>;
}

const REASONS: Record<number, string> = { 400: 'BadRequest', 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 429: 'TooManyRequests' };
const EXTERNAL_ID = /^[A-Za-z0-9_-]{1,32}$/;
const WEBHOOK_TYPES = new Set([
  'package_shipped',
  'package_returned',
  'order_created',
  'order_updated',
  'order_failed',
  'order_canceled',
  'order_put_hold',
  'order_put_hold_approval',
  'order_remove_hold',
  'order_refunded',
  'product_synced',
  'product_updated',
  'product_deleted',
  'stock_updated',
]);
/** Calls that need no store: the catalogue and the list of stores. */
const STORELESS = [/^\/products(\/|$)/, /^\/stores$/];

const ok = (ctx: Context, result: unknown, paging?: unknown) => void (ctx.body = { code: 200, result, extra: [], ...(paging ? { paging } : {}) });

function fail(ctx: Context, err: PfFail): void {
  ctx.status = err.status;
  if (err.status >= 500) {
    ctx.type = 'application/problem+json';
    ctx.body = JSON.stringify({
      type: 'https://developers.printful.com/docs/v2-beta/#errors/internal-server-error',
      status: err.status,
      title: 'Internal Server Error',
      details: err.message,
      instance: ctx.path,
    });
    return;
  }
  ctx.body = {
    code: err.status,
    result: err.message,
    error: { reason: REASONS[err.status] ?? err.reason, message: err.message },
    ...(err.apiCode ? { api_error_code: err.apiCode } : {}),
  };
}

function storeOf(ctx: Context, a: Account): number {
  const header = ctx.get('x-pf-store-id');
  if (!header) {
    if (a.accountLevel) throw new PfFail(400, 'This API endpoint applies only to a specific store. Set the X-PF-Store-Id header.');
    return a.storeIds[0];
  }
  if (!/^\d{1,15}$/.test(header) || !a.storeIds.includes(Number(header))) throw new PfFail(403, 'You do not have access to this store.');
  return Number(header);
}

/** Auth, the limit, then injected faults, for every API call; errors in Printful's shapes. */
function gate(rt: FakeRuntime) {
  return async (ctx: Context, next: Next) => {
    if (ctx.path.startsWith('/control')) return next();
    try {
      const m = /^Bearer ([\x21-\x7e]+)$/.exec(ctx.get('authorization'));
      const account = m ? rt.state.accounts.get(m[1]) : undefined;
      if (!account) throw new PfFail(401, 'The access token provided is invalid.');
      const rate = rt.state.admit(account);
      ctx.set({
        'X-Ratelimit-Policy': `${rate.limit};w=60;`,
        'X-Ratelimit-Limit': String(rate.limit),
        'X-Ratelimit-Remaining': String(rate.remaining),
        'X-Ratelimit-Reset': String(rate.resetSeconds),
      });
      if (rate.refused) {
        ctx.set('Retry-After', String(rate.resetSeconds));
        throw new PfFail(429, `Too Many Requests. Please try again after ${rate.resetSeconds} seconds`);
      }
      const rule = rt.state.takeFailure(ctx.method, ctx.path);
      if (rule) throw new PfFail(rule.status, rule.message ?? (rule.status >= 500 ? 'Internal Server Error' : 'Injected failure'), rule.reason, rule.apiCode);
      ctx.state.account = account;
      ctx.state.storeId = STORELESS.some((r) => r.test(ctx.path)) ? null : storeOf(ctx, account);
      await next();
      if (ctx.body === undefined && ctx.respond !== false) throw new PfFail(404, 'Not Found');
    } catch (err) {
      if (err instanceof PfFail) return fail(ctx, err);
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) return fail(ctx, new PfFail(400, 'Invalid JSON'));
      throw err;
    }
  };
}

function body(ctx: Context): Record<string, unknown> {
  const b = ctx.request.body as unknown;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw new PfFail(400, 'The request body must be a JSON object');
  return b as Record<string, unknown>;
}

/** Holds the answer of a call that was done, then drops the socket: the caller never learns it succeeded. */
function hang(rt: FakeRuntime, ctx: Context): void {
  ctx.respond = false;
  const timer = setTimeout(() => {
    rt.held.delete(timer);
    ctx.req.socket.destroy();
  }, rt.hangMs);
  rt.held.add(timer);
}

function apiRouter(rt: FakeRuntime): Router {
  const { state } = rt;
  const router = new Router();
  const store = (ctx: Context) => ctx.state.storeId as number;
  const order = (ctx: Context) => {
    const key = String(ctx.params.id);
    const o = key.startsWith('@')
      ? state.orders.find((x) => x.storeId === store(ctx) && x.external_id === key.slice(1))
      : state.orders.find((x) => x.storeId === store(ctx) && String(x.id) === key);
    if (!o) throw new PfFail(404, 'Not Found');
    return state.tick(o);
  };

  router.get('/store', (ctx) => ok(ctx, { id: store(ctx), name: state.stores.get(store(ctx))!.name, type: 'native', currency: 'USD' }));
  router.get('/stores', (ctx) =>
    ok(
      ctx,
      (ctx.state.account as Account).storeIds.map((id) => ({ id, name: state.stores.get(id)!.name, type: 'native' })),
    ),
  );
  router.get('/store/products', (ctx) => {
    const offset = Math.max(0, Number(ctx.query.offset ?? 0) || 0);
    const limit = Math.min(100, Math.max(1, Number(ctx.query.limit ?? 20) || 20));
    const search = typeof ctx.query.search === 'string' ? ctx.query.search.toLowerCase() : '';
    const all = state.products.filter((p) => !search || p.name.toLowerCase().includes(search));
    const page = all.slice(offset, offset + limit).map((p) => ({
      id: p.id,
      external_id: p.external_id,
      name: p.name,
      variants: p.variants.length,
      synced: p.variants.length,
      thumbnail_url: p.thumbnail_url,
      is_ignored: false,
    }));
    ok(ctx, page, { total: all.length, offset, limit });
  });
  router.get('/store/products/:id', (ctx) => {
    const p = state.products.find((x) => String(x.id) === ctx.params.id || `@${x.external_id}` === ctx.params.id);
    if (!p) throw new PfFail(404, 'Not Found');
    const { variants, ...sync_product } = p;
    ok(ctx, {
      sync_product: { ...sync_product, variants: variants.length, synced: variants.length },
      sync_variants: variants.map((v) => ({
        ...v,
        product: { variant_id: v.variant_id, product_id: state.catalogueVariant(v.variant_id)!.product_id, name: v.name },
      })),
    });
  });
  router.get('/store/variants/:id', (ctx) => {
    const found = state.syncVariant(Number(ctx.params.id));
    if (!found) throw new PfFail(404, 'Not Found');
    ok(ctx, {
      sync_variant: { ...found.v, product: { variant_id: found.made.id, product_id: found.made.product_id, name: found.v.name } },
      sync_product: { id: found.p.id, name: found.p.name },
    });
  });
  router.get('/products/:id', (ctx) => {
    const c = state.catalogue.find((x) => String(x.id) === ctx.params.id);
    if (!c) throw new PfFail(404, 'Not Found');
    const status = (inStock: boolean) => ['US', 'EU'].map((region) => ({ region, status: inStock ? 'in_stock' : 'out_of_stock' }));
    ok(ctx, { product: { id: c.id, title: c.title, currency: 'USD' }, variants: c.variants.map((v) => ({ ...v, availability_status: status(v.in_stock) })) });
  });
  router.post('/shipping/rates', (ctx) =>
    ok(
      ctx,
      rates(state, body(ctx)).map((r) => ({
        id: r.id,
        name: r.name,
        rate: r.rate,
        currency: 'USD',
        minDeliveryDays: r.minDeliveryDays,
        maxDeliveryDays: r.maxDeliveryDays,
      })),
    ),
  );

  // Webhooks (v1): one configuration per store; POST replaces it, DELETE disables it.
  router.get('/webhooks', (ctx) => {
    const hook = state.webhooks.get(store(ctx));
    ok(ctx, { url: hook?.url ?? null, types: hook?.types ?? [], params: hook?.params ?? {} });
  });
  router.post('/webhooks', (ctx) => {
    const b = body(ctx);
    if (typeof b.url !== 'string' || !/^https?:\/\/\S+$/.test(b.url) || b.url.length > 2000) throw new PfFail(400, 'url: must be a valid URL');
    if (!Array.isArray(b.types) || b.types.some((t) => typeof t !== 'string' || !WEBHOOK_TYPES.has(t)))
      throw new PfFail(400, 'types: must be a list of webhook event types');
    if ((b.types as string[]).includes('stock_updated') && !(b.params as Record<string, unknown> | undefined)?.stock_updated)
      throw new PfFail(400, 'params.stock_updated.product_ids is required for stock_updated');
    const hook = { url: b.url, types: [...new Set(b.types as string[])], params: (b.params ?? {}) as Record<string, unknown> };
    state.webhooks.set(store(ctx), hook);
    ok(ctx, hook);
  });
  router.delete('/webhooks', (ctx) => {
    const hook = state.webhooks.get(store(ctx));
    state.webhooks.delete(store(ctx));
    ok(ctx, { url: hook?.url ?? null, types: hook?.types ?? [], params: hook?.params ?? {} });
  });
  // API v2's view of an order's packages (`{data, paging}`): returned, delivered; no tracking number.
  router.get('/v2/orders/:id/shipments', (ctx) => {
    const all = state.v2Shipments(order(ctx));
    ctx.body = { data: all, paging: { total: all.length, offset: 0, limit: 100 } };
  });

  router.post('/orders', (ctx) => {
    if (ctx.query.confirm === '1' || ctx.query.confirm === 'true')
      throw new PfFail(400, 'This fake takes drafts only; confirm them with POST /orders/{id}/confirm');
    const b = body(ctx);
    const externalId = b.external_id;
    if (typeof externalId !== 'string' || !EXTERNAL_ID.test(externalId)) throw new PfFail(400, 'external_id must be up to 32 letters, digits, - and _');
    state.createCalls.set(externalId, (state.createCalls.get(externalId) ?? 0) + 1);
    if (state.orders.some((o) => o.storeId === store(ctx) && o.external_id === externalId))
      throw new PfFail(400, 'Order with this External ID already exists', 'BadRequest', 'OR-13');
    const recipient = (b.recipient ?? {}) as Record<string, unknown>;
    const items = Array.isArray(b.items) ? b.items : [];
    if (!items.length) throw new PfFail(400, 'Order must contain at least one item');
    const lines = items.map((raw: Record<string, unknown>, i: number) => {
      const found = state.syncVariant(Number(raw?.sync_variant_id));
      if (!found) throw new PfFail(400, `Item ${i}: Sync variant not found`);
      if (found.v.availability_status !== 'active' || !found.made.in_stock)
        throw new PfFail(400, `Item ${i}: This variant is not available`, 'BadRequest', 'OR-6');
      const quantity = Number(raw.quantity);
      if (!Number.isInteger(quantity) || quantity < 1 || quantity > 1000) throw new PfFail(400, `Item ${i}: quantity must be 1 to 1000`);
      return { sv: found.v, made: found.made, quantity };
    });
    const quoted = rates(state, { recipient, items: lines.map((l) => ({ variant_id: l.made.id, quantity: l.quantity })) });
    const method = quoted.find((r) => r.id === (b.shipping ?? 'STANDARD'));
    if (!method) throw new PfFail(400, 'Invalid shipping method', 'BadRequest', 'OR-4');
    const o = state.newOrder(
      store(ctx),
      { external_id: externalId, shipping: method.id, shipping_service_name: method.name, recipient, shippingCents: method.cents },
      lines,
    );
    if (state.faults.timeoutAfterCreateNext > 0) {
      state.faults.timeoutAfterCreateNext--;
      return hang(rt, ctx);
    }
    ok(ctx, state.view(o));
  });
  router.get('/orders', (ctx) => {
    const mine = state.orders
      .filter((o) => o.storeId === store(ctx) && (!ctx.query.status || o.status === ctx.query.status))
      .map((o) => state.view(state.tick(o)));
    ok(ctx, mine.slice(0, 100), { total: mine.length, offset: 0, limit: 100 });
  });
  router.get('/orders/:id', (ctx) => ok(ctx, state.view(order(ctx))));
  router.post('/orders/:id/confirm', (ctx) => {
    const o = order(ctx);
    o.confirmCalls++;
    if (o.status !== 'draft') throw new PfFail(400, 'Only draft orders can be confirmed', 'BadRequest', 'OR-1');
    if (o.costsReadyAt !== null) throw new PfFail(400, 'Order costs are still being calculated. Try confirming later.');
    o.confirms++;
    o.confirmedAt = Date.now();
    state.setStatus(o, 'pending');
    if (state.faults.timeoutAfterConfirmNext > 0) {
      state.faults.timeoutAfterConfirmNext--;
      return hang(rt, ctx);
    }
    ok(ctx, state.view(o));
  });
  router.delete('/orders/:id', (ctx) => {
    const o = order(ctx);
    if (o.status !== 'draft' && o.status !== 'pending') throw new PfFail(400, `Order with status ${o.status} cannot be canceled`, 'BadRequest', 'OR-1');
    o.cancels++;
    state.setStatus(o, 'canceled');
    ok(ctx, state.view(o));
  });
  return router;
}

function rates(state: FakePrintfulState, b: Record<string, unknown>) {
  const r = (b.recipient ?? {}) as Record<string, unknown>;
  const cc = typeof r.country_code === 'string' ? r.country_code : '';
  if (!/^[A-Z]{2}$/.test(cc)) throw new PfFail(400, 'Invalid country code', 'BadRequest', 'SH-1');
  if (['US', 'CA', 'AU'].includes(cc) && typeof r.state_code !== 'string') throw new PfFail(400, 'Recipient: state_code is required for this country');
  if (state.unserved.has(cc)) throw new PfFail(400, 'Shipping to this country is disabled', 'BadRequest', 'SH-2');
  const items = Array.isArray(b.items) ? (b.items as Array<Record<string, unknown>>) : [];
  if (!items.length || items.some((i) => !state.catalogueVariant(Number(i.variant_id)))) throw new PfFail(400, 'Items: a variant_id is missing or unknown');
  const count = items.reduce((sum, i) => sum + (Number(i.quantity) || 1), 0);
  return RATES.map((m) => ({ ...m, cents: m.cents + m.perExtraItem * (count - 1), rate: '' })).map((m) => ({
    ...m,
    rate: `${Math.floor(m.cents / 100)}.${String(m.cents % 100).padStart(2, '0')}`,
  }));
}

export function createFakePrintfulApp(rt: FakeRuntime, control: boolean): Koa {
  const app = new Koa();
  app.on('error', () => undefined);
  app.use(gate(rt));
  app.use(koaBody({ json: true, jsonStrict: false, urlencoded: false, text: false, multipart: false, jsonLimit: '1mb' }));
  app.use(apiRouter(rt).routes());
  if (control) app.use(controlRouter(rt.state).routes());
  return app;
}
