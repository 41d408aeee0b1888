/**
 * AliExpress's error codes (docs/suppliers/aliexpress.md) to the adapter's error kinds: the platform's own codes in
 * `error_response`, and `aliexpress.ds.order.create`'s `error_code`, each to the review reason the note names.
 * Decided on the code, never on the words; the words (already cleaned) are kept for the merchant.
 */
import { SupplierError } from '../errors';
import type { AeRefusal } from './http';

/** What a refused call was about, so a product code reads right for a product read and for an order. */
export type AeContext = 'product' | 'order' | 'auth' | 'other';

export const CALL_LIMIT = 'ApiCallLimit';
export const REPEATED_ORDER = 'REPEATED_ORDER_ERROR';

const TOKEN_CODES = new Set([
  'IllegalAccessToken',
  'InvalidSession',
  'SessionExpired',
  'IllegalRefreshToken',
  'InvalidCode',
  'isv.invalid-session',
  'isv.access-token-expired',
  'isv.refresh-token-expired',
]);
/** The service's app itself is refused (a wrong key or secret, a clock off by more than 2 hours): nothing works until the operator fixes it. */
const APP_CODES = new Set([
  'IncompleteSignature',
  'InvalidSignature',
  'InvalidTimestamp',
  'InvalidAppKey',
  'AppKeyNotExist',
  'MissingAppKey',
  'InvalidApiPath',
  'InvalidMethod',
]);
const NOT_SOLD_THERE = new Set(['602', 'PRODUCT_NOT_SALE_TO_COUNTRY']);
const NO_SUCH_ITEM = new Set(['605', 'ITEM_ID_NOT_FOUND']);
const NO_DELIVERY = new Set(['505', 'DELIVERY_NOT_AVAILABLE_TO_YOUR_ADDRESS']);

const has = (set: Set<string>, r: AeRefusal) => set.has(r.code) || set.has(r.subCode);
const said = (r: AeRefusal) => (r.message ? `: ${r.message}` : '');
const named = (r: AeRefusal) => [r.code, r.subCode].filter(Boolean).join(' ') || 'no code';

/** An `error_response` to the adapter's error kind. `ApiCallLimit` is handled before this (a throttle, retried). */
export function refusalOf(r: AeRefusal, context: AeContext, subject?: Record<string, string>): SupplierError {
  if (r.code === CALL_LIMIT || r.subCode === CALL_LIMIT)
    return new SupplierError('unavailable', `AliExpress refused ${r.label}: too many calls for now (${CALL_LIMIT})`, undefined, true);
  if (has(TOKEN_CODES, r))
    return new SupplierError('credentialsRejected', `AliExpress refused the sign-in (${named(r)}); sign in to AliExpress again${said(r)}`);
  if (has(APP_CODES, r))
    return new SupplierError(
      'unavailable',
      `AliExpress refused this service's app (${named(r)}); the operator checks ALIEXPRESS_APP_KEY and ALIEXPRESS_APP_SECRET${said(r)}`,
    );
  if (has(NOT_SOLD_THERE, r)) {
    if (context === 'product')
      return new SupplierError('notFound', `AliExpress does not sell this product to the connection's ship-to country (${named(r)})`, subject);
    return new SupplierError('destinationUnsupported', `AliExpress does not sell this product to the order's country (${named(r)})${said(r)}`, subject);
  }
  if (has(NO_SUCH_ITEM, r)) {
    if (context === 'product') return new SupplierError('notFound', `AliExpress has no such product (${named(r)})`, subject);
    return new SupplierError('variantUnavailable', `AliExpress no longer offers a product of this order (${named(r)})`, subject);
  }
  if (has(NO_DELIVERY, r))
    return new SupplierError('destinationUnsupported', `AliExpress does not deliver this order to its address (${named(r)})${said(r)}`, subject);
  if (r.type === 'SYSTEM' || r.type === 'ISP') return new SupplierError('unavailable', `AliExpress could not handle ${r.label} (${named(r)})`);
  return new SupplierError('refused', `AliExpress refused ${r.label} (${named(r)})${said(r)}`, subject);
}

/**
 * `aliexpress.ds.order.create`'s `error_code` to the review reason the note names (REPEATED_ORDER_ERROR is read back
 * instead). Each says what happened in words too: codes of 32 characters or more read as tokens to the review
 * message's cleaning and are blanked there.
 */
export function createRefusalOf(code: string, words: string, subject?: Record<string, string>): SupplierError {
  const w = words ? `: ${words}` : '';
  const c = code || 'no code';
  if (code.endsWith('CPF_CN_INVALID') || code.endsWith('CPF_NOT_MATCH')) {
    return new SupplierError(
      'destinationUnsupported',
      `AliExpress refused the recipient's Brazilian tax number (CPF), which it needs for Brazil (${c})${w}`,
      subject,
    );
  }
  if (code.startsWith('B_DROPSHIPPER_DELIVERY_ADDRESS'))
    return new SupplierError('destinationUnsupported', `AliExpress refused the delivery address (${c})${w}`, subject);
  if (code === 'DELIVERY_METHOD_NOT_EXIST')
    return new SupplierError('destinationUnsupported', `AliExpress has no such shipping service for this order's delivery (${c})${w}`, subject);
  if (code === 'INVENTORY_HOLD_ERROR') return new SupplierError('variantUnavailable', `AliExpress could not hold stock for this order (${c})${w}`, subject);
  if (code === 'BLACKLIST_BUYER_IN_LIST' || code === 'USER_ACCOUNT_DISABLED') {
    return new SupplierError(
      'accountUnusable',
      `AliExpress will not take orders from this buyer account (${c}); the merchant settles it with AliExpress, then switches the connection on again${w}`,
      subject,
    );
  }
  if (code === 'PRICE_PAY_CURRENCY_ERROR') return new SupplierError('refused', `AliExpress refused the order's price or payment currency (${c})${w}`, subject);
  if (code === 'ERROR_WHEN_BUILD_FOR_PLACE_ORDER') return new SupplierError('refused', `AliExpress could not build the order (${c})${w}`, subject);
  // A001-A006 and anything unlisted: AliExpress's own words decide.
  return new SupplierError('refused', `AliExpress refused the order (${c})${w}`, subject);
}
