import crypto from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import { koaBody } from 'koa-body';
import { ApiError, databaseUnavailable, databaseUnavailableError, errors, retryAfterSeconds } from '../errors';
import { accessLogger, type Logger, RequestLog, Throttle } from '../logger';
import { recordRequest, registry } from '../metrics';
import type { Gate } from './gate';
import { checkMetricsToken, checkOperatorToken, METRICS_CHALLENGE } from './operator-auth';
import { compileRoute, RouteRunner } from './pipeline';
import { withRawBody } from './raw-body';
import { AnyRoute, Caller, RouteDef, StoreAccess } from './route';

export { compileRoute, type RouteInput, type RouteRunner } from './pipeline';

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
  /** The read-only token `GET /metrics` also takes (Bearer); it opens nothing else. */
  metricsToken?: string;
  /** Waits until the database's standbys hold what a write is about to acknowledge (false: given up on, answered anyway). */
  durable?: { epoch(): number | null; acknowledge(since: number | null): Promise<void> };
  /** Routes with their own protocol on top of the table (the assistant link), given the compiled routes. */
  extraRoutes?: (router: Router, runners: RouteRunner[]) => void;
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
  // A database away fails every request alike: said once per window, not once per request.
  const throttle = new Throttle();
  app.use(async (ctx, next) => {
    const started = performance.now();
    const requestId = (ctx.get('x-request-id') || '').slice(0, 64).replace(/[^\w.-]/g, '') || crypto.randomUUID();
    const request = new RequestLog(opts.log, accessLog, requestId);
    ctx.state.requestId = requestId;
    ctx.state.request = request;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw errors.notFound('The route');
    } catch (err) {
      // Whatever it became (a notification address keeps its own 503), a database out of reach is said once per window.
      const unreachable = databaseUnavailable(err);
      const apiError = err instanceof ApiError ? err : unreachable ? databaseUnavailableError() : toApiError(err);
      ctx.status = apiError.status;
      if (apiError.headers) ctx.set(apiError.headers);
      ctx.body = apiError.status >= 500 ? { error: { code: apiError.code, message: apiError.message, requestId } } : apiError.toBody();
      if (apiError.status === 503) ctx.set('Retry-After', String(retryAfterSeconds(apiError)));
      if (unreachable) throttle.warn(opts.log, { requestId, err: String(err) }, 'requests answered 503: the database cannot be reached');
      else if (apiError.status === 500) request.log.error({ err }, 'request failed');
    } finally {
      const route = (ctx.state.routePath as string | undefined) ?? 'unmatched';
      const seconds = (performance.now() - started) / 1000;
      recordRequest(ctx.method, route, ctx.status, seconds);
      request.access(ctx.method, route, ctx.path, ctx.status, Math.round(seconds * 1000));
    }
  });

  // A write's success is said only once the database's standbys hold it: a failover then cannot take back what a
  // caller (a merchant, a payment provider's notification) was told was done. A database gone meanwhile answers 503.
  if (opts.durable) {
    const durable = opts.durable;
    app.use(async (ctx, next) => {
      // The database's timeline before the handler: a failover during it answers 503, not a success the promoted server never saw.
      const since = durable.epoch();
      await next();
      if (WITH_BODY.has(ctx.method) && ctx.status < 400) await durable.acknowledge(since);
    });
  }

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
    if (!ok) ctx.set('Retry-After', '5');
    ctx.body = ok ? { status: 'ready' } : { error: { code: 'notReady', message: 'The database is not reachable.' } };
  });
  router.get('/metrics', async (ctx) => {
    ctx.state.routePath = '/metrics';
    checkMetricsToken({ operator: opts.operatorToken, metrics: opts.metricsToken ?? '' }, header(ctx, 'x-operator-token'), bearer(ctx), () =>
      ctx.set('WWW-Authenticate', METRICS_CHALLENGE),
    );
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

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { status?: number; expose?: boolean; message?: string; code?: string };
  if (e && e.status === 405) return errors.methodNotAllowed();
  if (e && e.status === 413) return errors.payloadTooLarge();
  if (e && e.status === 415) return errors.unsupportedMediaType();
  if (e && e.status && e.status >= 400 && e.status < 500) return new ApiError(e.status, 'badRequest', 'The request could not be handled.');
  return new ApiError(500, 'internalError', 'Something went wrong on our side; quote the request id when you report it.');
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
async function authenticateForStore(
  ctx: Koa.Context,
  gate: Gate,
  auth: RouteDef['auth'],
  storeId: string | null,
  keyRefusal?: unknown,
): Promise<{ caller: Caller | null; store?: StoreAccess | null }> {
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
    const { caller, store } =
      route.auth === 'operator'
        ? { caller: null, store: undefined }
        : await authenticateForStore(ctx, gate, route.auth, ctx.params.storeId ?? null, route.keyRefusal);
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
