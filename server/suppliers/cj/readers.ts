/** CJ's JSON (docs/suppliers/cj.md) in the contract's types; a wrong shape is a ShapeError. */
import type { SupplierOrderSnapshot, SupplierProduct, SupplierVariant } from '../adapter';
import { asObj, Obj, optionalText, ShapeError, text } from '../http';
import { ISO_COUNTRIES } from '../countries';
import type { CjAnswer } from './http';
import { MoneyFormatError, usdToMinor } from './money';
import { TOKEN_SHAPE, Tokens } from './session';
import { cjProductUrl } from './urls';

export const CURRENCY = 'USD';

/** CJ's order statuses in the service's terms (docs/suppliers/cj.md). */
const ORDER_STATUS: Record<string, SupplierOrderSnapshot['status']> = {
  CREATED: 'created',
  IN_CART: 'created',
  UNPAID: 'created',
  UNSHIPPED: 'paid',
  SHIPPED: 'shipped',
  DELIVERED: 'delivered',
  CANCELLED: 'cancelled',
};
const PAID_STATUSES = new Set(['UNSHIPPED', 'SHIPPED', 'DELIVERED']);

export function list(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw new ShapeError(`${at} is not an array`);
  return value;
}

export function count(v: unknown): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v)) return Number(v);
  return 0;
}

/** CJ dates: ISO (tokens, "+08:00") or "yyyy-MM-dd HH:mm:ss" in China time; epoch milliseconds also taken. */
export function parseCjDate(value: unknown): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  if (typeof value !== 'string' || !value) return NaN;
  const china = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?$/.exec(value);
  if (china) return Date.parse(`${china[1]}T${china[2]}${china[3] ?? ''}+08:00`);
  return Date.parse(value);
}

function isoOrNull(value: unknown): string | null {
  const at = parseCjDate(value);
  return Number.isFinite(at) ? new Date(at).toISOString() : null;
}

export function cents(value: unknown, at: string): number {
  try {
    return usdToMinor(value);
  } catch (err) {
    if (err instanceof MoneyFormatError) throw new ShapeError(`${at} is not a USD amount`);
    throw err;
  }
}

function optionalCents(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  try {
    return usdToMinor(value);
  } catch {
    return null;
  }
}

/** `productImage` is a URL, or (observed) a JSON array of URLs in a string; `productImageSet` an array. */
export function imageOf(o: Obj): string | null {
  const candidates: unknown[] = [];
  const raw = o.productImage ?? o.bigImage;
  if (typeof raw === 'string' && raw.trim().startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (Array.isArray(parsed)) candidates.push(...parsed);
    } catch {
      /* not an array after all */
    }
  } else candidates.push(raw);
  if (Array.isArray(o.productImageSet)) candidates.push(...o.productImageSet);
  const url = candidates.find((c): c is string => typeof c === 'string' && /^https?:\/\/\S+$/.test(c));
  return url ?? null;
}

/** `productName` is a JSON array in a string; the English name is preferred. */
export function titleOf(o: Obj, fallback: string): string {
  const en = optionalText(o, 'productNameEn') ?? optionalText(o, 'nameEn');
  if (en) return en;
  if (typeof o.productName === 'string') {
    try {
      const names: unknown = JSON.parse(o.productName);
      if (Array.isArray(names) && typeof names[0] === 'string') return names[0];
    } catch {
      return o.productName;
    }
  }
  return fallback;
}

/** Stock of one warehouse row: the total, or CJ's plus the factory's, or the deprecated storage number. */
export function rowStock(row: unknown): number {
  if (!row || typeof row !== 'object') return 0;
  const r = row as Obj;
  if (r.totalInventoryNum !== undefined && r.totalInventoryNum !== null) return count(r.totalInventoryNum);
  if (r.cjInventoryNum !== undefined || r.factoryInventoryNum !== undefined) return count(r.cjInventoryNum) + count(r.factoryInventoryNum);
  return count(r.storageNum);
}

export const WORLD = [...ISO_COUNTRIES];

/** The token pair of a getAccessToken or refreshAccessToken answer; a refresh answer has no openId, so the caller's is kept. */
export function readTokens(data: unknown, answer: CjAnswer, openId?: string): Tokens {
  const o = asObj(data, 'token');
  let id = openId;
  if (id === undefined) {
    const raw = o.openId;
    if (typeof raw === 'string' && /^\d{1,30}$/.test(raw)) id = raw;
    else {
      // A Long may not survive JSON.parse: take its digits from the text.
      const m = /"openId"\s*:\s*"?(\d{1,30})"?/.exec(answer.text);
      if (!m) throw new ShapeError('token.openId is not an id');
      id = m[1];
    }
  }
  const accessToken = text(o, 'accessToken', 'token');
  const refreshToken = text(o, 'refreshToken', 'token');
  if (!TOKEN_SHAPE.test(accessToken) || !TOKEN_SHAPE.test(refreshToken)) throw new ShapeError('token has an unusable token');
  const accessTokenExpiresAt = parseCjDate(o.accessTokenExpiryDate);
  const refreshTokenExpiresAt = parseCjDate(o.refreshTokenExpiryDate);
  if (!Number.isFinite(accessTokenExpiresAt) || !Number.isFinite(refreshTokenExpiresAt)) throw new ShapeError('token has no readable expiry dates');
  const created = parseCjDate(o.createDate);
  return { openId: id, accessToken, refreshToken, accessTokenExpiresAt, refreshTokenExpiresAt, issuedAt: Number.isFinite(created) ? created : Date.now() };
}

/** A product/query answer; variants whose stock did not come with it are listed in `missingStock`. */
export function readProduct(data: unknown): { product: SupplierProduct; missingStock: SupplierVariant[] } {
  const o = asObj(data, 'product');
  const pid = text(o, 'pid', 'product');
  const status = o.status;
  // 3 is "on sale"; a product without a status is taken as offered.
  const onSale = status === undefined || status === null || String(status) === '3';
  const missingStock: SupplierVariant[] = [];
  const variants = list(o.variants ?? [], 'product.variants').map((raw, i): SupplierVariant => {
    const at = `product.variants[${i}]`;
    const v = asObj(raw, at);
    const vid = text(v, 'vid', at);
    const key = optionalText(v, 'variantKey');
    const off = v.variantStatus !== undefined && v.variantStatus !== null && String(v.variantStatus) === '0';
    const variant: SupplierVariant = {
      id: vid,
      sku: optionalText(v, 'variantSku') ?? vid,
      title: optionalText(v, 'variantNameEn') ?? key ?? optionalText(v, 'variantSku') ?? vid,
      options: key ? { variant: key } : {},
      cost: { amountMinor: cents(v.variantSellPrice, `${at}.variantSellPrice`), currency: CURRENCY },
      stock: Array.isArray(v.inventories) ? v.inventories.reduce((sum: number, row) => sum + rowStock(row), 0) : 0,
      available: onSale && !off,
    };
    if (!Array.isArray(v.inventories)) missingStock.push(variant);
    return variant;
  });
  const title = titleOf(o, pid);
  const description = typeof o.description === 'string' ? o.description : '';
  return {
    product: { id: pid, title, description, url: cjProductUrl(pid, title), imageUrl: imageOf(o), shipsTo: WORLD, variants, updatedAt: null },
    missingStock,
  };
}

/** An order of a list, detail or create answer, with CJ's numeric id where it sends the code as the id. */
export function readOrder(raw: unknown, at: string): SupplierOrderSnapshot & { numericId: string | null } {
  const o = asObj(raw, at);
  const supplierStatus = text(o, 'orderStatus', at).toUpperCase();
  const status = ORDER_STATUS[supplierStatus];
  if (!status) throw new ShapeError(`${at}.orderStatus is not a known status`);
  // Lists and details put the CJ order code in cjOrderId/cjOrderCode and a number in orderId; create answers the code as orderId.
  const code = optionalText(o, 'cjOrderCode') ?? optionalText(o, 'cjOrderId');
  const supplierOrderId = code ?? text(o, 'orderId', at);
  const numericId = code ? optionalText(o, 'orderId') : null;
  const items = optionalCents(o.productAmount);
  const shippingMinor = optionalCents(o.postageAmount);
  const total = optionalCents(o.orderAmount);
  const costs = items !== null && shippingMinor !== null && total !== null ? { itemsMinor: items, shippingMinor, totalMinor: total, currency: CURRENCY } : null;
  const trackingNumber = optionalText(o, 'trackNumber') ?? optionalText(o, 'trackingNumber');
  const shipping = trackingNumber
    ? { carrier: optionalText(o, 'logisticName') ?? 'CJ', trackingNumber, shippedAt: isoOrNull(o.outWarehouseTime ?? o.deliveryTime ?? null) }
    : null;
  return {
    supplierOrderId,
    numericId,
    orderNumber: optionalText(o, 'orderNum') ?? optionalText(o, 'orderNumber') ?? '',
    supplierStatus,
    status,
    paid: PAID_STATUSES.has(supplierStatus),
    costs,
    shipping,
    // When CJ says it was paid (the delivery watch's start); left out while unpaid.
    ...(isoOrNull(o.paymentDate ?? null) ? { paidAt: isoOrNull(o.paymentDate) } : {}),
  };
}

export function snapshotOf(o: SupplierOrderSnapshot & { numericId?: string | null }): SupplierOrderSnapshot {
  const { numericId: _numericId, ...snap } = o;
  return snap;
}
