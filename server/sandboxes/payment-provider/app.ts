import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';
import { checkoutRouter } from './checkout';
import { controlRouter } from './control';
import { Refusal } from './refusal';
import type { Payments } from './runtime';
import { v1Router } from './v1';

/** The provider's HTTP app: its merchant API, its hosted checkout, and (asked for) its control API. */
export function createPaymentsApp(p: Payments, log: Logger): Koa {
  const app = new Koa();
  app.on('error', (err: unknown) => log.debug({ err }, 'koa error'));
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const known = err instanceof Refusal ? err : null;
      const status =
        known?.status ?? ((err as { status?: number }).status && (err as { status: number }).status < 500 ? (err as { status: number }).status : 500);
      ctx.status = status;
      ctx.body = {
        error: { code: known?.code ?? (status === 500 ? 'internal' : 'badRequest'), message: known?.message ?? (err instanceof Error ? err.message : 'error') },
      };
      if (status === 500) log.error({ err }, 'sandbox payments handler failed');
    }
  });
  app.use(koaBody({ json: true, urlencoded: true, text: false, multipart: false, jsonLimit: '64kb', formLimit: '16kb' }));

  for (const router of [v1Router(p), checkoutRouter(p), ...(p.control ? [controlRouter(p)] : [])]) app.use(router.routes());
  app.use(async (ctx) => {
    if (ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { error: { code: 'notFound', message: `No route ${ctx.method} ${ctx.path}` } };
    }
  });
  return app;
}
