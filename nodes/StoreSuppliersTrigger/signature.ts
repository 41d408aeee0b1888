import { createHmac, timingSafeEqual } from 'crypto';

/** How far a delivery's timestamp may be from now, either way (Standard Webhooks' replay guard). */
export const TOLERANCE_SECONDS = 5 * 60;

export type Verdict = { ok: true } | { ok: false; reason: string };

const header = (headers: Record<string, string | string[] | undefined>, name: string): string => {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
};

/**
 * Checks a delivery as Standard Webhooks signs it: `webhook-signature` holds one or more `v1,<base64
 * HMAC-SHA256>` (space-separated while a secret rotates) over `id.timestamp.rawBody`, keyed by the
 * base64 part of the `whsec_` secret. The raw bytes are signed, so the body must not be re-serialised.
 */
export function verifyDelivery(
  rawBody: Buffer | string,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Verdict {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature' };
  const sentAt = Number(timestamp);
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - sentAt) > TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp outside the tolerance' };
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest();
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    // Constant time, on equal lengths only (timingSafeEqual throws otherwise).
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: 'no signature matches' };
}
