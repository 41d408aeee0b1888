/**
 * The soak's HTTP: every call to the service carries a request id of the soak's own (the service keeps it on the
 * credit ledger's rows), and every call that costs credits is written in the book the credit check reads.
 * Only HTTP: nothing of the service is imported.
 */

export interface Answer<T> {
  /** 0: no answer (refused, reset, or the time limit passed). */
  status: number;
  body: T;
  text: string;
  requestId: string;
  headers: Headers | null;
}

export interface CallOptions {
  key?: string;
  session?: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** A call the soak made that costs credits: what it should have cost, by what it was answered. */
export interface ChargedCall {
  requestId: string;
  accountId: string;
  action: string;
  /** What the call costs if it did what it asked: price × units. */
  price: number;
  /** The credits it should have cost going by its answer; null while unanswered (a probe decides later). */
  expected: number | null;
  /** For an unanswered call: did it do what it asked? Asked after the settle phase, through the API. */
  probe?: () => Promise<boolean>;
  what: string;
  /** What it was answered (0: nothing). */
  status: number;
}

let sequence = 0;
const runTag = Date.now().toString(36);

export const newRequestId = (): string => `soak-${runTag}-${++sequence}`;

export async function call<T = unknown>(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<Answer<T>> {
  const requestId = newRequestId();
  const headers: Record<string, string> = { 'X-Request-Id': requestId, ...(opts.headers ?? {}) };
  if (opts.key !== undefined) headers['X-API-Key'] = opts.key;
  if (opts.session !== undefined) headers.Authorization = `Bearer ${opts.session}`;
  let payload: string | undefined;
  if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  try {
    const res = await fetch(baseUrl + path, { method, headers, body: payload, signal: AbortSignal.timeout(opts.timeoutMs ?? 30000) });
    const text = await res.text();
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: res.status, body: body as T, text, requestId, headers: res.headers };
  } catch (err) {
    return { status: 0, body: undefined as T, text: err instanceof Error ? err.message : String(err), requestId, headers: null };
  }
}

/** A service's operator API and its plain calls, as one address. */
export class Api {
  /** The calls that cost credits, for the credit check. */
  readonly book: ChargedCall[] = [];
  calls = 0;
  unanswered = 0;

  constructor(
    readonly baseUrl: string,
    readonly operatorToken: string,
  ) {}

  async call<T = unknown>(method: string, path: string, opts: CallOptions = {}): Promise<Answer<T>> {
    this.calls++;
    const a = await call<T>(this.baseUrl, method, path, opts);
    if (a.status === 0) this.unanswered++;
    return a;
  }

  /**
   * A call that costs `price` credits when it does what it asked (`done` decides from a 2xx answer, default: it did).
   * An error answer costs nothing (the service refunds what it charged up front); an unanswered call is decided
   * later by `probe`.
   */
  async charged<T = unknown>(
    spec: { accountId: string; action: string; price: number; what: string; probe?: () => Promise<boolean>; done?: (a: Answer<T>) => number },
    method: string,
    path: string,
    opts: CallOptions,
  ): Promise<Answer<T>> {
    const a = await this.call<T>(method, path, opts);
    const ok = a.status >= 200 && a.status < 300;
    const expected = a.status === 0 ? null : ok ? (spec.done ? spec.done(a) : spec.price) : 0;
    this.book.push({
      requestId: a.requestId,
      accountId: spec.accountId,
      action: spec.action,
      price: spec.price,
      expected,
      probe: spec.probe,
      what: spec.what,
      status: a.status,
    });
    return a;
  }

  /** Calls until answered (not 0, not 503), as a client that retries what is safe to repeat; at most `tries`. */
  async patiently<T = unknown>(method: string, path: string, opts: CallOptions = {}, tries = 30): Promise<Answer<T>> {
    let a = await this.call<T>(method, path, opts);
    for (let i = 1; i < tries && (a.status === 0 || a.status === 503 || a.status === 502); i++) {
      await sleep(1000);
      a = await this.call<T>(method, path, opts);
    }
    return a;
  }

  async operator<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const a = await this.patiently<{ result: T }>(method, path, { body, headers: { 'X-Operator-Token': this.operatorToken } });
    if (a.status !== 200) throw new Error(`operator ${method} ${path}: ${a.status} ${a.text}`);
    return a.body.result;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Answers `body.result` of a 2xx answer, or throws with what was answered instead. */
export function resultOf<T>(a: Answer<{ result: T }>, what: string): T {
  if (a.status < 200 || a.status >= 300) throw new Error(`${what}: answered ${a.status} ${a.text.slice(0, 400)}`);
  return a.body.result;
}

/** Calls a program's own control API (the sandboxes', the supplier-format servers'), which has no key. */
export async function control<T = unknown>(baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const a = await call<T>(baseUrl, method, path, { body, timeoutMs: 20000 });
  if (a.status === 0 || a.status >= 300) throw new Error(`${method} ${baseUrl}${path}: ${a.status} ${a.text.slice(0, 300)}`);
  return a.body;
}
