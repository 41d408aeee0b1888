import { Router } from '@koa/router';
import { invalidRequest } from './errors';
import type { SandboxRuntime } from './runtime';
import { DEFAULT_BALANCE_MINOR, noFaults } from './state';
import type { Faults } from './types';
import { bodyObject, countryCode, environment, optionalBool, optionalInt, optionalString, type Json } from './validate';

const MAX_LATENCY_MS = 120_000;

function faultView(faults: Faults): Faults {
  return { ...faults, refuseNext: faults.refuseNext ? { ...faults.refuseNext } : null, unavailableAccounts: [...faults.unavailableAccounts], silentAccounts: [...faults.silentAccounts] };
}

function mergeFaults(current: Faults, body: Json): Faults {
  const next = faultView(current);
  const latencyMs = optionalInt(body, 'latencyMs');
  if (latencyMs !== undefined) {
    if (latencyMs > MAX_LATENCY_MS) throw invalidRequest(`latencyMs must be at most ${MAX_LATENCY_MS}`);
    next.latencyMs = latencyMs;
  }
  const failNext = optionalInt(body, 'failNext');
  if (failNext !== undefined) next.failNext = failNext;
  const timeoutAfterCreateNext = optionalInt(body, 'timeoutAfterCreateNext');
  if (timeoutAfterCreateNext !== undefined) next.timeoutAfterCreateNext = timeoutAfterCreateNext;
  const rejectKeys = optionalBool(body, 'rejectKeys');
  if (rejectKeys !== undefined) next.rejectKeys = rejectKeys;
  if (body.unavailableAccounts !== undefined) {
    if (!Array.isArray(body.unavailableAccounts) || !body.unavailableAccounts.every((a: unknown) => typeof a === 'string')) throw invalidRequest('unavailableAccounts must be an array of account ids');
    next.unavailableAccounts = [...(body.unavailableAccounts as string[])];
  }
  if (body.silentAccounts !== undefined) {
    if (!Array.isArray(body.silentAccounts) || !body.silentAccounts.every((a: unknown) => typeof a === 'string')) throw invalidRequest('silentAccounts must be an array of account ids');
    next.silentAccounts = [...(body.silentAccounts as string[])];
  }
  if (body.refuseNext !== undefined) {
    if (body.refuseNext === null) next.refuseNext = null;
    else {
      const refuse = bodyObject(body.refuseNext);
      const count = optionalInt(refuse, 'count') ?? 1;
      const message = optionalString(refuse, 'message', 500, 'refuseNext.message') || 'Order refused by supplier';
      next.refuseNext = count > 0 ? { count, message } : null;
    }
  }
  return next;
}

/** Test-only levers. Mounted only with `control: true`; without it these paths are plain 404s. */
export function controlRouter(rt: SandboxRuntime): Router {
  const { state } = rt;
  const router = new Router({ prefix: '/control' });

  router.post('/accounts', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const account = state.createAccount(
      optionalInt(body, 'balanceMinor') ?? DEFAULT_BALANCE_MINOR,
      optionalInt(body, 'testBalanceMinor') ?? DEFAULT_BALANCE_MINOR,
      optionalString(body, 'email'),
    );
    ctx.status = 201;
    ctx.body = { accountId: account.id, email: account.email, liveKey: account.liveKey, testKey: account.testKey };
  });

  router.post('/accounts/:accountId/balance', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const balanceMinor = optionalInt(body, 'balanceMinor');
    if (balanceMinor === undefined) throw invalidRequest('balanceMinor is required');
    const env = state.setBalance(ctx.params.accountId, environment(body, 'environment'), balanceMinor);
    ctx.body = { accountId: ctx.params.accountId, environment: env.environment, balanceMinor: env.balanceMinor };
  });

  router.get('/faults', (ctx) => {
    ctx.body = faultView(state.faults);
  });

  router.post('/faults', (ctx) => {
    state.faults = mergeFaults(state.faults, bodyObject(ctx.request.body));
    ctx.body = faultView(state.faults);
  });

  router.delete('/faults', (ctx) => {
    state.faults = noFaults();
    ctx.body = faultView(state.faults);
  });

  router.post('/variants/:variantId', (ctx) => {
    const body = bodyObject(ctx.request.body);
    ctx.body = state.updateVariant(ctx.params.variantId, {
      costMinor: optionalInt(body, 'costMinor'),
      stock: optionalInt(body, 'stock'),
      available: optionalBool(body, 'available'),
    });
  });

  router.post('/countries/:cc', (ctx) => {
    const country = countryCode(ctx.params.cc);
    const served = optionalBool(bodyObject(ctx.request.body), 'served');
    if (served === undefined) throw invalidRequest('served is required');
    ctx.body = { country, served, unservedCountries: state.setCountryServed(country, served) };
  });

  router.post('/orders/:id/process', (ctx) => {
    ctx.body = state.markProcessing(state.anyOrder(ctx.params.id)).order;
  });

  router.post('/orders/:id/ship', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const record = state.anyOrder(ctx.params.id);
    ctx.body = state.shipByControl(record, optionalString(body, 'carrier', 64) || undefined, optionalString(body, 'trackingNumber', 64) || undefined).order;
  });

  router.post('/orders/:id/deliver', (ctx) => {
    ctx.body = state.deliver(state.anyOrder(ctx.params.id)).order;
  });

  router.get('/received', (ctx) => {
    ctx.body = state.received();
  });

  router.post('/reset', (ctx) => {
    state.reset();
    ctx.body = { reset: true };
  });

  return router;
}
