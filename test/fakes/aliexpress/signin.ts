/**
 * The AliExpress-format server's sign-in: buyer accounts, the authorize step (code, 10 minutes, once), and tokens
 * with lifetimes (access and refresh), refreshed by refresh token, revocable from /control.
 */
import { randomBytes } from 'node:crypto';
import { AeFail } from './verify';

export interface Buyer {
  userId: string;
  nick: string;
  /** The login shown on the authorize page. */
  account: string;
  disabled: boolean;
  blacklisted: boolean;
  /** try_to_pay fails (no usable payment method): the order waits for payment on the website. */
  paymentFails: boolean;
  accessTtlMs: number;
  refreshTtlMs: number;
  /** false: token answers say refresh_expires_in = 0 (cannot be refreshed). */
  refreshable: boolean;
  issued: string[];
  refreshes: number;
}

interface Token {
  userId: string;
  expiresAt: number;
  revoked: boolean;
}

export interface SignInLifetimes {
  accessTtlMs: number;
  refreshTtlMs: number;
}

const CODE_TTL_MS = 600_000;
const token = (prefix: string) => `${prefix}${randomBytes(24).toString('hex')}`;

export class FakeSignIn {
  readonly buyers = new Map<string, Buyer>();
  private readonly codes = new Map<string, { userId: string; redirectUri: string; expiresAt: number; used: boolean }>();
  private readonly access = new Map<string, Token>();
  private readonly refresh = new Map<string, Token>();
  private nextUser = 2_200_000_001;

  constructor(private readonly lifetimes: SignInLifetimes) {}

  addBuyer(opts: Partial<Pick<Buyer, 'nick' | 'accessTtlMs' | 'refreshTtlMs' | 'refreshable'>> = {}): Buyer {
    const userId = String(this.nextUser++);
    const buyer: Buyer = {
      userId,
      nick: opts.nick ?? `buyer${userId.slice(-4)}`,
      account: `buyer${userId.slice(-4)}@example.test`,
      disabled: false,
      blacklisted: false,
      paymentFails: false,
      accessTtlMs: opts.accessTtlMs ?? this.lifetimes.accessTtlMs,
      refreshTtlMs: opts.refreshTtlMs ?? this.lifetimes.refreshTtlMs,
      refreshable: opts.refreshable ?? true,
      issued: [],
      refreshes: 0,
    };
    this.buyers.set(userId, buyer);
    return buyer;
  }

  buyer(userId: string): Buyer {
    const b = this.buyers.get(userId);
    if (!b) throw new AeFail('BuyerNotFound', `No buyer ${userId}`);
    return b;
  }

  issueCode(userId: string, redirectUri: string, now: number): string {
    this.buyer(userId);
    const code = token('code_');
    this.codes.set(code, { userId, redirectUri, expiresAt: now + CODE_TTL_MS, used: false });
    return code;
  }

  private tokensFor(b: Buyer, now: number): Record<string, unknown> {
    const accessToken = token('ae_at_');
    const refreshToken = token('ae_rt_');
    this.access.set(accessToken, { userId: b.userId, expiresAt: now + b.accessTtlMs, revoked: false });
    if (b.refreshable) this.refresh.set(refreshToken, { userId: b.userId, expiresAt: now + b.refreshTtlMs, revoked: false });
    b.issued.push(accessToken, refreshToken);
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: Math.floor(b.accessTtlMs / 1000),
      refresh_expires_in: b.refreshable ? Math.floor(b.refreshTtlMs / 1000) : 0,
      expire_time: now + b.accessTtlMs,
      refresh_token_valid_time: b.refreshable ? now + b.refreshTtlMs : now,
      user_id: b.userId,
      seller_id: b.userId,
      user_nick: b.nick,
      account: b.account,
      account_platform: 'buyerApp',
      sp: 'ae',
      code: '0',
      request_id: token('req_').slice(0, 20),
    };
  }

  /** POST /rest/auth/token/create: a code is good once, for 10 minutes. */
  exchange(code: string, now: number): Record<string, unknown> {
    const c = this.codes.get(code);
    if (!c || c.used || c.expiresAt < now) throw new AeFail('InvalidCode', 'The authorization code is invalid or expired');
    c.used = true;
    return this.tokensFor(this.buyer(c.userId), now);
  }

  /** POST /rest/auth/token/refresh: a new access token (and refresh token); the old access token stays good until it ends. */
  renew(refreshToken: string, now: number): Record<string, unknown> {
    const r = this.refresh.get(refreshToken);
    if (!r || r.revoked || r.expiresAt < now) throw new AeFail('IllegalRefreshToken', 'The refresh token is invalid or expired');
    const b = this.buyer(r.userId);
    b.refreshes++;
    return this.tokensFor(b, now);
  }

  /** The buyer behind a business call's access token. */
  owner(accessToken: string, now: number): Buyer {
    const t = this.access.get(accessToken);
    if (!t || t.revoked || t.expiresAt < now) throw new AeFail('IllegalAccessToken', 'The specified access token is invalid or expired');
    return this.buyer(t.userId);
  }

  revoke(userId: string, what: { access?: boolean; refresh?: boolean }): void {
    for (const [map, on] of [
      [this.access, what.access],
      [this.refresh, what.refresh],
    ] as const) {
      if (!on) continue;
      for (const t of map.values()) if (t.userId === userId) t.revoked = true;
    }
  }

  currentAccessToken(userId: string, now: number): string | null {
    let best: [string, Token] | null = null;
    for (const entry of this.access)
      if (entry[1].userId === userId && !entry[1].revoked && entry[1].expiresAt > now && (!best || entry[1].expiresAt > best[1].expiresAt)) best = entry;
    return best ? best[0] : null;
  }
}
