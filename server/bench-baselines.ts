import type Router from '@koa/router';
import type { Services } from './composition';

/**
 * Bare Koa routes for `npm run bench`: the same work as a real route minus the pipeline
 * (auth, permission, validation, envelope), so the benchmark can report the pipeline's cost as a ratio.
 */
export function mountBenchBaselines(router: Router, s: Services): void {
  router.get('/bench/baseline/noop', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/bench/baseline/store-products/:storeId', async (ctx) => {
    ctx.body = await s.db.query('SELECT * FROM store_products WHERE store_id = $1 ORDER BY created_at DESC, id DESC LIMIT 25', [ctx.params.storeId]);
  });
}
