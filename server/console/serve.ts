import fs from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import type Koa from 'koa';

/**
 * The merchant console: static files only. The page signs in with e-mail and password and then calls the
 * public API like any other client, so nothing here touches a service or the database.
 */
const ROOT = path.resolve(__dirname, '../../..');
const SOURCES = [path.join(ROOT, 'console/static'), path.join(ROOT, 'dist/console')];
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

interface Asset {
  type: string;
  body: Buffer;
}

/** Every servable file, read once: file names are the only paths answered, so nothing outside can be reached. */
function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const dir of SOURCES) {
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir)) {
      const type = TYPES[path.extname(name)];
      if (type) assets.set(name, { type, body: fs.readFileSync(path.join(dir, name)) });
    }
  }
  return assets;
}

export function mountConsole(router: Router): void {
  let assets: Map<string, Asset> | null = null;
  const serve = (ctx: Koa.Context, name: string) => {
    assets ??= loadAssets();
    const asset = assets.get(name);
    if (!asset) return; // falls through to the service's 404 body
    ctx.set('Content-Security-Policy', CONSOLE_CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = asset.type;
    ctx.body = asset.body;
  };
  router.get('/console', (ctx) => {
    ctx.state.routePath = '/console';
    serve(ctx, 'index.html');
  });
  router.get('/console/:file', (ctx) => {
    ctx.state.routePath = '/console/:file';
    if (/^[a-z0-9-]+\.(js|css|svg)$/.test(ctx.params.file)) serve(ctx, ctx.params.file);
  });
}
