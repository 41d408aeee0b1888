/** Notifications from the sandbox supplier: `x-sandbox-signature: t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { VerifiedNotification } from '../adapter';
import { Obj, parseSupplierJson } from '../http';

const SIGNATURE_HEADER = 'x-sandbox-signature';
const SIGNATURE_TOLERANCE_SECONDS = 300;

function parseSignature(header: string): { t: number; signatures: Buffer[] } | null {
  let t: number | undefined;
  const signatures: Buffer[] = [];
  for (const piece of header.split(',')) {
    const eq = piece.indexOf('=');
    if (eq <= 0) continue;
    const key = piece.slice(0, eq).trim();
    const value = piece.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  return t === undefined || signatures.length === 0 ? null : { t, signatures };
}

/** What a notification signed with `secret` asks to read back, or null for any refusal (it may throw on a body that is not JSON). */
export function readNotification(
  secret: string | undefined,
  input: { rawBody: string; headers: Record<string, string | undefined>; now: Date },
): VerifiedNotification | null {
  if (!secret) return null;
  const header = input.headers[SIGNATURE_HEADER];
  if (typeof header !== 'string' || header.length > 1024) return null;
  const parsed = parseSignature(header);
  if (!parsed) return null;
  const nowSeconds = input.now.getTime() / 1000;
  // Outside the window a captured notification could be replayed.
  if (!Number.isFinite(nowSeconds) || Math.abs(nowSeconds - parsed.t) > SIGNATURE_TOLERANCE_SECONDS) return null;
  const expected = createHmac('sha256', secret).update(`${parsed.t}.${input.rawBody}`, 'utf8').digest();
  const matches = parsed.signatures.some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  if (!matches) return null;

  const event: unknown = parseSupplierJson(input.rawBody);
  if (!event || typeof event !== 'object' || Array.isArray(event)) return null;
  const { id, type, data } = event as Obj;
  if (typeof type !== 'string' || !data || typeof data !== 'object' || Array.isArray(data)) return null;
  const eventId = typeof id === 'string' && id ? id : null;
  const d = data as Obj;
  if (type === 'order.updated') {
    if (typeof d.orderId !== 'string' || d.orderId === '') return null;
    return { eventId, subjects: [{ kind: 'order', supplierOrderId: d.orderId, ...(typeof d.orderNumber === 'string' ? { orderNumber: d.orderNumber } : {}) }] };
  }
  // A claim moved: its order is read back, which asks its claims again.
  if (type === 'claim.updated') {
    if (typeof d.orderId !== 'string' || d.orderId === '') return null;
    return { eventId, subjects: [{ kind: 'order', supplierOrderId: d.orderId }] };
  }
  if (type === 'product.updated') {
    if (typeof d.productId !== 'string' || d.productId === '') return null;
    return { eventId, subjects: [{ kind: 'product', supplierProductId: d.productId }] };
  }
  return null;
}
