import crypto from 'node:crypto';
import { ApiError, errors } from '../errors';
import type { Logger } from '../logger';
import { failpoint } from '../failpoints';
import type { CreditHold, Gate } from './gate';
import { fingerprintOf, idempotencyKeyOf, NO_KEY, runKeyed, scopeOf } from './idempotency';
import { AnyRoute, Caller, CreditRule, CreditTicket, Payer, Reply, RequestContext, RequestIdempotency, RouteCredits, StoreAccess } from './route';
import { compileValidators } from './validation';

/** What one request brings to its route's pipeline, from HTTP or from the assistant link. */
export interface RouteInput {
  caller: Caller | null;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** undefined when no body was sent. */
  body: unknown;
  rawBody?: string;
  headers: Record<string, string | string[] | undefined>;
  origin: string;
  requestId: string;
  log: Logger;
  /** The caller's access to :storeId when authentication already read it; undefined: read it here. */
  store?: StoreAccess | null;
}

/** A compiled route: the whole pipeline after authentication, callable from HTTP and from the assistant link alike. */
export interface RouteRunner {
  route: AnyRoute;
  run(input: RouteInput): Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;
}

/**
 * Path parameters, store access (404), permission (403), plan gate (403), query and body validation (400),
 * credits (402, held while the handler runs; what its work did not spend refunded after), handler. Throws ApiError for every refusal.
 */
export function compileRoute(route: AnyRoute, gate: Gate): RouteRunner {
  const validate = compileValidators(route);
  return {
    route,
    async run(input) {
      let { caller, params } = input;
      let carried: unknown;
      let store = input.store;
      if (route.auth === 'carried') {
        // The caller comes from a token in the request; every later refusal is the route's one refusal.
        validate('query', input.query);
        const found = await route.carriedCaller!(input.query, input.headers);
        if (!found) throw route.refusal;
        ({ caller, carried } = found);
        params = { ...params, storeId: found.storeId };
        store = undefined;
      }
      try {
        return await runChecked(route, gate, input, { caller, params, store, carried }, validate);
      } catch (err) {
        if (route.auth === 'carried' && err instanceof ApiError && (err.status === 403 || err.status === 404)) throw route.refusal;
        throw err;
      }
    },
  };
}

/** Who calls and where: the input's, or what a carried token said. */
interface Resolved {
  caller: Caller | null;
  params: Record<string, string>;
  store: StoreAccess | null | undefined;
  carried: unknown;
}

// `input` is read field by field, never spread: its log and origin are made only when a handler reads them.
async function runChecked(route: AnyRoute, gate: Gate, input: RouteInput, resolved: Resolved, validate: ReturnType<typeof compileValidators>) {
  const { caller, params, carried } = resolved;
  const { query, requestId } = input;
  if (route.auth !== 'carried') validate('params', params);
  let store = null;
  if (caller && params.storeId) {
    store = resolved.store !== undefined ? resolved.store : await gate.storeAccess(params.storeId, caller);
    if (!store) throw errors.notFound('The store');
    if (route.permission && !store.permissions.has(route.permission)) throw errors.permissionDenied(route.permission);
    if (route.planGated === true && !gate.planIncludesDropshipping(store.ownerPlan)) throw errors.planRequired(gate.requiredPlan);
  }
  if (route.auth !== 'carried') validate('query', query);
  let body = input.body;
  if (route.body && body === undefined) body = {};
  // A conditional gate looks at the body, so it runs once the body is known to be well-formed JSON.
  if (store && typeof route.planGated === 'object' && route.planGated.when(body ?? {}) && !gate.planIncludesDropshipping(store.ownerPlan)) {
    throw errors.planRequired(gate.requiredPlan);
  }
  validate('body', body);

  const key = route.idempotent && caller && gate.idempotency ? idempotencyKeyOf(input.headers) : null;
  const context = (credits: RouteCredits, idempotency: RequestIdempotency): RequestContext => ({
    requestId,
    params,
    query,
    body,
    caller,
    store,
    get log() {
      return input.log;
    },
    credits,
    carried,
    rawBody: input.rawBody,
    headers: input.headers,
    get origin() {
      return input.origin;
    },
    idempotency,
  });
  const run = async (idempotency: RequestIdempotency) => {
    const credits = routeCredits(route.credits, body, caller, gate, requestId);
    await credits.chargeUpFront();
    let out: unknown;
    try {
      out = await route.handler(context(credits.api, idempotency));
    } finally {
      // Success or failure alike: what the work spent stays charged, the rest is refunded.
      await credits.settle().catch((e) => input.log.error({ err: e }, 'credit refund failed'));
    }
    return answerOf(route, out);
  };
  if (key === null) return run(NO_KEY);
  // Claimed before any credit is taken: a replay charges nothing.
  const claim = {
    accountId: caller!.accountId,
    scope: scopeOf(caller!),
    key,
    fingerprint: fingerprintOf(route.operationId, params, query, body),
    token: crypto.randomUUID(),
  };
  const recover = typeof route.idempotent === 'object' ? route.idempotent.recover : null;
  const rebuild = recover && (async (ref: string) => answerOf(route, await recover(context(NO_CREDITS.api, NO_KEY), ref)));
  return runKeyed(gate.idempotency!, claim, run, rebuild, (err) => input.log.error({ err }, 'idempotency key not kept'));
}

function answerOf(route: AnyRoute, out: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
  if (out instanceof Reply) return { status: out.status, body: out.raw ? out.result : { result: out.result }, headers: out.headers };
  return { status: route.response.status, body: route.response.status === 204 ? undefined : { result: out } };
}

const noCredits = (): never => {
  throw new Error('this route charges no credits');
};
/** A route without a credit rule: nothing to charge or refund, and no credit API for its handler. */
const NO_CREDITS = {
  api: { spendInTransaction: async () => noCredits(), chargeInTransaction: async () => noCredits(), ticket: noCredits } as RouteCredits,
  chargeUpFront: async () => undefined,
  settle: async () => undefined,
};

/** The route's credit rule applied to one request: what is held up front, what the handler may still do, and the refund. */
function routeCredits(rule: CreditRule | undefined, body: unknown, caller: Caller | null, gate: Gate, requestId: string) {
  if (!rule) return NO_CREDITS;
  const payer: Payer | null = caller ? { accountId: caller.accountId, apiKeyId: caller.apiKey?.id ?? null } : null;
  const timing = typeof rule.when === 'function' ? rule.when(body) : (rule.when ?? 'request');
  const units = rule.units ? rule.units(body) : 1;
  let hold: CreditHold | null = null;
  let renewing: NodeJS.Timeout | null = null;
  const api: RouteCredits = {
    async spendInTransaction(tx, n = 1) {
      if (timing !== 'request') throw new Error('spendInTransaction is for credits charged per request');
      await hold?.spend(tx, n);
    },
    async chargeInTransaction(tx, n = 1, requestKey = requestId) {
      if (timing !== 'recordCreated') throw new Error('chargeInTransaction is for credits charged per record made');
      if (payer) await gate.charge(payer, rule.action, rule.price * n, requestKey, tx);
    },
    ticket(): CreditTicket {
      if (!payer || timing !== 'recordCreated') throw new Error('a credit ticket is for credits charged per record made');
      return { action: rule.action, price: rule.price, payer };
    },
  };
  return {
    api,
    async chargeUpFront() {
      if (!payer || timing !== 'request' || units <= 0 || rule.price <= 0) return;
      const held = await gate.hold(payer, rule.action, rule.price, units, requestId);
      hold = held;
      // Fault drill: killed between the charge and the work (the held credits are then the sweep's to give back).
      failpoint('credits.held');
      renewing = setInterval(() => void held.renew().catch(() => undefined), held.renewEveryMs);
      renewing.unref();
    },
    async settle() {
      if (renewing) clearInterval(renewing);
      await hold?.settle();
    },
  };
}
