/**
 * The access tokens of CJ accounts. (The call rate is kept by the service for every process: `limits` in adapter.ts.)
 *
 * Tokens: CJ trades the API key for an access token (15 days) and a refresh token (180 days). The connection's
 * credentials keep the latest pair (stored encrypted by the service through `onCredentialsChanged`); this process
 * also remembers the pair it last obtained, so concurrent calls share one exchange or refresh. A token is refreshed
 * once less than a quarter of its life (at most a day) is left. CJ allows `getAccessToken` once per 5 minutes and
 * `refreshAccessToken` 5 times a minute per account; this process never asks more often than that.
 */
import { createHash } from 'node:crypto';
import type { SupplierCallContext } from '../adapter';
import { SupplierError } from '../errors';

export const DEFAULT_REQUESTS_PER_SECOND = 1;
/** Added to the spacing between two calls so that network jitter does not put two in one of CJ's seconds. */
export const SPACING_MARGIN_MS = 20;
const DAY_MS = 86_400_000;
/** A token refused by CJ, or one this close to its end, is not used. */
const EXPIRY_SAFETY_MS = 30_000;
// Printable ASCII only: anything else could not be a CJ key or token and would break the header.
export const TOKEN_SHAPE = /^[\x21-\x7e]{1,500}$/;

/** The account's requests per second as its CJ level allows (connection setting), 1 when unset. */
export function requestsPerSecond(settings: Record<string, unknown>): number {
  const r = settings.requestsPerSecond;
  return typeof r === 'number' && Number.isInteger(r) && r >= 1 && r <= 10 ? r : DEFAULT_REQUESTS_PER_SECOND;
}

export interface Tokens {
  openId: string;
  accessToken: string;
  accessTokenExpiresAt: number;
  refreshToken: string;
  refreshTokenExpiresAt: number;
  /** When CJ issued the access token; with the expiry it gives the token's life. */
  issuedAt: number;
}

/** The credential fields the tokens are kept in. */
export function tokenFields(t: Tokens): Record<string, string> {
  return {
    openId: t.openId,
    accessToken: t.accessToken,
    accessTokenExpiresAt: new Date(t.accessTokenExpiresAt).toISOString(),
    refreshToken: t.refreshToken,
    refreshTokenExpiresAt: new Date(t.refreshTokenExpiresAt).toISOString(),
    accessTokenIssuedAt: new Date(t.issuedAt).toISOString(),
  };
}

export function storedTokens(credentials: Record<string, string>): Tokens | null {
  const { openId, accessToken, refreshToken } = credentials;
  const accessTokenExpiresAt = Date.parse(credentials.accessTokenExpiresAt ?? '');
  const refreshTokenExpiresAt = Date.parse(credentials.refreshTokenExpiresAt ?? '');
  const issuedAt = Date.parse(credentials.accessTokenIssuedAt ?? '');
  if (!openId || !accessToken || !refreshToken || !TOKEN_SHAPE.test(accessToken) || !TOKEN_SHAPE.test(refreshToken)) return null;
  if (!Number.isFinite(accessTokenExpiresAt) || !Number.isFinite(refreshTokenExpiresAt)) return null;
  return { openId, accessToken, accessTokenExpiresAt, refreshToken, refreshTokenExpiresAt, issuedAt: Number.isFinite(issuedAt) ? issuedAt : NaN };
}

/** Whether the access token should be renewed now: less than a quarter of its life, and at most a day, is left. */
function dueForRenewal(t: Tokens, now: number): boolean {
  const life = t.accessTokenExpiresAt - t.issuedAt;
  const margin = Number.isFinite(life) && life > 0 ? Math.min(DAY_MS, life / 4) : DAY_MS;
  return now >= t.accessTokenExpiresAt - margin;
}

const usable = (t: Tokens, now: number) => now < t.accessTokenExpiresAt - EXPIRY_SAFETY_MS;

export interface TokenSource {
  /** POST /authentication/getAccessToken. */
  exchange(ctx: SupplierCallContext, apiKey: string): Promise<Tokens>;
  /** POST /authentication/refreshAccessToken; the answer has no openId, so the caller's is kept. */
  refresh(ctx: SupplierCallContext, current: Tokens): Promise<Tokens>;
}

export interface TokenLimits {
  /** Least time between two exchanges of one key (CJ: 5 minutes). */
  exchangeIntervalMs: number;
  /** Most refreshes per account in any minute (CJ: 5). */
  refreshesPerMinute: number;
}

export function accountKeyOf(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

export class TokenKeeper {
  private readonly latest = new Map<string, Tokens>();
  private readonly inFlight = new Map<string, Promise<Tokens>>();
  private readonly exchanges = new Map<string, { at: number; error: SupplierError | null }>();
  private readonly refreshes = new Map<string, number[]>();
  /** Tokens CJ refused although they had not expired: never offered again. */
  private readonly refused = new Set<string>();

  constructor(
    private readonly source: TokenSource,
    private readonly limits: TokenLimits,
  ) {}

  /**
   * A usable access token for the connection's key. `refused` is a token CJ just turned down: another is obtained.
   * New tokens are handed to `ctx.onCredentialsChanged`; so is a newer pair this process holds than the stored one.
   */
  async get(ctx: SupplierCallContext, apiKey: string, refused?: string): Promise<Tokens> {
    if (refused) this.refused.add(refused);
    const account = accountKeyOf(apiKey);
    const now = Date.now();
    const best = this.best(ctx, account);
    if (best && !this.refused.has(best.accessToken) && !dueForRenewal(best, now)) {
      await this.keep(ctx, best);
      return best;
    }
    let pending = this.inFlight.get(account);
    if (!pending) {
      pending = this.renew(ctx, apiKey, account, best).finally(() => this.inFlight.delete(account));
      this.inFlight.set(account, pending);
    }
    const tokens = await pending;
    await this.keep(ctx, tokens);
    return tokens;
  }

  /** Of the stored pair and this process's: one CJ did not refuse first, then the later-expiring; none past its refresh token. */
  private best(ctx: SupplierCallContext, account: string): Tokens | null {
    const now = Date.now();
    const candidates = [storedTokens(ctx.credentials), this.latest.get(account) ?? null].filter((t): t is Tokens => !!t && now < t.refreshTokenExpiresAt);
    const refused = (t: Tokens) => (this.refused.has(t.accessToken) ? 1 : 0);
    candidates.sort((a, b) => refused(a) - refused(b) || b.accessTokenExpiresAt - a.accessTokenExpiresAt);
    return candidates[0] ?? null;
  }

  private async renew(ctx: SupplierCallContext, apiKey: string, account: string, current: Tokens | null): Promise<Tokens> {
    const now = Date.now();
    const stillGood = current && usable(current, now) && !this.refused.has(current.accessToken) ? current : null;
    if (current && now < current.refreshTokenExpiresAt - EXPIRY_SAFETY_MS && !this.refused.has(current.refreshToken) && this.mayRefresh(account, now)) {
      try {
        const fresh = await this.source.refresh(ctx, current);
        this.latest.set(account, fresh);
        return fresh;
      } catch (err) {
        if (!(err instanceof SupplierError)) throw err;
        // A refused refresh token: trade the key instead. Anything else: the current token, while it lasts.
        if (err.kind === 'credentialsRejected') this.refused.add(current.refreshToken);
        else if (stillGood) return stillGood;
        else throw err;
      }
    } else if (stillGood) {
      // Refreshing is not allowed right now; the current token is still good for a while.
      return stillGood;
    }
    return this.exchange(ctx, apiKey, account);
  }

  private mayRefresh(account: string, now: number): boolean {
    const recent = (this.refreshes.get(account) ?? []).filter((at) => now - at < 60_000);
    if (recent.length >= this.limits.refreshesPerMinute) {
      this.refreshes.set(account, recent);
      return false;
    }
    recent.push(now);
    this.refreshes.set(account, recent);
    return true;
  }

  private async exchange(ctx: SupplierCallContext, apiKey: string, account: string): Promise<Tokens> {
    const now = Date.now();
    const last = this.exchanges.get(account);
    if (last && now - last.at < this.limits.exchangeIntervalMs) {
      // CJ would refuse (or answer the same tokens): say what the last exchange said instead of asking again.
      if (last.error && last.error.kind === 'credentialsRejected') throw last.error;
      const waitS = Math.ceil((last.at + this.limits.exchangeIntervalMs - now) / 1000);
      throw new SupplierError(
        'unavailable',
        `CJ allows one API key exchange every ${Math.round(this.limits.exchangeIntervalMs / 1000)} s; the next is possible in ${waitS} s`,
        undefined,
        true,
      );
    }
    this.exchanges.set(account, { at: now, error: null });
    if (this.exchanges.size > 10_000) for (const [key, e] of this.exchanges) if (now - e.at > this.limits.exchangeIntervalMs) this.exchanges.delete(key);
    try {
      const fresh = await this.source.exchange(ctx, apiKey);
      this.latest.set(account, fresh);
      return fresh;
    } catch (err) {
      if (err instanceof SupplierError) this.exchanges.set(account, { at: now, error: err });
      throw err;
    }
  }

  /** Hands tokens the stored credentials do not have yet to the service, which keeps them encrypted. */
  private async keep(ctx: SupplierCallContext, tokens: Tokens): Promise<void> {
    if (ctx.credentials.accessToken === tokens.accessToken && ctx.credentials.refreshToken === tokens.refreshToken) return;
    if (!ctx.onCredentialsChanged) return;
    try {
      await ctx.onCredentialsChanged(tokenFields(tokens));
    } catch {
      // Not kept this time (the database may be away): this process still holds them, and offers them again.
    }
  }

  /** Forgets this process's tokens of a key (after CJ logged them out, or in tests). */
  forget(apiKey: string): void {
    this.latest.delete(accountKeyOf(apiKey));
  }
}
