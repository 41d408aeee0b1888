/** The sandbox supplier's JSON (docs/suppliers/sandbox.md) in the contract's types; a wrong shape is a ShapeError. */
import type { ClaimTerms, ConnectionMode, SupplierClaimSnapshot, SupplierOrderSnapshot, SupplierProduct, SupplierVariant } from '../adapter';
import { asObj, Obj, ShapeError } from '../http';

// Printable ASCII only: anything else could not be a sandbox token and would break the header.
export const TOKEN_SHAPE = /^[\x21-\x7e]{1,500}$/;
const ORDER_STATUSES = ['created', 'paid', 'processing', 'shipped', 'delivered', 'cancelled'] as const;

export function str(o: Obj, key: string, at: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new ShapeError(`${at}.${key} is not a string`);
  return v;
}

function nullableStr(o: Obj, key: string, at: string): string | null {
  const v = o[key];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw new ShapeError(`${at}.${key} is not a string`);
  return v;
}

export function int(o: Obj, key: string, at: string): number {
  const v = o[key];
  // Money and counts are integers on the wire; a fraction means the answer is not what we think it is.
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ShapeError(`${at}.${key} is not an integer`);
  return v;
}

function bool(o: Obj, key: string, at: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new ShapeError(`${at}.${key} is not a boolean`);
  return v;
}

export function list(o: Obj, key: string, at: string): unknown[] {
  const v = o[key];
  if (!Array.isArray(v)) throw new ShapeError(`${at}.${key} is not an array`);
  return v;
}

function stringMap(value: unknown, at: string): Record<string, string> {
  const o = asObj(value, at);
  const out: Record<string, string> = {};
  for (const key of Object.keys(o)) out[key] = str(o, key, at);
  return out;
}

export function readAccount(body: unknown): { accountId: string; environment: ConnectionMode; balanceMinor: number; currency: string } {
  const o = asObj(body, 'account');
  const environment = str(o, 'environment', 'account');
  if (environment !== 'live' && environment !== 'test') throw new ShapeError('account.environment is neither live nor test');
  return { accountId: str(o, 'accountId', 'account'), environment, balanceMinor: int(o, 'balanceMinor', 'account'), currency: str(o, 'currency', 'account') };
}

export function readProduct(body: unknown, at = 'product'): SupplierProduct {
  const o = asObj(body, at);
  const currency = str(o, 'currency', at);
  const variants = list(o, 'variants', at).map((raw, i): SupplierVariant => {
    const vAt = `${at}.variants[${i}]`;
    const v = asObj(raw, vAt);
    return {
      id: str(v, 'id', vAt),
      sku: str(v, 'sku', vAt),
      title: str(v, 'title', vAt),
      options: stringMap(v.options, `${vAt}.options`),
      cost: { amountMinor: int(v, 'costMinor', vAt), currency },
      stock: int(v, 'stock', vAt),
      available: bool(v, 'available', vAt),
    };
  });
  return {
    id: str(o, 'id', at),
    title: str(o, 'title', at),
    description: str(o, 'description', at),
    url: str(o, 'url', at),
    imageUrl: nullableStr(o, 'imageUrl', at),
    shipsTo: list(o, 'shipsTo', at).map((c, i) => {
      if (typeof c !== 'string') throw new ShapeError(`${at}.shipsTo[${i}] is not a string`);
      return c;
    }),
    variants,
    updatedAt: nullableStr(o, 'updatedAt', at),
  };
}

export function readOrder(body: unknown, at = 'order'): SupplierOrderSnapshot {
  const o = asObj(body, at);
  const supplierStatus = str(o, 'status', at);
  const status = ORDER_STATUSES.find((s) => s === supplierStatus);
  if (!status) throw new ShapeError(`${at}.status is not a known status`);
  let costs: SupplierOrderSnapshot['costs'] = null;
  if (o.costs !== null && o.costs !== undefined) {
    const c = asObj(o.costs, `${at}.costs`);
    const cAt = `${at}.costs`;
    costs = {
      itemsMinor: int(c, 'itemsMinor', cAt),
      shippingMinor: int(c, 'shippingMinor', cAt),
      totalMinor: int(c, 'totalMinor', cAt),
      currency: str(c, 'currency', cAt),
    };
  }
  let shipping: SupplierOrderSnapshot['shipping'] = null;
  if (o.shipping !== null && o.shipping !== undefined) {
    const sAt = `${at}.shipping`;
    const s = asObj(o.shipping, sAt);
    shipping = { carrier: str(s, 'carrier', sAt), trackingNumber: str(s, 'trackingNumber', sAt), shippedAt: nullableStr(s, 'shippedAt', sAt) };
  }
  return {
    supplierOrderId: str(o, 'id', at),
    orderNumber: str(o, 'orderNumber', at),
    supplierStatus,
    status,
    paid: bool(o, 'paid', at),
    costs,
    shipping,
    ...readTracking(o, at),
  };
}

const EXCEPTIONS = ['returnedToSender', 'failedDelivery', 'customsHold'] as const;
const exceptionOf = (v: unknown) => EXCEPTIONS.find((e) => e === v);

/** When the sandbox says the order was paid, and its parcel's scans (absent from answers of a sandbox older than them). */
function readTracking(o: Obj, at: string): Pick<SupplierOrderSnapshot, 'paidAt' | 'tracking'> {
  const out: Pick<SupplierOrderSnapshot, 'paidAt' | 'tracking'> = {};
  const paidAt = nullableStr(o, 'paidAt', at);
  if (paidAt) out.paidAt = paidAt;
  if (o.tracking === null || o.tracking === undefined) return out;
  const t = asObj(o.tracking, `${at}.tracking`);
  const events = list(t, 'events', `${at}.tracking`).map((raw, i) => {
    const eAt = `${at}.tracking.events[${i}]`;
    const e = asObj(raw, eAt);
    const exception = exceptionOf(e.exception);
    return { at: str(e, 'at', eAt), description: str(e, 'description', eAt), location: nullableStr(e, 'location', eAt), ...(exception ? { exception } : {}) };
  });
  out.tracking = {
    events,
    exception: exceptionOf(t.exception) ?? null,
    promisedMaxDays: Number.isInteger(t.promisedMaxDays) ? Number(t.promisedMaxDays) : null,
  };
  return out;
}

/** A claim as the sandbox answers it, in the contract's terms. */
export function readClaim(body: unknown, at = 'claim'): SupplierClaimSnapshot {
  const o = asObj(body, at);
  const supplierStatus = str(o, 'status', at);
  const outcome = o.outcome === null || o.outcome === undefined ? null : asObj(o.outcome, `${at}.outcome`);
  let decision: SupplierClaimSnapshot['decision'] = null;
  if (outcome?.kind === 'refund')
    decision = { kind: 'refund', amount: { amountMinor: int(outcome, 'amountMinor', `${at}.outcome`), currency: str(outcome, 'currency', `${at}.outcome`) } };
  else if (outcome?.kind === 'reship') decision = { kind: 'reship', supplierOrderId: null };
  else if (outcome?.kind === 'rejected') decision = { kind: 'rejected', message: str(outcome, 'message', `${at}.outcome`) };
  const status = supplierStatus === 'cancelled' ? 'cancelled' : decision ? 'decided' : 'open';
  return { supplierClaimId: str(o, 'id', at), claimKey: nullableStr(o, 'claimKey', at), supplierStatus, status, decision };
}

/** The terms of a claim on some lines. */
export function readClaimTerms(body: unknown): ClaimTerms {
  const o = asObj(body, 'terms');
  const currency = str(o, 'currency', 'terms');
  const lines = list(o, 'lines', 'terms').map((raw, i) => {
    const l = asObj(raw, `terms.lines[${i}]`);
    return {
      variantId: str(l, 'variantId', `terms.lines[${i}]`),
      openQuantity: int(l, 'openQuantity', `terms.lines[${i}]`),
      canChoose: bool(l, 'canChoose', `terms.lines[${i}]`),
      unitPrice: { amountMinor: int(l, 'unitPriceMinor', `terms.lines[${i}]`), currency },
    };
  });
  const expectations = list(o, 'expectations', 'terms').filter((e): e is 'refund' | 'reship' => e === 'refund' || e === 'reship');
  return { lines, maxAmount: Number.isInteger(o.maxAmountMinor) ? { amountMinor: Number(o.maxAmountMinor), currency } : null, expectations };
}

/** The credentials a sign-in code is traded for. */
export function readSignInToken(body: unknown): Record<string, string> {
  const o = asObj(body, 'token');
  const accessToken = str(o, 'access_token', 'token');
  if (!TOKEN_SHAPE.test(accessToken)) throw new ShapeError('token.access_token is not a usable token');
  return { accessToken, accountId: str(o, 'account_id', 'token') };
}
