/**
 * HTTP to Printful's API (v1): one request, one envelope (`{code, result}`; errors `{code, result, error{reason,
 * message}}` or RFC 9457 problem details). Decides on the HTTP status (and Printful's `api_error_code`), never on its
 * words, and turns every failure into a SupplierError whose message carries no credential. Never retries by itself.
 */
import type { SupplierCallContext } from '../adapter';
import { SupplierError } from '../errors';
import { cleanSupplierWords, jsonOrUndefined, Obj, secretsOf, sendRequest, ShapeError } from '../http';

const NAMES = { subject: 'Printful', object: 'Printful' };
const TOKEN_SHAPE = /^[\x21-\x7e]{8,200}$/;
const STORE_ID_SHAPE = /^[1-9]\d{0,14}$/;

export interface PrintfulCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the base address; also names the call in messages, so it holds no secret. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
  /** Printful's API v2 (`/v2` paths), whose answers are `{data}` instead of `{code, result}`. */
  v2?: boolean;
}

/** A 2xx answer: Printful's `result` (v2: `data`), with `paging` for lists. */
export interface PrintfulAnswer {
  status: number;
  result: unknown;
  paging: Obj | null;
  label: string;
}

/** A refusal, before it is read in its context: the status, Printful's error code (OR-13, SH-1...) and words. */
export interface PrintfulRefusal {
  status: number;
  apiCode: string | null;
  words: string;
  label: string;
}

/** What a failed call is about, so a 404 or a 400 can be read in its context. */
export type FailureContext = 'product' | 'variant' | 'order' | 'other';

const asObjOrNull = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);

function refusalOf(status: number, body: Obj | null, label: string, secrets: string[]): PrintfulRefusal {
  const error = body?.error;
  const errObj = asObjOrNull(error);
  const said = [errObj?.message, error, body?.result, body?.detail, body?.details, body?.title, body?.data].find(
    (w): w is string => typeof w === 'string' && w !== '',
  );
  const code = [body?.api_error_code, errObj?.api_error_code, errObj?.code].find((c): c is string => typeof c === 'string' && /^[A-Z]{2}-\d{1,3}$/.test(c));
  return { status, apiCode: code ?? null, words: said ? cleanSupplierWords(said, secrets) : `HTTP ${status}`, label };
}

/** Printful's refusals in the adapter's error kinds (docs/suppliers/printful.md). */
export function failureOf(r: PrintfulRefusal, context: FailureContext, subject?: Record<string, string>): SupplierError {
  const said = `${r.words}${r.apiCode ? ` (${r.apiCode})` : ''}`;
  if (r.status === 401) return new SupplierError('credentialsRejected', `Printful refused the token (HTTP 401): ${said}`);
  if (r.status === 403) return new SupplierError('credentialsRejected', `Printful refused the token for ${r.label}; it may lack a scope (HTTP 403): ${said}`);
  if (r.status === 429 || r.status === 419)
    return new SupplierError('unavailable', `Printful refused ${r.label}: too many requests (HTTP ${r.status})`, undefined, true);
  if (r.apiCode === 'OR-13') return new SupplierError('orderNumberExists', 'Printful already has an order with this external id (OR-13)', subject);
  if (r.apiCode === 'OR-2') return new SupplierError('accountUnusable', `Printful refused ${r.label}: the store is terminated (OR-2)`);
  if (r.apiCode === 'OR-6' || r.apiCode === 'PR-1')
    return new SupplierError('variantUnavailable', `Printful will not make a variant of this order: ${said}`, subject);
  if (r.apiCode === 'SH-1' || r.apiCode === 'SH-2' || r.apiCode === 'OR-9')
    return new SupplierError('destinationUnsupported', `Printful does not ship this order to its destination: ${said}`);
  if (r.status === 404) {
    if (context === 'variant') return new SupplierError('variantUnavailable', `Printful no longer has a variant of this order (HTTP 404)`, subject);
    return new SupplierError(
      'notFound',
      `Printful has no such ${context === 'product' ? 'product' : context === 'order' ? 'order' : 'thing'} (HTTP 404)`,
      subject,
    );
  }
  return new SupplierError('refused', `Printful refused ${r.label} (HTTP ${r.status}): ${said}`, subject);
}

export class PrintfulClient {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  token(ctx: SupplierCallContext): string {
    const token = ctx.credentials.apiKey;
    // Checked here so a bad value never reaches a header (or a message).
    if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) throw new SupplierError('credentialsRejected', 'The connection has no usable Printful token');
    return token;
  }

  /** Answers 2xx, or a refusal; throws `timeout`/`unavailable` when Printful did not answer as Printful. */
  async send(ctx: SupplierCallContext, call: PrintfulCall): Promise<PrintfulAnswer | PrintfulRefusal> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token(ctx)}` };
    const storeId = ctx.credentials.storeId;
    if (typeof storeId === 'string' && storeId !== '') {
      if (!STORE_ID_SHAPE.test(storeId)) throw new SupplierError('credentialsRejected', 'The connection has no usable Printful store id');
      headers['x-pf-store-id'] = storeId;
    }
    await ctx.pace?.();
    const { status, text, label } = await sendRequest(
      { method: call.method, baseUrl: this.baseUrl, path: call.path, query: call.query, headers, body: call.body, timeoutMs: ctx.timeoutMs },
      NAMES,
    );
    const body = asObjOrNull(jsonOrUndefined(text));
    if (status >= 500) throw new SupplierError('unavailable', `Printful failed ${label} (HTTP ${status})`);
    if (status >= 300 && status < 400) throw new SupplierError('unavailable', `Printful answered ${label} with an unexpected redirect (HTTP ${status})`);
    if (status >= 400) return refusalOf(status, body, label, secretsOf(ctx.credentials));
    if (call.v2) {
      if (!body || !('data' in body))
        throw new SupplierError('unavailable', `Printful answered ${label} with something other than its envelope (HTTP ${status})`);
      return { status, result: body.data, paging: asObjOrNull(body.paging), label };
    }
    // Body `code` mirrors the HTTP status; a 2xx carrying another code is a refusal in a success's clothes.
    const code = typeof body?.code === 'number' ? body.code : status;
    if (!body || !('result' in body))
      throw new SupplierError('unavailable', `Printful answered ${label} with something other than its envelope (HTTP ${status})`);
    if (code >= 400) return refusalOf(code, body, label, secretsOf(ctx.credentials));
    return { status, result: body.result, paging: asObjOrNull(body.paging), label };
  }

  /** An authenticated call; answers only success. */
  async request(ctx: SupplierCallContext, call: PrintfulCall, context: FailureContext, subject?: Record<string, string>): Promise<PrintfulAnswer> {
    const answer = await this.send(ctx, call);
    if ('words' in answer) throw failureOf(answer, context, subject);
    return answer;
  }

  /** Reads an answer; a wrong shape is Printful answering what it could not have meant (`unavailable`). */
  read<T>(answer: PrintfulAnswer, reader: (result: unknown, answer: PrintfulAnswer) => T): T {
    try {
      return reader(answer.result, answer);
    } catch (err) {
      if (err instanceof SupplierError) throw err;
      const what = err instanceof ShapeError ? err.message : 'unreadable body';
      throw new SupplierError('unavailable', `Printful answered ${answer.label} with an unexpected body (${what})`);
    }
  }
}
