import { Router } from '@koa/router';
import { CLAIM_REASONS, type SandboxClaim } from './claims';
import { ApiError, invalidRequest } from './errors';
import type { ParcelException } from './journeys';
import type { SandboxRuntime } from './runtime';
import { bodyObject, type Json, optionalBool, optionalInt, optionalString, queryString } from './validate';
import { callerOf } from './v1';

const EXCEPTIONS: ParcelException[] = ['returnedToSender', 'failedDelivery', 'customsHold'];

function lines(raw: unknown): Array<{ variantId: string; quantity: number }> {
  if (!Array.isArray(raw) || !raw.length || raw.length > 50) throw invalidRequest('lines must be an array of 1 to 50 lines');
  return raw.map((l, i) => {
    const o = (l && typeof l === 'object' ? l : {}) as Json;
    if (typeof o.variantId !== 'string' || !o.variantId) throw invalidRequest(`lines[${i}].variantId must be a string`);
    if (!Number.isSafeInteger(o.quantity) || (o.quantity as number) < 1) throw invalidRequest(`lines[${i}].quantity must be a whole number from 1`);
    return { variantId: o.variantId, quantity: o.quantity as number };
  });
}

const oneOf = <T extends string>(value: unknown, allowed: readonly T[], name: string): T => {
  if (!allowed.includes(value as T)) throw invalidRequest(`${name} must be one of ${allowed.join(', ')}`);
  return value as T;
};

const claimBody = (c: SandboxClaim) => c;

/** Claims, as merchants' programs call them (docs/suppliers/sandbox.md, "Claims"). */
export function claimsRouter(rt: SandboxRuntime): Router {
  const { state } = rt;
  const router = new Router({ prefix: '/v1/claims' });

  router.post('/terms', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const record = state.orders.get(callerOf(ctx), String(body.orderId ?? ''));
    ctx.body = state.claims.terms(record, lines(body.lines));
  });

  router.post('/', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const caller = callerOf(ctx);
    const record = state.orders.get(caller, String(body.orderId ?? ''));
    const evidence = Array.isArray(body.evidence) ? body.evidence.filter((e): e is string => typeof e === 'string').slice(0, 10) : [];
    const claimKey = optionalString(body, 'claimKey', 64);
    if (!claimKey) throw invalidRequest('claimKey is required');
    const claim = state.claims.open(caller, record, {
      claimKey,
      reason: oneOf(body.reason, CLAIM_REASONS, 'reason'),
      expectation: oneOf(body.expectation, ['refund', 'reship'] as const, 'expectation'),
      lines: lines(body.lines),
      message: optionalString(body, 'message', 500) ?? '',
      evidence,
    });
    ctx.status = 201;
    ctx.body = claimBody(claim);
  });

  router.get('/', (ctx) => {
    const key = queryString(ctx.query.claimKey);
    if (!key) throw invalidRequest('claimKey is required');
    const found = state.claims.byKey(callerOf(ctx), key);
    ctx.body = { items: found ? [claimBody(found)] : [] };
  });

  router.get('/:id', (ctx) => {
    ctx.body = claimBody(state.claims.get(callerOf(ctx), ctx.params.id));
  });

  router.post('/:id/cancel', (ctx) => {
    ctx.body = claimBody(state.claims.cancel(callerOf(ctx), ctx.params.id));
  });
  return router;
}

/** Test-only levers after shipping: the clock, a parcel's journey, a claim's decision (mounted with the control API). */
export function afterShippingControl(rt: SandboxRuntime): Router {
  const { state } = rt;
  const router = new Router({ prefix: '/control' });

  router.post('/clock', (ctx) => {
    const hours = optionalInt(bodyObject(ctx.request.body), 'advanceHours', 1);
    if (hours === undefined) throw invalidRequest('advanceHours is required');
    ctx.body = state.advanceClock(hours);
  });

  router.post('/orders/:id/parcel', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const record = state.orders.any(ctx.params.id);
    const exception = body.exception === undefined ? undefined : oneOf(body.exception, EXCEPTIONS, 'exception');
    if (!state.parcel(record, { stalled: optionalBool(body, 'stalled'), exception, description: optionalString(body, 'description', 200) })) {
      throw new ApiError(409, 'notShipped', `Order ${ctx.params.id} has no parcel on its way`);
    }
    ctx.body = state.orderView(record);
  });

  router.get('/claims', (ctx) => {
    ctx.body = { items: state.claims.all() };
  });

  router.post('/claims/:id/decide', (ctx) => {
    const body = bodyObject(ctx.request.body);
    ctx.body = state.decideClaim(ctx.params.id, {
      outcome: body.outcome,
      amountMinor: optionalInt(body, 'amountMinor'),
      message: optionalString(body, 'message', 500),
    });
  });
  return router;
}
