/**
 * HTTP to CJ API 2.0: one request, one envelope. Decides on the envelope's `code`, never on its message, and turns
 * every failure into a SupplierError whose message carries no credential. Never retries by itself.
 */
import { SupplierError } from '../errors';
import { cleanSupplierWords as scrub, jsonOrUndefined, Obj, sendRequest } from '../http';

const NAMES = { subject: 'CJ', object: 'CJ' };

export interface CjCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the base address; also names the call in messages, so it holds no secret. */
  path: string;
  query?: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** The `CJ-Access-Token` header; absent for the authentication calls. */
  token?: string;
  timeoutMs: number;
  /** Values to scrub from any message built from CJ's answer. */
  secrets: string[];
}

/** CJ's answer: code 200 is success; anything else is CJ saying no, with its code and message. */
export interface CjAnswer {
  httpStatus: number;
  code: number;
  message: string;
  data: unknown;
  /** The body as text, for values JSON numbers cannot hold exactly (a Long openId). */
  text: string;
  label: string;
}

/** Codes that say the access token itself is not (or no longer) good: obtain another and try once more. */
export const TOKEN_REJECTED_CODES = new Set([1600001, 1600002]);
export const QPS_CODE = 1600200;

/** The credential codes of CJ's table: the key or token is refused (1600003 is a refused refresh token). */
const CREDENTIAL_CODES = new Set([1600001, 1600002, 1600003, 1600004, 1600005, 1600008]);

export class CjHttp {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /**
   * Answers CJ's envelope whatever its code; throws `timeout`/`unavailable` when no envelope arrived (no answer,
   * 5xx, 429, a redirect, or a body that is not CJ's envelope).
   */
  async send(call: CjCall): Promise<CjAnswer> {
    const headers = call.token === undefined ? undefined : { 'CJ-Access-Token': call.token };
    const { status, text, label } = await sendRequest(
      { method: call.method, baseUrl: this.baseUrl, path: call.path, query: call.query, headers, body: call.body, timeoutMs: call.timeoutMs },
      NAMES,
    );
    const body = jsonOrUndefined(text);
    const envelope = body && typeof body === 'object' && !Array.isArray(body) ? (body as Obj) : null;
    const rawCode = envelope?.code;
    const code = typeof rawCode === 'number' ? rawCode : typeof rawCode === 'string' && /^\d{1,9}$/.test(rawCode) ? Number(rawCode) : NaN;
    const message = envelope && typeof envelope.message === 'string' ? scrub(envelope.message, call.secrets) : '';
    if (status === 429)
      return { httpStatus: status, code: Number.isFinite(code) ? code : 1600201, message: message || 'HTTP 429', data: null, text: '', label };
    if (status >= 500) throw new SupplierError('unavailable', `CJ failed ${label} (HTTP ${status}${Number.isFinite(code) ? ` ${code}` : ''})`);
    if (status >= 300 && status < 400) throw new SupplierError('unavailable', `CJ answered ${label} with an unexpected redirect (HTTP ${status})`);
    if (!envelope || !Number.isFinite(code))
      throw new SupplierError('unavailable', `CJ answered ${label} with something other than its envelope (HTTP ${status})`);
    // Success is code 200 with result true; `result` missing is read as success, false as a refusal.
    const ok = code === 200 && envelope.result !== false && envelope.success !== false;
    return { httpStatus: status, code: ok ? 200 : code === 200 ? 1600000 : code, message, data: envelope.data ?? null, text, label };
  }
}

/** What a failed call is about, so a product or variant code can be read in its context. */
export type FailureContext = 'product' | 'order' | 'pay' | 'auth' | 'other';

/** CJ's code table (docs/suppliers/cj.md) to the adapter's error kinds. */
export function failureOf(answer: CjAnswer, context: FailureContext, subject?: Record<string, string>): SupplierError {
  const { code, label } = answer;
  const said = answer.message || `code ${code}`;
  if (answer.httpStatus === 429 && code !== QPS_CODE)
    return new SupplierError('unavailable', `CJ refused ${label}: the daily API points are used up (HTTP 429, ${code})`, undefined, true);
  switch (true) {
    case code === 1600000:
      return new SupplierError('unavailable', `CJ is busy and did not handle ${label} (${code})`);
    case code === QPS_CODE:
      return new SupplierError('unavailable', `CJ refused ${label}: too many requests per second for this account (${code})`, undefined, true);
    case code === 1600201:
      return new SupplierError('unavailable', `CJ refused ${label}: the account's request quota is used up (${code})`, undefined, true);
    case code === 1600301:
      return new SupplierError('timeout', `CJ timed out handling ${label} (${code})`);
    case CREDENTIAL_CODES.has(code):
      return new SupplierError('credentialsRejected', `CJ refused the API key or access token (${code}): ${said}`);
    case code >= 1602000 && code <= 1602003:
      if (context === 'product') return new SupplierError('notFound', `CJ does not offer this product (${code}): ${said}`, subject);
      return new SupplierError('variantUnavailable', `CJ no longer offers a product or variant of this order (${code}): ${said}`, subject);
    case code === 1603003:
      return new SupplierError('orderNumberExists', `CJ already has an order with this number (${code})`, subject);
    case code === 1603100:
      return new SupplierError('notFound', `CJ has no such order (${code})`, subject);
    case code === 1604000:
      return new SupplierError('insufficientBalance', `The CJ balance is too low to pay this order (${code})`, subject);
    case code >= 1605000 && code <= 1605002:
      return new SupplierError('destinationUnsupported', `CJ does not deliver this order to its destination (${code}): ${said}`);
    default:
      // 1604001 (balance payment restricted), order create/confirm/delete failures, parameter errors and any other
      // refusal: CJ will not do it as asked, and its own words are what the merchant needs to see.
      return new SupplierError('refused', `CJ refused ${label} (${code}): ${said}`, subject);
  }
}
