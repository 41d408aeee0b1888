/** The fake Printful's test-only /control API: accounts, products, order statuses and packages, faults, what it holds. */
import type { Context, Next } from 'koa';
import { Router } from '@koa/router';
import { FakePrintfulState, FailRule, Faults, noFaults, PfFail } from './state';

const STATUSES = new Set(['draft', 'pending', 'failed', 'canceled', 'inprocess', 'onhold', 'partial', 'fulfilled', 'archived', 'inreview']);

function body(ctx: Context): Record<string, unknown> {
  const b = ctx.request.body as unknown;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

const count = (v: unknown, name: string): number | undefined => {
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new PfFail(400, `${name} must be an integer >= 0`);
  return v;
};

function mergeFaults(cur: Faults, b: Record<string, unknown>): Faults {
  const next = { ...cur };
  for (const key of ['timeoutAfterCreateNext', 'timeoutAfterConfirmNext', 'costsCalculatingNext', 'costsCalculatingMs'] as const) {
    const v = count(b[key], key);
    if (v !== undefined) next[key] = v;
  }
  if (Array.isArray(b.failNext)) {
    const rules = b.failNext.map((r: Partial<FailRule>) => {
      if (typeof r?.path !== 'string' || typeof r.status !== 'number') throw new PfFail(400, 'failNext: path and status are required');
      return {
        method: r.method,
        path: r.path,
        status: r.status,
        message: r.message,
        reason: r.reason,
        apiCode: r.apiCode,
        times: count(r.times, 'times') ?? 1,
      };
    });
    next.failNext = [...cur.failNext, ...rules];
  }
  return next;
}

export function controlRouter(state: FakePrintfulState): Router {
  const router = new Router({ prefix: '/control' });
  router.use(async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof PfFail)) throw err;
      ctx.status = err.status;
      ctx.body = { error: err.message };
    }
  });
  const order = (ctx: Context) => {
    const o = state.orders.find((x) => String(x.id) === ctx.params.id);
    if (!o) throw new PfFail(404, `No order ${ctx.params.id}`);
    return state.tick(o);
  };

  /** `{accountLevel?, stores?, name?}`: a store-level token by default. */
  router.post('/accounts', (ctx) => {
    const b = body(ctx);
    const a = state.createAccount(b.accountLevel === true, count(b.stores, 'stores') ?? 1, typeof b.name === 'string' ? b.name : undefined);
    ctx.body = { token: a.token, accountLevel: a.accountLevel, storeIds: a.storeIds };
  });
  router.get('/catalogue', (ctx) => {
    ctx.body = state.products.map((p) => ({ ...p, variants: p.variants.map((v) => ({ ...v, made: state.catalogueVariant(v.variant_id) })) }));
  });
  /** `{availability_status?, in_stock?, price?}` of a store variant (in_stock and price: its catalogue variant's). */
  router.post('/variants/:id', (ctx) => {
    const found = state.syncVariant(Number(ctx.params.id));
    if (!found) throw new PfFail(404, `No variant ${ctx.params.id}`);
    const b = body(ctx);
    if (typeof b.availability_status === 'string') found.v.availability_status = b.availability_status as typeof found.v.availability_status;
    if (typeof b.in_stock === 'boolean') found.made.in_stock = b.in_stock;
    if (typeof b.price === 'string' && /^\d{1,5}\.\d{2}$/.test(b.price)) found.made.price = b.price;
    ctx.body = { ...found.v, made: found.made };
  });
  router.post('/countries/:cc', (ctx) => {
    const cc = ctx.params.cc.toUpperCase();
    if (body(ctx).served === false) state.unserved.add(cc);
    else state.unserved.delete(cc);
    ctx.body = { unserved: [...state.unserved] };
  });

  router.get('/orders', (ctx) => {
    ctx.body = state.orders.map((o) => ({
      ...state.view(state.tick(o)),
      storeId: o.storeId,
      confirms: o.confirms,
      confirmCalls: o.confirmCalls,
      cancels: o.cancels,
      createCalls: state.createCalls.get(o.external_id) ?? 0,
    }));
  });
  router.post('/orders/:id/status', (ctx) => {
    const o = order(ctx);
    const { status, reason } = body(ctx);
    if (typeof status !== 'string' || !STATUSES.has(status)) throw new PfFail(400, 'status must be a Printful order status');
    const before = o.status;
    state.setStatus(o, status);
    // The webhooks Printful sends for these moves (`{reason, order}`).
    const type =
      status === 'failed'
        ? 'order_failed'
        : status === 'canceled'
          ? 'order_canceled'
          : status === 'onhold'
            ? 'order_put_hold'
            : before === 'onhold'
              ? 'order_remove_hold'
              : 'order_updated';
    state.emit(o, type, { reason: typeof reason === 'string' ? reason : 'Changed by the control API' });
    ctx.body = state.view(o);
  });
  /** A package comes back: `{reason?}`; sends `package_returned`. */
  router.post('/orders/:id/shipments/:sid/return', (ctx) => {
    const o = order(ctx);
    if (!o.shipments.some((s) => String(s.id) === ctx.params.sid)) throw new PfFail(404, `No shipment ${ctx.params.sid}`);
    const reason = body(ctx).reason;
    state.returnPackage(o, Number(ctx.params.sid), typeof reason === 'string' ? reason : 'Returned to sender: address unknown');
    ctx.body = { order: state.view(o), shipments: state.v2Shipments(o) };
  });
  /** The carrier delivered a package (v2 says so; v1 sends `order_updated`). */
  router.post('/orders/:id/shipments/:sid/deliver', (ctx) => {
    const o = order(ctx);
    if (!o.shipments.some((s) => String(s.id) === ctx.params.sid)) throw new PfFail(404, `No shipment ${ctx.params.sid}`);
    state.deliverPackage(o, Number(ctx.params.sid));
    ctx.body = { order: state.view(o), shipments: state.v2Shipments(o) };
  });
  /** Each store's webhook configuration, and every delivery attempt the fake made (index.ts). */
  router.get('/webhooks', (ctx) => {
    ctx.body = { configs: Object.fromEntries(state.webhooks), deliveries: state.deliveries };
  });
  /** One package: `{carrier?, trackingNumber?, itemIds?, reshipment?}` (default: every item not shipped yet; a reshipment: all). */
  router.post('/orders/:id/ship', (ctx) => {
    const o = order(ctx);
    const b = body(ctx);
    const itemIds = Array.isArray(b.itemIds) ? b.itemIds.map(Number) : undefined;
    state.ship(o, {
      carrier: typeof b.carrier === 'string' ? b.carrier : undefined,
      trackingNumber: typeof b.trackingNumber === 'string' ? b.trackingNumber : undefined,
      itemIds,
      reshipment: b.reshipment === true,
    });
    ctx.body = state.view(o);
  });
  router.post('/orders/:id/costs-ready', (ctx) => {
    const o = order(ctx);
    o.costsReadyAt = null;
    ctx.body = state.view(o);
  });

  router.get('/faults', (ctx) => void (ctx.body = state.faults));
  router.post('/faults', (ctx) => {
    state.faults = mergeFaults(state.faults, body(ctx));
    ctx.body = state.faults;
  });
  router.delete('/faults', (ctx) => {
    state.faults = noFaults();
    ctx.body = state.faults;
  });
  return router;
}
