/**
 * Payment provider notifications are signed the Standard Webhooks way: `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` (several, space-separated, during a secret
 * rotation), under a `whsec_<base64>` secret. Checked on the raw bytes before anything is parsed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 300;
const SECRET = /^whsec_([A-Za-z0-9+/]{32,88}={0,2})$/;

/** The HMAC key of a `whsec_` secret, or null when the text is not one (24 to 64 bytes once decoded). */
export function signingKeyOf(secret: string): Buffer | null {
  const m = SECRET.exec(secret);
  if (!m) return null;
  const key = Buffer.from(m[1], 'base64');
  return key.length >= 24 && key.length <= 64 ? key : null;
}

interface SignedHeaders {
  id?: string;
  timestamp?: string;
  signature?: string;
}

/** The event id when the signature matches and the timestamp is within the tolerance; otherwise null. */
export function verifySignedNotification(secret: string, rawBody: string, h: SignedHeaders, nowSeconds = Date.now() / 1000): string | null {
  const key = signingKeyOf(secret);
  const { id, timestamp, signature } = h;
  if (!key || !id || !timestamp || !signature || id.length > 200 || signature.length > 2048 || !/^\d{1,12}$/.test(timestamp)) return null;
  // Outside the window a captured notification could be replayed; inside it, the event id is recorded once.
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return null;
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`, 'utf8').digest();
  const matches = signature.split(' ').some((part) => {
    const [version, value] = part.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? id : null;
}
