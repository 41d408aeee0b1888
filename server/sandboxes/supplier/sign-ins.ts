import { ApiError } from './errors';
import { token, type Account } from './accounts';

export const CODE_TTL_MS = 5 * 60 * 1000;
export const ACCESS_TOKEN_TTL_SECONDS = 86_400;

interface AuthCode {
  accountId: string;
  clientId: string;
  redirectUri: string;
  expiresAtMs: number;
  used: boolean;
}

/** Whose account an access token acts for, which client holds it, and until when. */
type AccessToken = Pick<AuthCode, 'accountId' | 'clientId' | 'expiresAtMs'>;

/** OAuth-style sign-in: one-time codes traded for access tokens. They survive a control reset. */
export class SignIns {
  /** Every client id that asked for a code, in order (the control API reports them). */
  readonly clientIds: string[] = [];
  private readonly codes = new Map<string, AuthCode>();
  private readonly accessTokens = new Map<string, AccessToken>();

  issueCode(account: Account, clientId: string, redirectUri: string): string {
    if (!this.clientIds.includes(clientId)) this.clientIds.push(clientId);
    const code = token('sbx_code_', 16);
    this.codes.set(code, { accountId: account.id, clientId, redirectUri, expiresAtMs: Date.now() + CODE_TTL_MS, used: false });
    return code;
  }

  exchangeCode(code: string, redirectUri: string, clientId: string): { accessToken: string; accountId: string } {
    const grant = this.codes.get(code);
    if (!grant) throw new ApiError(400, 'invalidGrant', 'Unknown authorization code');
    if (grant.used) throw new ApiError(400, 'invalidGrant', 'Authorization code was already used');
    if (grant.expiresAtMs <= Date.now()) throw new ApiError(400, 'invalidGrant', 'Authorization code has expired');
    if (grant.redirectUri !== redirectUri) throw new ApiError(400, 'invalidGrant', 'redirect_uri does not match the authorization request');
    if (grant.clientId !== clientId) throw new ApiError(400, 'invalidGrant', 'client_id does not match the authorization request');
    grant.used = true;
    const accessToken = token('sbx_at_', 24);
    this.accessTokens.set(accessToken, { accountId: grant.accountId, clientId, expiresAtMs: Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000 });
    return { accessToken, accountId: grant.accountId };
  }

  /** The account an unexpired access token acts for, or undefined. */
  accountOf(accessToken: string): string | undefined {
    const access = this.accessTokens.get(accessToken);
    return access && access.expiresAtMs > Date.now() ? access.accountId : undefined;
  }
}
