/**
 * The benchmarks' bare routes, in a process of their own (`node dist/bench/baseline-server.js`), never in the
 * service: Koa, one pg pool of the service's size, and per route the minimal SQL for the same answer as the
 * real route: a keyed route authenticates with one indexed lookup, then one statement for the page, its nested
 * parts and the totalCount the database keeps. No pipeline, validation, cursors, envelope or request log.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { Pool } from 'pg';
import { Secrets } from '../server/platform/crypto';

const db = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const secrets = new Secrets(process.env.APP_SECRET!);
const app = new Koa();
// Requests cut off when the benchmark stops its load are no news.
app.silent = true;
const router = new Router();

/** One indexed lookup by digest, as the service's key check. */
async function accountOf(ctx: Koa.Context): Promise<string | null> {
  const key = ctx.get('x-api-key');
  const rows = (await db.query('SELECT account_id FROM api_keys WHERE key_digest = $1 AND revoked_at IS NULL', [secrets.digest(key)])).rows;
  if (!rows[0]) ctx.status = 401;
  return rows[0]?.account_id ?? null;
}

router.get('/healthz', (ctx) => {
  ctx.body = { status: 'ok' };
});

// GET /api/api-key/current: the key and its account in one statement.
router.get('/api-key/current', async (ctx) => {
  const rows = (
    await db.query(
      `SELECT k.id, k.name, k.key_last4, k.record_scope, k.last_used_at, k.created_at, a.id AS account_id, a.email, a.name AS account_name, a.plan, a.is_developer, a.credits
         FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_digest = $1 AND k.revoked_at IS NULL`,
      [secrets.digest(ctx.get('x-api-key'))],
    )
  ).rows;
  if (!rows[0]) ctx.status = 401;
  ctx.body = rows[0] ?? {};
});

// GET /api/store-products/:storeId?pageSize=25
router.get('/store-products/:storeId', async (ctx) => {
  if (!(await accountOf(ctx))) return;
  ctx.body = (
    await db.query(
      `WITH page AS (SELECT * FROM store_products p WHERE p.store_id = $1 ORDER BY p.created_at DESC, p.id DESC LIMIT 26)
       SELECT (SELECT sum(n) FROM store_product_counts WHERE store_id = $1) AS total_count, p.*,
              (SELECT json_agg(v ORDER BY v.position) FROM store_variants v WHERE v.product_id = p.id) AS variants
         FROM page p ORDER BY p.created_at DESC, p.id DESC`,
      [ctx.params.storeId],
    )
  ).rows;
});

// GET /api/store-suppliers/:storeId/orders?needsReview=true&pageSize=25
router.get('/supplier-orders/:storeId', async (ctx) => {
  if (!(await accountOf(ctx))) return;
  ctx.body = (
    await db.query(
      `WITH page AS (SELECT * FROM supplier_orders s WHERE s.store_id = $1 AND s.status = 'needsReview' ORDER BY s.created_at DESC, s.id DESC LIMIT 26)
       SELECT (SELECT sum(n) FROM supplier_order_counts WHERE store_id = $1 AND status = 'needsReview') AS total_count, s.*,
              (SELECT json_agg(e ORDER BY e.id) FROM supplier_order_events e WHERE e.supplier_order_id = s.id) AS events
         FROM page s ORDER BY s.created_at DESC, s.id DESC`,
      [ctx.params.storeId],
    )
  ).rows;
});

app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(JSON.stringify({ baseUrl: `http://127.0.0.1:${port}` }) + '\n');
});
server.keepAliveTimeout = 5000;
process.on('SIGTERM', () => process.exit(0));
