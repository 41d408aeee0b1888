/** The raw body of a route that verifies a signature over the bytes as they came (the notification addresses). */
import type Koa from 'koa';
import { ApiError, errors } from '../errors';

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
export /** The raw body for a route that verifies it; with a refusal body, every 4xx under its path (even one that matches no route) is that one answer. */
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
