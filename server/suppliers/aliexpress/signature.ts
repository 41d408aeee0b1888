/**
 * The AliExpress Open Platform request signature, `sign_method=sha256` (docs/suppliers/aliexpress.md): every
 * parameter except `sign`, sorted by key in ASCII order, written as key1value1key2value2..., after the API path for a
 * system call (`/auth/token/create...`); HMAC-SHA256 of that with the app secret, as upper-case hex.
 */
import { createHmac } from 'node:crypto';

export function signatureBase(params: Record<string, string>, apiPath = ''): string {
  const keys = Object.keys(params)
    .filter((k) => k !== 'sign')
    // Byte order, not the locale's: keys are ASCII, so comparing code units is ASCII order.
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return apiPath + keys.map((k) => k + params[k]).join('');
}

export function sign(params: Record<string, string>, appSecret: string, apiPath = ''): string {
  return createHmac('sha256', appSecret).update(signatureBase(params, apiPath), 'utf8').digest('hex').toUpperCase();
}
