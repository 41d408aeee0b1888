/**
 * Adapters for the sandbox supplier (docs/suppliers/sandbox.md): an API-key entry and a sign-in entry, both making the
 * calls of calls.ts over one HTTP client (http.ts), its JSON read by readers.ts and its notifications by signature.ts.
 * Every failure leaves as a SupplierError whose message carries no secret.
 */
import { catalogueEntry } from '../adapter';
import type { CallLimits, CatalogueEntry, ConnectionMode, SupplierAdapter, SupplierCallContext, VerifiedAccount } from '../adapter';
import { SupplierError } from '../errors';
import { errorBody, okBody, SandboxHttp } from './http';
import { readSignInToken } from './readers';
import { API_KEY_DESCRIPTION, EU_DESCRIPTION, SIGN_IN_DESCRIPTION } from './description';
import { SandboxAdapterBase } from './calls';

/** The sandbox documents no limit; the operator can set one to rehearse a supplier that has. */
export interface SandboxLimits {
  callsInFlight?: number;
  requestsPerSecond?: number;
}

/** The sandbox keeps one notification address per account and environment; key and sign-in connections reach the same one. */
function verifiedAccount(account: { accountId: string; environment: string }): VerifiedAccount {
  return { accountLabel: `${account.accountId} (${account.environment})`, accountId: `sandbox:${account.accountId}:${account.environment}` };
}

class SandboxApiKeyAdapter extends SandboxAdapterBase {
  readonly entry: CatalogueEntry;
  protected readonly tokenField = 'apiKey';

  constructor(http: SandboxHttp, description = API_KEY_DESCRIPTION) {
    super(http);
    this.entry = catalogueEntry(description, this);
  }

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    const account = await this.account(ctx);
    // A live key on a test connection would place real orders; the reverse would never fulfil any.
    if (account.environment !== ctx.mode) {
      const need = ctx.mode === 'test' ? 'a test key (sbx_test_...)' : 'a live key (sbx_live_...)';
      throw new SupplierError('credentialsRejected', `This is a ${account.environment} key; a ${ctx.mode} connection needs ${need}`);
    }
    return verifiedAccount(account);
  }
}

class SandboxSignInAdapter extends SandboxAdapterBase {
  readonly entry: CatalogueEntry = catalogueEntry(SIGN_IN_DESCRIPTION, this);
  protected readonly tokenField = 'accessToken';

  constructor(
    http: SandboxHttp,
    private readonly clientId: string,
  ) {
    super(http);
  }

  async verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount> {
    return verifiedAccount(await this.account(ctx));
  }

  signInUrl(input: { state: string; redirectUri: string; mode: ConnectionMode }): string {
    const q = [
      `client_id=${encodeURIComponent(this.clientId)}`,
      `redirect_uri=${encodeURIComponent(input.redirectUri)}`,
      `state=${encodeURIComponent(input.state)}`,
    ];
    return `${this.http.url('/oauth/authorize')}?${q.join('&')}`;
  }

  async exchangeSignInCode(input: { code: string; redirectUri: string; timeoutMs: number }): Promise<Record<string, string>> {
    const answer = await this.http.send({
      method: 'POST',
      path: '/oauth/token',
      body: { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, client_id: this.clientId },
      timeoutMs: input.timeoutMs,
      secrets: [input.code],
    });
    if (answer.status === 400) {
      const { code, message } = errorBody(answer);
      throw new SupplierError('credentialsRejected', `Sandbox supplier refused the sign-in code (${code ?? 'HTTP 400'}): ${message}`);
    }
    return okBody(answer, readSignInToken);
  }
}

/** `secondWarehouse`: also the program's `/eu` identity, a supplier of its own (`sandbox-eu`) through the same adapter. */
export function createSandboxAdapters(opts: { baseUrl: string; oauthClientId?: string; limits?: SandboxLimits; secondWarehouse?: boolean }): SupplierAdapter[] {
  const http = new SandboxHttp(opts.baseUrl);
  const rps = opts.limits?.requestsPerSecond ?? 0;
  const limits: CallLimits = { callsInFlight: opts.limits?.callsInFlight ?? 20, callSpacingMs: () => (rps > 0 ? Math.ceil(1000 / rps) : null) };
  const adapters: SandboxAdapterBase[] = [new SandboxApiKeyAdapter(http), new SandboxSignInAdapter(http, opts.oauthClientId ?? 'store-suppliers')];
  if (opts.secondWarehouse) adapters.push(new SandboxApiKeyAdapter(new SandboxHttp(`${opts.baseUrl.replace(/\/+$/, '')}/eu`), EU_DESCRIPTION));
  for (const a of adapters) a.limits = limits;
  return adapters;
}
