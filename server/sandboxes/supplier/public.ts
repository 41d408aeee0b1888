import { Router } from '@koa/router';
import { notFoundPage, productImage, productPage } from './pages';
import type { SandboxRuntime } from './runtime';

/** Unauthenticated pages, so product `url`/`imageUrl` paths also resolve on the sandbox's own port. */
export function publicRouter(rt: SandboxRuntime): Router {
  const router = new Router();

  router.get('/', (ctx) => {
    ctx.body = { name: 'Sandbox Supplier', api: '/v1', control: rt.control };
  });

  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });

  router.get('/p/:id', (ctx) => {
    const product = rt.state.catalogue.getProduct(ctx.params.id);
    ctx.type = 'html';
    if (!product) {
      ctx.status = 404;
      ctx.body = notFoundPage(`No product ${ctx.params.id}`);
      return;
    }
    ctx.body = productPage(product);
  });

  router.get('/img/:file', (ctx) => {
    const product = rt.state.catalogue.getProduct(ctx.params.file.replace(/\.svg$/, ''));
    if (!product) {
      ctx.status = 404;
      ctx.type = 'html';
      ctx.body = notFoundPage(`No image ${ctx.params.file}`);
      return;
    }
    ctx.type = 'image/svg+xml';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = productImage(product);
  });

  return router;
}
