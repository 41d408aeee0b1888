import { ApiError, apiErrorFor, ConnectionError, ErrorDetail, StoreSuppliersError, TimeoutError } from './errors.js';
import { routes, type Operations } from './generated/api.js';
import type { RequestOptions } from './types.js';

export const VERSION = '4.3.0';

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: typeof fetch;
  headers: Record<string, string>;
}

export type OperationId = keyof Operations;

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** Safe to send again after a network error, 429 or 503 (reads, and submit which is idempotent per part). */
  retrySafe?: boolean;
  headers?: Record<string, string>;
}

export interface Answer<T> {
  status: number;
  result: T;
  requestId: string | undefined;
}

/** Retry-After of a refusal, kept beside the error rather than on it. */
const retryAfterOf = new WeakMap<ApiError, number>();

const RETRY_STATUSES = new Set([429, 503]);
const MAX_BACKOFF_MS = 8_000;
const MAX_RETRY_AFTER_MS = 30_000;

/** One place that sends requests: key header, time-out, abort, retries, and error answers as errors. */
export class Transport {
  // A private field: the key never shows in console.log(client), JSON or an error.
  readonly #apiKey: string;
  readonly #opts: Omit<TransportOptions, 'apiKey'>;

  constructor(opts: TransportOptions) {
    const { apiKey, ...rest } = opts;
    this.#apiKey = apiKey;
    this.#opts = { ...rest, baseUrl: rest.baseUrl.replace(/\/+$/, '') };
  }

  async call<K extends OperationId>(operationId: K, input: CallInput, options: RequestOptions = {}): Promise<Answer<Operations[K]['result']>> {
    const route: { method: string; path: string; idempotent?: boolean } = routes[operationId];
    const url = this.#url(route.path, input.params ?? {}, input.query);
    // A create or money action carries one key for the whole call, the same on every retry: the service then makes it
    // once and answers a retry with the first result. With the key, sending again is safe.
    const key = route.idempotent ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    const retrySafe = input.retrySafe ?? (route.method === 'GET' || key !== undefined);
    const maxRetries = retrySafe ? (options.maxRetries ?? this.#opts.maxRetries) : 0;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'User-Agent': `store-suppliers-client/${VERSION}`,
      ...this.#opts.headers,
      ...input.headers,
      ...options.headers,
      'X-API-Key': this.#apiKey,
      ...(key !== undefined ? { 'Idempotency-Key': key } : {}),
    };
    const body = input.body === undefined ? undefined : JSON.stringify(input.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      let retryAfterMs: number | undefined;
      try {
        return await this.#once<Operations[K]['result']>(route.method, url, headers, body, options);
      } catch (err) {
        const inProgress = key !== undefined && err instanceof ApiError && err.code === 'idempotencyKeyInProgress';
        const again =
          err instanceof ConnectionError || err instanceof TimeoutError || inProgress || (err instanceof ApiError && RETRY_STATUSES.has(err.status));
        if (!again || attempt >= maxRetries) throw err;
        if (err instanceof ApiError) retryAfterMs = retryAfterOf.get(err);
      }
      await sleep(retryAfterMs ?? backoff(attempt), options.signal);
    }
  }

  async #once<T>(method: string, url: string, headers: Record<string, string>, body: string | undefined, options: RequestOptions): Promise<Answer<T>> {
    const timeoutMs = options.timeoutMs ?? this.#opts.timeoutMs;
    const controller = new AbortController();
    const timedOut = new TimeoutError(timeoutMs);
    const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await this.#opts.fetch(url, { method, headers, body, signal: controller.signal });
      const text = await res.text();
      const requestId = res.headers.get('x-request-id') ?? undefined;
      const parsed = parseJson(text);
      if (res.ok) {
        const result = parsed && typeof parsed === 'object' && 'result' in parsed ? (parsed as { result: T }).result : (parsed as T);
        return { status: res.status, result, requestId };
      }
      throw this.#refusal(res, parsed, requestId);
    } catch (err) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (controller.signal.aborted && controller.signal.reason === timedOut) throw timedOut;
      if (err instanceof StoreSuppliersError) throw err;
      throw new ConnectionError(this.#scrub(`Could not reach ${new URL(url).origin}: ${describe(err)}`));
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  #refusal(res: Response, parsed: unknown, headerRequestId: string | undefined): ApiError {
    const e = parsed && typeof parsed === 'object' && 'error' in parsed ? ((parsed as { error: Record<string, unknown> }).error ?? {}) : undefined;
    const { code, message, details, requestId, ...extra } = e ?? {};
    const err = apiErrorFor(
      res.status,
      typeof code === 'string' ? code : res.status === 429 ? 'rateLimited' : res.status === 503 ? 'serviceUnavailable' : 'unexpectedResponse',
      this.#scrub(typeof message === 'string' ? message : `The service answered ${res.status} ${res.statusText}`.trim()),
      Array.isArray(details) ? (JSON.parse(this.#scrub(JSON.stringify(details))) as ErrorDetail[]) : [],
      typeof requestId === 'string' ? requestId : headerRequestId,
      JSON.parse(this.#scrub(JSON.stringify(extra))) as Record<string, unknown>,
    );
    const retryAfter = retryAfterMs(res.headers.get('retry-after'));
    if (retryAfter !== undefined) retryAfterOf.set(err, retryAfter);
    return err;
  }

  /** The key never leaves in a message, even if a server or proxy echoed it. */
  #scrub(text: string): string {
    return this.#apiKey ? text.split(this.#apiKey).join('[redacted]') : text;
  }

  #url(template: string, params: Record<string, string>, query: Record<string, unknown> | undefined): string {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params[name];
      if (typeof value !== 'string' || value === '') throw new TypeError(`${name} is required`);
      return encodeURIComponent(value);
    });
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) search.append(k, String(v));
    const qs = search.toString();
    return `${this.#opts.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

/** Exponential back-off with jitter: about 0.5 s, 1 s, 2 s ... at most 8 s. */
function backoff(attempt: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function retryAfterMs(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
