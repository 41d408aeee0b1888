/**
 * The merchant's AliExpress sign-in, kept as the connection's credentials (sealed by the service): the access token,
 * the refresh token, when each ends, and whose they are. AliExpress gives test apps 1 day and 2 days, live apps 30 and
 * 60; `refresh_expires_in = 0` means the sign-in cannot be renewed. The service renews it on schedule once a
 * quarter of the access token's life (at most a day) is left; the adapter itself never renews.
 */
import { Obj, optionalText, ShapeError, text } from '../http';

const DAY_MS = 86_400_000;
// Printable ASCII only: anything else could not be a token and would break the form.
export const TOKEN_SHAPE = /^[\x21-\x7e]{1,500}$/;

export interface AeTokens {
  accessToken: string;
  accessTokenExpiresAt: number;
  /** Empty when AliExpress said the sign-in cannot be renewed. */
  refreshToken: string;
  refreshTokenExpiresAt: number;
  issuedAt: number;
  userId: string;
  userNick: string;
}

/** Epoch milliseconds from `expire_time` (ms) when sent, otherwise now + `expires_in` (s). */
function endOf(o: Obj, at: string, inKey: string, now: number): number {
  const absolute = Number(o[at]);
  if (Number.isFinite(absolute) && absolute > now) return absolute;
  const seconds = Number(o[inKey]);
  return Number.isFinite(seconds) && seconds > 0 ? now + seconds * 1000 : NaN;
}

/** A `/auth/token/create` or `/auth/token/refresh` answer. A refresh answer may leave the user out: the current one is kept. */
export function readTokenAnswer(o: Obj, now: number, current?: AeTokens): AeTokens {
  const accessToken = text(o, 'access_token', 'token');
  if (!TOKEN_SHAPE.test(accessToken)) throw new ShapeError('token.access_token is not a token');
  const accessTokenExpiresAt = endOf(o, 'expire_time', 'expires_in', now);
  if (!Number.isFinite(accessTokenExpiresAt)) throw new ShapeError('token has no readable expiry');
  const renewable = Number(o.refresh_expires_in) !== 0 && optionalText(o, 'refresh_token') !== null;
  const refreshToken = renewable ? text(o, 'refresh_token', 'token') : '';
  if (refreshToken && !TOKEN_SHAPE.test(refreshToken)) throw new ShapeError('token.refresh_token is not a token');
  const refreshTokenExpiresAt = renewable ? endOf(o, 'refresh_token_valid_time', 'refresh_expires_in', now) : NaN;
  const userId = optionalText(o, 'user_id') ?? current?.userId;
  if (!userId) throw new ShapeError('token.user_id is not a string');
  return {
    accessToken,
    accessTokenExpiresAt,
    refreshToken,
    refreshTokenExpiresAt,
    issuedAt: now,
    userId,
    userNick: optionalText(o, 'user_nick') ?? current?.userNick ?? userId,
  };
}

const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : '');

/** The credential fields the sign-in is kept in. */
export function tokenFields(t: AeTokens): Record<string, string> {
  return {
    accessToken: t.accessToken,
    accessTokenExpiresAt: iso(t.accessTokenExpiresAt),
    refreshToken: t.refreshToken,
    refreshTokenExpiresAt: iso(t.refreshTokenExpiresAt),
    accessTokenIssuedAt: iso(t.issuedAt),
    userId: t.userId,
    userNick: t.userNick,
  };
}

export function storedTokens(c: Record<string, string>): AeTokens | null {
  const accessTokenExpiresAt = Date.parse(c.accessTokenExpiresAt ?? '');
  if (!c.accessToken || !TOKEN_SHAPE.test(c.accessToken) || !Number.isFinite(accessTokenExpiresAt) || !c.userId) return null;
  return {
    accessToken: c.accessToken,
    accessTokenExpiresAt,
    refreshToken: c.refreshToken && TOKEN_SHAPE.test(c.refreshToken) ? c.refreshToken : '',
    refreshTokenExpiresAt: Date.parse(c.refreshTokenExpiresAt ?? ''),
    issuedAt: Date.parse(c.accessTokenIssuedAt ?? ''),
    userId: c.userId,
    userNick: c.userNick || c.userId,
  };
}

/** When the sign-in is due for renewal: a quarter of the access token's life (at most a day) before it ends. */
export function renewalTime(t: AeTokens): Date {
  const life = t.accessTokenExpiresAt - t.issuedAt;
  const margin = Number.isFinite(life) && life > 0 ? Math.min(DAY_MS, life / 4) : DAY_MS;
  return new Date(t.accessTokenExpiresAt - margin);
}

/** Whether AliExpress still takes the refresh token (a minute of margin). */
export const renewable = (t: AeTokens, now: number) => !!t.refreshToken && Number.isFinite(t.refreshTokenExpiresAt) && now < t.refreshTokenExpiresAt - 60_000;
