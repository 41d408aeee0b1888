import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Sandbox-Signature';

/** Header value for a notification: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + rawBody)>`. */
export function signSandboxNotification(secret: string, rawBody: string, timestampSeconds: number): string {
  const t = Math.floor(timestampSeconds);
  const v1 = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/**
 * Checks a signature header against the raw body. The timestamp tolerance stops replays of old
 * captured notifications; pass `nowSeconds` only in tests.
 */
export function verifySandboxNotification(
  secret: string,
  rawBody: string,
  header: string | undefined,
  toleranceSeconds = 300,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  if (!header) return false;
  const parts = new Map<string, string>();
  for (const piece of header.split(',')) {
    const eq = piece.indexOf('=');
    if (eq > 0) parts.set(piece.slice(0, eq).trim(), piece.slice(eq + 1).trim());
  }
  const t = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isSafeInteger(t) || !given || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = signSandboxNotification(secret, rawBody, t).slice(`t=${t},v1=`.length);
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
