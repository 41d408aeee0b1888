import type { Context } from 'koa';
import { Router } from '@koa/router';
import { ApiError, invalidRequest } from './errors';
import { authorizePage, type AuthorizeParams } from './pages';
import type { SandboxRuntime } from './runtime';
import { ACCESS_TOKEN_TTL_SECONDS } from './sign-ins';
import { bodyObject, httpUrl, type Json } from './validate';

function str(value: unknown): string {
  if (Array.isArray(value)) return str(value[0]);
  return typeof value === 'string' ? value : '';
}

function authorizeParams(source: Json): AuthorizeParams {
  const clientId = str(source.client_id);
  if (!clientId) throw invalidRequest('client_id is required');
  return { clientId, redirectUri: httpUrl(source.redirect_uri, 'redirect_uri'), state: str(source.state) };
}

function redirectWith(ctx: Context, redirectUri: string, params: Record<string, string>): void {
  const target = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value) target.searchParams.set(key, value);
  ctx.status = 302;
  ctx.redirect(target.toString());
}

/** OAuth-style sign-in: authorize page -> code on redirect_uri -> POST /oauth/token for an access token. */
export function oauthRouter(rt: SandboxRuntime): Router {
  const { state } = rt;
  const router = new Router({ prefix: '/oauth' });

  router.get('/authorize', (ctx) => {
    const query = ctx.query as Json;
    const params = authorizeParams(query);
    // Shortcut for automated tests: approve without the HTML round trip.
    if (str(query.approve) === '1' && str(query.accountId)) {
      const account = state.accounts.find(str(query.accountId));
      if (!account) throw new ApiError(400, 'unknownAccount', `No account ${str(query.accountId)}`);
      const code = state.signIns.issueCode(account, params.clientId, params.redirectUri);
      redirectWith(ctx, params.redirectUri, { code, state: params.state });
      return;
    }
    ctx.type = 'html';
    ctx.body = authorizePage(params);
  });

  router.post('/authorize', (ctx) => {
    const form = Boolean(ctx.is('urlencoded'));
    const body = bodyObject(ctx.request.body);
    const params = authorizeParams(body);
    if (str(body.decision) === 'deny') {
      redirectWith(ctx, params.redirectUri, { error: 'access_denied', state: params.state });
      return;
    }
    const accountId = str(body.accountId);
    const account = accountId ? state.accounts.find(accountId) : undefined;
    if (!account) {
      if (form) {
        ctx.status = 400;
        ctx.type = 'html';
        ctx.body = authorizePage(params, accountId ? `No account ${accountId}` : 'Enter an account id or email');
        return;
      }
      throw new ApiError(400, 'unknownAccount', accountId ? `No account ${accountId}` : 'accountId is required');
    }
    const code = state.signIns.issueCode(account, params.clientId, params.redirectUri);
    redirectWith(ctx, params.redirectUri, { code, state: params.state });
  });

  router.post('/token', (ctx) => {
    const body = bodyObject(ctx.request.body);
    if (str(body.grant_type) !== 'authorization_code') {
      throw new ApiError(400, 'unsupportedGrantType', 'grant_type must be "authorization_code"');
    }
    const { accessToken, accountId } = state.signIns.exchangeCode(str(body.code), str(body.redirect_uri), str(body.client_id));
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { access_token: accessToken, token_type: 'bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, account_id: accountId };
  });

  return router;
}
