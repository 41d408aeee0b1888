/** CJ's notifications: a `sign` header, the base64 HMAC-SHA256 of the raw body keyed by the account's openId. */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { NotificationSubject, VerifiedNotification } from '../adapter';
import { optionalText, type Obj } from '../http';

const SIGN_HEADER = 'sign';

function verifySign(openId: string | undefined, rawBody: string, header: string | undefined): boolean {
  if (!openId || typeof header !== 'string' || header.length > 200) return false;
  const expected = Buffer.from(createHmac('sha256', openId).update(rawBody, 'utf8').digest('base64'), 'utf8');
  const given = Buffer.from(header.trim(), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What a notification signed with `openId` asks to read back, or null for any refusal. VARIANT and STOCK pushes name
 * variants only: `productOfVariant` answers the product of a variant the adapter has read.
 */
export function readNotification(
  openId: string | undefined,
  input: { rawBody: string; headers: Record<string, string | undefined> },
  productOfVariant: (vid: string) => string | undefined,
): VerifiedNotification | null {
  // CJ signs the raw body only, with no timestamp: a replay is caught by its messageId (the service's receipts).
  if (!verifySign(openId, input.rawBody, input.headers[SIGN_HEADER])) return null;
  const event: unknown = JSON.parse(input.rawBody);
  if (!event || typeof event !== 'object' || Array.isArray(event)) return null;
  const e = event as Obj;
  const type = typeof e.type === 'string' ? e.type.toUpperCase() : '';
  const params = e.params && typeof e.params === 'object' && !Array.isArray(e.params) ? (e.params as Obj) : null;
  if (!params) return null;
  const eventId = optionalText(e, 'messageId');
  const subjects = subjectsOf(type, params, productOfVariant);
  return subjects.length ? { eventId, subjects } : null;
}

function subjectsOf(type: string, params: Obj, productOfVariant: (vid: string) => string | undefined): NotificationSubject[] {
  switch (type) {
    case 'ORDER': {
      const id = optionalText(params, 'cjOrderId');
      const orderNumber = optionalText(params, 'orderNumber') ?? optionalText(params, 'orderNum');
      return id ? [{ kind: 'order', supplierOrderId: id, ...(orderNumber ? { orderNumber } : {}) }] : [];
    }
    // Documented as LOGISTIC; both spellings are taken, as the registration key is `logistics`.
    case 'LOGISTIC':
    case 'LOGISTICS': {
      const id = optionalText(params, 'orderId') ?? optionalText(params, 'cjOrderId');
      return id ? [{ kind: 'order', supplierOrderId: id }] : [];
    }
    case 'PRODUCT': {
      const pid = optionalText(params, 'pid');
      return pid ? [{ kind: 'product', supplierProductId: pid }] : [];
    }
    case 'VARIANT': {
      const pid = optionalText(params, 'pid') ?? productOfVariant(optionalText(params, 'vid') ?? '');
      return pid ? [{ kind: 'product', supplierProductId: pid }] : [];
    }
    case 'STOCK': {
      // A map keyed by vid of warehouse rows.
      const pids = new Set<string>();
      for (const [vid, rows] of Object.entries(params)) {
        const first = Array.isArray(rows) && rows[0] && typeof rows[0] === 'object' ? (rows[0] as Obj) : null;
        const pid = (first && optionalText(first, 'pid')) ?? productOfVariant(vid);
        if (pid) pids.add(pid);
      }
      return [...pids].slice(0, 100).map((pid) => ({ kind: 'product', supplierProductId: pid }));
    }
    default:
      return [];
  }
}
