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
  // The page query SupplierOrderReads.list runs for needsReview=true without a cursor (pageSize 25 + 1), then the 25 rows.
  router.get('/bench/baseline/supplier-orders/:storeId', async (ctx) => {
    const keys: Array<{ id: string; cursor_at: string }> = await s.db.query(
      'SELECT s.id, s.created_at::text AS cursor_at FROM supplier_orders s WHERE s.store_id = $1 AND s.status = $2 ORDER BY s.created_at DESC, s.id DESC LIMIT 26',
      [ctx.params.storeId, 'needsReview'],
    );
    ctx.body = keys.length ? await s.db.query('SELECT * FROM supplier_orders WHERE id = ANY($1)', [keys.slice(0, 25).map((k) => k.id)]) : [];
  });
}
