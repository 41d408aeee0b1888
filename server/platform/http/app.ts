import crypto from 'node:crypto';
import type { Server } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { ApiError, errors } from '../errors';
import { accessLogger, type Logger, RequestLog } from '../logger';
import { recordRequest, registry } from '../metrics';
import type { Gate } from './gate';
import { checkMetricsToken, checkOperatorToken, METRICS_CHALLENGE } from './operator-auth';
import { AnyRoute, Caller, CreditRule, CreditTicket, Payer, Reply, RequestContext, RouteCredits, RouteDef, StoreAccess } from './route';
import { compileValidators } from './validation';

export interface AppOptions {
  routes: AnyRoute[];
  gate: Gate;
  log: Logger;
  jsonBodyLimit: string;
  /** The OpenAPI document, given the scheme, host and port the request came to (for `servers`). */
  openApiDocument: (origin: string) => unknown;
  ready: () => Promise<boolean>;
  /** The operator token routes with `auth: 'operator'` take in `X-Operator-Token`; empty: those routes answer 404. */
  operatorToken: string;
  /** Routes with their own protocol on top of the table (the assistant link), given the compiled routes. */
  extraRoutes?: (router: Router, runners: RouteRunner[]) => void;
}

const RAW_BODY_LIMIT = 256 * 1024;

/** The body's text, or undefined when it is larger than `limit` bytes. */
function readRawBody(req: NodeJS.ReadableStream, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function header(ctx: Koa.Context, name: string): string | undefined {
  const v = ctx.get(name);
  return v === '' ? undefined : v;
}

function bearer(ctx: Koa.Context): string | undefined {
  const auth = header(ctx, 'authorization');
  if (!auth) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(auth);
  return m ? m[1].trim() : auth; // anything else is a credential that will not validate
}

function hasBody(ctx: Koa.Context): boolean {
  const len = ctx.get('content-length');
  return (len !== '' && len !== '0') || ctx.get('transfer-encoding') !== '';
}

export function buildApp(opts: AppOptions): Koa {
  const app = new Koa({ proxy: false });
  const router = new Router();

  // Request id, access log, metrics, and the one place errors become bodies.
  const accessLog = accessLogger(opts.log);
  app.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    const requestId = (ctx.get('x-request-id') || '').slice(0, 64).replace(/[^\w.-]/g, '') || crypto.randomUUID();
    const request = new RequestLog(opts.log, accessLog, requestId);
    ctx.state.requestId = requestId;
    ctx.state.request = request;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw errors.notFound('The route');
    } catch (err) {
      const apiError = toApiError(err, ctx);
      ctx.status = apiError.status;
      if (apiError.headers) ctx.set(apiError.headers);
      ctx.body = apiError.status >= 500 ? { error: { code: apiError.code, message: apiError.message, requestId } } : apiError.toBody();
      if (apiError.status >= 500) request.log.error({ err }, 'request failed');
    } finally {
      const route = (ctx.state.routePath as string | undefined) ?? 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      recordRequest(ctx.method, route, ctx.status, seconds);
      request.access(ctx.method, route, ctx.path, ctx.status, Math.round(seconds * 1000));
    }
  });

  // Bodies: only methods that carry one get past the first line. Routes that verify signatures take the raw
  // bytes as they came, whatever their type; every other body must be JSON, refused before parsing otherwise.
  const rawRoutes = opts.routes.filter((r) => r.rawBody).map((r) => ({ prefix: r.path.split('/:')[0] + '/', refusal: r.refusal }));
  const parseJson = koaBody({
      json: true,
      urlencoded: false,
      text: false,
      multipart: false,
      jsonLimit: opts.jsonBodyLimit,
      jsonStrict: true,
      includeUnparsed: false,
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
      onError: (err: Error & { status?: number; type?: string }) => {
        if (err.status === 413 || err.type === 'entity.too.large') throw errors.payloadTooLarge();
        if (err.status === 415) throw errors.unsupportedMediaType();
        throw errors.malformedJson();
      },
    } as Parameters<typeof koaBody>[0]);
  app.use((ctx, next) => {
    if (!WITH_BODY.has(ctx.method)) return next();
    const raw = ctx.method === 'POST' ? rawRoutes.find((r) => ctx.path.startsWith(r.prefix)) : undefined;
    if (raw) return withRawBody(ctx, next, raw.refusal);
    if (hasBody(ctx) && !ctx.is('application/json')) throw errors.unsupportedMediaType();
    return parseJson(ctx, next);
  });

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const ok = await opts.ready().catch(() => false);
    ctx.status = ok ? 200 : 503;
    ctx.body = ok ? { status: 'ready' } : { error: { code: 'notReady', message: 'The database is not reachable.' } };
  });
  router.get('/metrics', async (ctx) => {
    ctx.state.routePath = '/metrics';
    checkMetricsToken(opts.operatorToken, header(ctx, 'x-operator-token'), bearer(ctx), () => ctx.set('WWW-Authenticate', METRICS_CHALLENGE));
    ctx.type = registry.contentType;
    ctx.body = await registry.metrics();
  });
  router.get('/api/store-suppliers/openapi.json', (ctx) => {
    ctx.body = opts.openApiDocument(`${ctx.protocol}://${ctx.host}`);
  });

  const runners = opts.routes.map((route) => compileRoute(route, opts.gate));
  opts.extraRoutes?.(router, runners);
  for (const runner of runners) mountRoute(router, runner, opts.gate, opts.operatorToken);

  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true, methodNotAllowed: () => errors.methodNotAllowed(), notImplemented: () => errors.methodNotAllowed() }));
  return app;
}

/** The raw body for a route that verifies it; with a refusal body, every 4xx under its path (even one that matches no route) is that one answer. */
async function withRawBody(ctx: Koa.Context, next: Koa.Next, refusal: unknown): Promise<void> {
  ctx.state.rawBodyRoute = true;
  try {
    ctx.state.rawBody = await readRawBody(ctx.req, RAW_BODY_LIMIT).catch(() => {
      throw errors.badRequest('bodyUnreadable', 'The request body could not be read.');
    });
    await next();
    if (ctx.status === 404 && ctx.body === undefined) throw errors.notFound('The route');
  } catch (err) {
    const status = err instanceof ApiError ? err.status : (err as { status?: unknown })?.status;
    if (refusal === undefined || typeof status !== 'number' || status < 400 || status >= 500) throw err;
    ctx.status = 400;
    ctx.body = refusal;
  }
}

function toApiError(err: unknown, ctx: Koa.Context): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { status?: number; expose?: boolean; message?: string; code?: string };
  if (e && e.status === 405) return errors.methodNotAllowed();
  if (e && e.status === 413) return errors.payloadTooLarge();
  if (e && e.status === 415) return errors.unsupportedMediaType();
  if (e && e.status && e.status >= 400 && e.status < 500) return new ApiError(e.status, 'badRequest', 'The request could not be handled.');
  void ctx;
  return new ApiError(500, 'internalError', 'Something went wrong on our side; quote the request id when you report it.');
}

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
 * credits (402, refunded if the handler fails), handler. Throws ApiError for every refusal.
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
        const found = await route.carriedCaller!(input.query as never, input.headers);
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
  if (store && typeof route.planGated === 'object' && route.planGated.when((body ?? {}) as never) && !gate.planIncludesDropshipping(store.ownerPlan)) {
    throw errors.planRequired(gate.requiredPlan);
  }
  validate('body', body);

  const credits = routeCredits(route.credits, body, caller, gate, requestId);
  await credits.chargeUpFront();
  const rc: RequestContext = {
    requestId,
    params,
    query,
    body,
    caller,
    store,
    get log() {
      return input.log;
    },
    credits: credits.api,
    carried,
    rawBody: input.rawBody,
    headers: input.headers,
    get origin() {
      return input.origin;
    },
  };
  let out: unknown;
  try {
    out = await route.handler(rc as never);
  } catch (err) {
    await credits.refundAll().catch((e) => input.log.error({ err: e }, 'credit refund failed'));
    throw err;
  }
  await credits.refundUndone().catch((e) => input.log.error({ err: e }, 'credit refund failed'));
  if (out instanceof Reply) return { status: out.status, body: out.raw ? out.result : { result: out.result }, headers: out.headers };
  return { status: route.response.status, body: route.response.status === 204 ? undefined : { result: out } };
}

const noCredits = (): never => {
  throw new Error('this route charges no credits');
};
/** A route without a credit rule: nothing to charge or refund, and no credit API for its handler. */
const NO_CREDITS = {
  api: { refundUnits: noCredits, chargeInTransaction: async () => noCredits(), ticket: noCredits } as RouteCredits,
  chargeUpFront: async () => undefined,
  refundAll: async () => undefined,
  refundUndone: async () => undefined,
};

/** The route's credit rule applied to one request: what is charged up front, what the handler may still do, and refunds. */
function routeCredits(rule: CreditRule | undefined, body: unknown, caller: Caller | null, gate: Gate, requestId: string) {
  if (!rule) return NO_CREDITS;
  const payer: Payer | null = caller ? { accountId: caller.accountId, apiKeyId: caller.apiKey?.id ?? null } : null;
  const timing = !rule ? undefined : typeof rule.when === 'function' ? rule.when(body) : (rule.when ?? 'request');
  const units = rule?.units ? rule.units(body) : 1;
  let charged = 0;
  let undone = 0;
  const refund = async (n: number) => {
    if (!rule || !payer || n <= 0) return;
    await gate.refund(payer, rule.action, rule.price * n, requestId);
  };
  const api: RouteCredits = {
    refundUnits(n) {
      if (timing !== 'request') throw new Error('refundUnits is for credits charged per request');
      undone = Math.min(charged, undone + n);
    },
    async chargeInTransaction(tx, n = 1, requestKey = requestId) {
      if (timing !== 'recordCreated') throw new Error('chargeInTransaction is for credits charged per record made');
      if (rule && payer) await gate.charge(payer, rule.action, rule.price * n, requestKey, tx);
    },
    ticket(): CreditTicket {
      if (!rule || !payer || timing !== 'recordCreated') throw new Error('a credit ticket is for credits charged per record made');
      return { action: rule.action, price: rule.price, payer };
    },
  };
  return {
    api,
    async chargeUpFront() {
      if (!rule || !payer || timing !== 'request' || units <= 0) return;
      await gate.charge(payer, rule.action, rule.price * units, requestId);
      charged = units;
    },
    refundAll: () => refund(charged),
    refundUndone: () => refund(undone),
  };
}

/** Authenticates a request the way every route does; null when the route takes no credential. */
export async function authenticateRequest(ctx: Koa.Context, gate: Gate, auth: RouteDef['auth']): Promise<Caller | null> {
  return (await authenticateForStore(ctx, gate, auth, null)).caller;
}

/** The scheme and host the caller used, for addresses in answers. */
export function originOf(ctx: Koa.Context): string {
  return `${ctx.protocol}://${ctx.host}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Authentication and, for a well-formed :storeId, the caller's access to that store, in one round trip. */
async function authenticateForStore(ctx: Koa.Context, gate: Gate, auth: RouteDef['auth'], storeId: string | null, keyRefusal?: unknown): Promise<{ caller: Caller | null; store?: StoreAccess | null }> {
  if (auth === 'none' || auth === 'carried' || auth === 'operator') return { caller: null };
  const found = await gate.authenticateFor({ apiKey: header(ctx, 'x-api-key'), bearer: bearer(ctx) }, storeId && UUID.test(storeId) ? storeId : null);
  if (!found) throw errors.unauthenticated();
  const { caller } = found;
  if (auth === 'session' && caller.apiKey) throw keyRefusal ?? errors.keysCannotManageKeys();
  (ctx.state.request as RequestLog).identify(caller.accountId, caller.apiKey?.id);
  return found;
}

function mountRoute(router: Router, runner: RouteRunner, gate: Gate, operatorToken: string): void {
  const { route } = runner;
  router[route.method](route.path, async (ctx) => {
    ctx.state.routePath = route.path;
    if (route.auth === 'operator') {
      checkOperatorToken(operatorToken, header(ctx, 'x-operator-token'));
      (ctx.state.request as RequestLog).asOperator();
    }
    const { caller, store } = route.auth === 'operator' ? { caller: null, store: undefined } : await authenticateForStore(ctx, gate, route.auth, ctx.params.storeId ?? null, route.keyRefusal);
    let body: unknown = ctx.state.rawBodyRoute ? undefined : ctx.request.body;
    if (body && typeof body === 'object' && !hasBody(ctx)) body = undefined;
    const request = ctx.state.request as RequestLog;
    const out = await runner.run({
      caller,
      params: { ...ctx.params },
      query: { ...(ctx.query as Record<string, unknown>) },
      body,
      rawBody: route.rawBody ? (ctx.state.rawBody as string | undefined) : undefined,
      headers: ctx.headers,
      // Read when a handler asks: most never do.
      get origin() {
        return originOf(ctx);
      },
      requestId: ctx.state.requestId as string,
      get log() {
        return request.log;
      },
      store,
    });
    if (out.headers) ctx.set(out.headers);
    ctx.status = out.status;
    ctx.body = out.body;
  });
}

/** Listens, and closes gracefully: stops accepting, lets in-flight requests finish. */
export function listen(app: Koa, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, () => resolve(server));
    server.once('error', reject);
    // Longer than any client keeps an idle socket: a client whose event loop was busy must not send on a
    // socket we closed meanwhile ("other side closed"). Shutdown closes idle sockets itself.
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  });
}

export function closeServer(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections();
      resolve();
    }, timeoutMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
