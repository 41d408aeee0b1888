/**
 * The AliExpress-format server's HTTP: `POST /sync` (business APIs), `POST /rest/auth/token/create|refresh`, the
 * authorize page at `/oauth/authorize`, and the test-only `/control` API (control.ts). Every API request is checked as
 * AliExpress checks it (verify.ts) before anything else; refusals are `error_response` with HTTP 200.
 */
import { randomUUID } from 'node:crypto';
import Koa, { type Context } from 'koa';
import { koaBody } from 'koa-body';
import { Router } from '@koa/router';
import { controlRouter } from './control';
import { FakeAeState, HoldAnswer } from './state';
import { AeFail, checkRequest } from './verify';

export interface FakeRuntime {
  state: FakeAeState;
  /** How long a "time-out after create" holds its answer before dropping the socket. */
  createHangMs: number;
  held: Set<NodeJS.Timeout>;
}

/** JSON with BigInts written as bare numbers, as AliExpress writes order ids (past 2^53). */
function write(ctx: Context, value: unknown): void {
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `__raw__${v}` : v)).replace(/"__raw__(\d+)"/g, '$1');
}

function refuse(ctx: Context, rt: FakeRuntime, err: AeFail): void {
  rt.state.refused(err.code);
  write(ctx, {
    error_response: {
      code: err.code,
      type: err.type,
      sub_code: err.subCode || undefined,
      sub_msg: err.message,
      msg: err.message,
      request_id: randomUUID().slice(0, 13),
    },
  });
}

function params(ctx: Context): Record<string, string> {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Holds the answer past the caller's time limit, then drops the connection: the create happened, nobody heard. */
function hold(ctx: Context, rt: FakeRuntime): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      rt.held.delete(timer);
      ctx.req.socket.destroy();
      resolve();
    }, rt.createHangMs);
    rt.held.add(timer);
  });
}

function apiRouter(rt: FakeRuntime): Router {
  const { state } = rt;
  const router = new Router();
  const app = () => ({ appKey: state.options.appKey, appSecret: state.options.appSecret });

  router.post('/sync', async (ctx) => {
    const p = params(ctx);
    const now = Date.now();
    try {
      checkRequest(p, app(), '', now);
      const method = p.method ?? '';
      if (!method) throw new AeFail('MissingMethod', 'method is required');
      const buyer = state.signIn.owner(p.access_token ?? p.session ?? '', now);
      const injected = state.injected(method);
      if (injected) throw new AeFail(injected.code, injected.message ?? injected.code, injected.subCode);
      const answer = state.business(method, p, buyer, now) as Record<string, unknown>;
      write(ctx, { [`${method.replace(/\./g, '_')}_response`]: { ...answer, request_id: randomUUID().slice(0, 13) } });
    } catch (err) {
      if (err instanceof HoldAnswer) return hold(ctx, rt);
      if (err instanceof AeFail) return refuse(ctx, rt, err);
      throw err;
    }
  });

  for (const path of ['/auth/token/create', '/auth/token/refresh']) {
    router.post(`/rest${path}`, (ctx) => {
      const p = params(ctx);
      const now = Date.now();
      try {
        checkRequest(p, app(), path, now);
        const injected = state.injected(path);
        if (injected) throw new AeFail(injected.code, injected.message ?? injected.code, injected.subCode);
        write(ctx, path === '/auth/token/create' ? state.signIn.exchange(p.code ?? '', now) : state.signIn.renew(p.refresh_token ?? '', now));
      } catch (err) {
        if (err instanceof AeFail) return refuse(ctx, rt, err);
        throw err;
      }
    });
  }

  // The merchant's side of sign-in: approve (or deny) for a buyer account, then back to redirect_uri with a code.
  const authorize = (ctx: Context, q: Record<string, unknown>) => {
    const str = (v: unknown) => (typeof v === 'string' ? v : '');
    if (str(q.client_id) !== state.options.appKey || str(q.response_type) !== 'code') {
      ctx.status = 400;
      ctx.body = 'Unknown app or response_type';
      return;
    }
    let target: URL;
    try {
      target = new URL(str(q.redirect_uri));
    } catch {
      ctx.status = 400;
      ctx.body = 'redirect_uri is not an address';
      return;
    }
    if (str(q.state)) target.searchParams.set('state', str(q.state));
    if (str(q.decision) === 'deny') target.searchParams.set('error', 'access_denied');
    else if (str(q.user)) {
      if (!state.signIn.buyers.has(str(q.user))) {
        ctx.status = 400;
        ctx.body = 'No such buyer';
        return;
      }
      target.searchParams.set('code', state.signIn.issueCode(str(q.user), target.toString(), Date.now()));
    } else {
      ctx.type = 'html';
      ctx.body = `<form method="post"><p>Sign in to AliExpress (local test server)</p><input name="user" placeholder="buyer user id">${['client_id', 'redirect_uri', 'state', 'response_type'].map((k) => `<input type="hidden" name="${k}" value="${str(q[k]).replace(/"/g, '&quot;')}">`).join('')}<button name="decision" value="approve">Authorise</button><button name="decision" value="deny">Cancel</button></form>`;
      return;
    }
    ctx.status = 302;
    ctx.redirect(target.toString());
  };
  router.get('/oauth/authorize', (ctx) => authorize(ctx, ctx.query as Record<string, unknown>));
  router.post('/oauth/authorize', (ctx) => authorize(ctx, (ctx.request.body ?? {}) as Record<string, unknown>));
  return router;
}

export function createFakeAeApp(rt: FakeRuntime, control: boolean): Koa {
  const app = new Koa();
  app.use(koaBody({ urlencoded: true, json: true, text: false, formLimit: '1mb', jsonLimit: '1mb' }));
  app.use(async (ctx, next) => {
    if (rt.state.faults.unavailable && !ctx.path.startsWith('/control')) {
      ctx.status = 503;
      ctx.body = 'Service Unavailable';
      return;
    }
    await next();
  });
  const api = apiRouter(rt);
  app.use(api.routes()).use(api.allowedMethods());
  if (control) {
    const c = controlRouter(rt.state);
    app.use(c.routes()).use(c.allowedMethods());
  }
  return app;
}
