import { Router } from '@koa/router';
import { DEFAULT_BALANCE_MINOR } from './accounts';
import { invalidRequest } from './errors';
import { fromCents, sandboxCurrency } from './money';
import { faultView, mergeFaults, noFaults } from './faults';
import type { SandboxRuntime } from './runtime';
import { bodyObject, countryCode, environment, optionalBool, optionalInt, optionalString } from './validate';

/** Test-only levers. Mounted only with `control: true`; without it these paths are plain 404s. */
export function controlRouter(rt: SandboxRuntime): Router {
  const { state } = rt;
  const router = new Router({ prefix: '/control' });

  router.post('/accounts', (ctx) => {
    const body = bodyObject(ctx.request.body);
    // Balances are given in the account's currency; the default is the same sum in it.
    const currency = sandboxCurrency(body.currency);
    const account = state.accounts.create(
      optionalInt(body, 'balanceMinor') ?? fromCents(DEFAULT_BALANCE_MINOR, currency),
      optionalInt(body, 'testBalanceMinor') ?? fromCents(DEFAULT_BALANCE_MINOR, currency),
      optionalString(body, 'email'),
      undefined,
      currency,
    );
    ctx.status = 201;
    ctx.body = { accountId: account.id, email: account.email, liveKey: account.liveKey, testKey: account.testKey, currency: account.currency };
  });

  router.post('/accounts/:accountId/balance', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const balanceMinor = optionalInt(body, 'balanceMinor');
    if (balanceMinor === undefined) throw invalidRequest('balanceMinor is required');
    const env = state.accounts.setBalance(ctx.params.accountId, environment(body, 'environment'), balanceMinor);
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
    ctx.body = state.orders.markProcessing(state.orders.any(ctx.params.id)).order;
  });

  router.post('/orders/:id/ship', (ctx) => {
    const body = bodyObject(ctx.request.body);
    const record = state.orders.any(ctx.params.id);
    ctx.body = state.orders.shipByControl(
      record,
      optionalString(body, 'carrier', 64) || undefined,
      optionalString(body, 'trackingNumber', 64) || undefined,
    ).order;
  });

  router.post('/orders/:id/deliver', (ctx) => {
    ctx.body = state.orders.deliver(state.orders.any(ctx.params.id)).order;
  });

  router.delete('/call-load', (ctx) => {
    state.records.resetCallLoad();
    ctx.body = { reset: true };
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
