import Koa, { type Context, type Next } from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';
import { controlRouter } from './control';
import { ApiError } from './errors';
import { oauthRouter } from './oauth';
import { publicRouter } from './public';
import type { SandboxRuntime } from './runtime';
import { v1Gate, v1Router } from './v1';
import { afterShippingControl, claimsRouter } from './claim-routes';

function errorBody(code: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: { code, message, ...extra } };
}

function errors(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof ApiError) {
        ctx.status = err.status;
        ctx.body = errorBody(err.code, err.message, err.extra);
        return;
      }
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        // Body parser failures (bad JSON, oversize, bad charset).
        const code = status === 413 ? 'payloadTooLarge' : status === 415 ? 'unsupportedMediaType' : 'invalidJson';
        ctx.status = status;
        ctx.body = errorBody(code, err instanceof Error ? err.message : 'Bad request');
        return;
      }
      log.error({ err, method: ctx.method, path: ctx.path }, 'sandbox handler failed');
      ctx.status = 500;
      ctx.body = errorBody('internal', 'Sandbox supplier internal error');
    }
  };
}

export function createSandboxApp(rt: SandboxRuntime): Koa {
  const app = new Koa();
  app.on('error', (err: unknown) => rt.log.debug({ err }, 'koa error'));
  app.use(errors(rt.log));
  // Faults and auth come before body parsing so an injected 503/401 answers without reading the body.
  app.use(v1Gate(rt));
  app.use(koaBody({ json: true, urlencoded: true, text: true, multipart: false, jsonLimit: '1mb', formLimit: '64kb', textLimit: '1mb' }));
  const routers = [v1Router(rt), claimsRouter(rt), oauthRouter(rt), publicRouter(rt)];
  if (rt.control) routers.push(controlRouter(rt), afterShippingControl(rt));
  for (const router of routers) app.use(router.routes());
  app.use(async (ctx: Context) => {
    if (ctx.body === undefined && ctx.respond !== false) {
      ctx.status = 404;
      ctx.body = errorBody('notFound', `No route ${ctx.method} ${ctx.path}`);
    }
  });
  return app;
}
