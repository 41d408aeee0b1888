import http from 'node:http';
import https from 'node:https';
import { SupplierError } from './errors';

/** Supplier answers larger than this are refused rather than read into memory. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The socket error code behind a failed request (also when wrapped, as fetch wraps it: TypeError('fetch failed') { cause: { code } }). */
function networkErrorCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; cur && typeof cur === 'object' && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

const NUL = /\u0000/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `s` as text Postgres can store: NULs dropped, unpaired surrogates replaced by U+FFFD. */
export function storable(s: string): string {
  return s.replace(NUL, '').replace(LONE_SURROGATE, '\ufffd');
}

/** What JSON text may hold that Postgres cannot store: a NUL or a surrogate, written raw or as an escape. */
const UNSTORABLE_TEXT = /\u0000|\\u0000|[\ud800-\udfff]|\\u[dD][89a-fA-F]/;

/** A supplier's JSON answer with every string and field name made storable, so no answer can break a write. */
export function parseSupplierJson(text: string): unknown {
  // Nearly every answer holds nothing to clean: parsed as it is, without a reviver visiting every value.
  if (!UNSTORABLE_TEXT.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === 'string') return storable(value);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    const keys = Object.keys(value);
    if (keys.every((k) => storable(k) === k)) return value;
    return Object.fromEntries(keys.map((k) => [storable(k), (value as Record<string, unknown>)[k]]));
  });
}

// ---- one request, for every adapter's HTTP client ----

export type Obj = Record<string, unknown>;

/** A 2xx body that does not have the documented shape; names the field, never its value. */
export class ShapeError extends Error {}

/** A string, or a safe integer as its text (suppliers send some ids as JSON numbers). */
export function text(o: Obj, key: string, at: string): string {
  const v = o[key];
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  throw new ShapeError(`${at}.${key} is not a string`);
}

export function optionalText(o: Obj, key: string): string | null {
  const v = o[key];
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return null;
}

export function asObj(value: unknown, at: string): Obj {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ShapeError(`${at} is not an object`);
  return value as Obj;
}

/** A caller's time limit as fetch takes it: whole milliseconds, at least 1. */
function timeoutOf(ms: number): number {
  return Number.isFinite(ms) && ms >= 1 ? Math.floor(ms) : 1;
}

/** Parsed (storable) JSON, or undefined when the text is empty or not JSON. */
export function jsonOrUndefined(text: string): unknown {
  try {
    return text ? parseSupplierJson(text) : undefined;
  } catch {
    return undefined;
  }
}

/** How messages name the supplier: as a subject ("CJ did not answer") and as an object ("Could not reach CJ"). */
export interface SupplierNames {
  subject: string;
  object: string;
}

export interface SupplierRequest {
  method: string;
  /** Base address (no trailing slash) and path; the path also names the call in messages, so it holds no secret. */
  baseUrl: string;
  path: string;
  /** Several values of one name are sent as repeated parameters. */
  query?: Record<string, string | string[] | undefined>;
  /** The credential header(s); accept and content-type are added here. */
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded instead of a JSON body. */
  form?: Record<string, string>;
  timeoutMs: number;
}

/** Keeps connections to a supplier open between calls (one socket serves many requests). */
const AGENTS = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * Sends one JSON (or form) request and reads the answer's text (capped), whatever its status. Throws `timeout` or `unavailable`
 * only when no answer arrived. Never follows a redirect (it would carry the credential elsewhere); retries only a read
 * whose reused socket was reset before it was sent (below).
 * Plain node:http(s) rather than fetch: a dispatch makes several calls per part, and fetch's streams and signals
 * cost more CPU than the call itself against a fast supplier.
 */
export function sendRequest(req: SupplierRequest, names: SupplierNames): Promise<{ status: number; text: string; label: string }> {
  const label = `${req.method} ${req.path}`;
  const timeoutMs = timeoutOf(req.timeoutMs);
  const url = new URL(req.baseUrl + req.path);
  for (const [key, value] of Object.entries(req.query ?? {})) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, v);
  }
  const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  if (req.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded;charset=utf-8';
  const text = req.form !== undefined ? new URLSearchParams(req.form).toString() : req.body === undefined ? undefined : JSON.stringify(req.body);
  const body = text === undefined ? undefined : Buffer.from(text);
  if (body) headers['content-length'] = String(body.length);
  const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
  if (!client) return Promise.reject(new SupplierError('unavailable', `Could not reach ${names.object} for ${label} (unsupported address)`));
  // A keep-alive socket the supplier closed just as we reused it resets before any answer: the request never reached
  // it, so a read is sent once more on a new socket (the Node documentation's advice). A change is not: the order
  // number look-up before every create is what makes a change safe to send again, and it belongs to the job.
  const idempotent = req.method === 'GET' || req.method === 'HEAD';
  const transport = client;
  return attempt(idempotent ? 1 : 0);
  function attempt(resends: number): Promise<{ status: number; text: string; label: string }> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (err: SupplierError | null, value?: { status: number; text: string; label: string }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) {
          request.destroy();
          reject(err);
        } else resolve(value!);
      };
      const timer = setTimeout(() => finish(new SupplierError('timeout', `${names.subject} did not answer ${label} within ${timeoutMs} ms`)), timeoutMs);
      const request = transport.request(url, { method: req.method, headers, agent: AGENTS[url.protocol as keyof typeof AGENTS] }, (res) => {
        const tooLarge = () => new SupplierError('unavailable', `${names.subject} answer to ${label} is too large`);
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) return finish(tooLarge());
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) return finish(tooLarge());
          chunks.push(chunk);
        });
        res.on('end', () => finish(null, { status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), label }));
        res.on('error', (err) =>
          finish(new SupplierError('unavailable', `Could not reach ${names.object} for ${label} (${networkErrorCode(err) ?? 'network error'})`)),
        );
        res.on(
          'close',
          () => !res.complete && finish(new SupplierError('unavailable', `Could not reach ${names.object} for ${label} (the answer was cut off)`)),
        );
      });
      request.on('error', (err) => {
        if (resends > 0 && request.reusedSocket && !settled && networkErrorCode(err) === 'ECONNRESET') {
          settled = true;
          clearTimeout(timer);
          attempt(resends - 1).then(resolve, reject);
          return;
        }
        finish(new SupplierError('unavailable', `Could not reach ${names.object} for ${label} (${networkErrorCode(err) ?? 'network error'})`));
      });
      request.end(body);
    });
  }
}

/** `message` without the secrets; values shorter than 6 characters are left, as they would blank out ordinary words. */
export function scrubSecrets(message: string, secrets: string[]): string {
  let out = message;
  for (const secret of secrets) if (secret.length >= 6) out = out.split(secret).join('[redacted]');
  return out;
}

// A broken or hostile endpoint must not make us carry its words without bound.
const MAX_WORDS_LENGTH = 300;

/** A supplier's own words for a message: the secrets out, then e-mail addresses, long tokens and phone numbers; capped. */
export function cleanSupplierWords(message: string, secrets: string[]): string {
  const out = scrubSecrets(message, secrets)
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '[email]')
    .replace(/\b[A-Za-z0-9_-]{32,}\b/g, '[token]')
    .replace(/\+?\d[\d\s().-]{7,}\d/g, '[number]');
  return out.length > MAX_WORDS_LENGTH ? `${out.slice(0, MAX_WORDS_LENGTH)}...` : out;
}

/** Every non-empty credential value: what a message built from the supplier's answer must not repeat. */
export function secretsOf(credentials: Record<string, string>): string[] {
  return Object.values(credentials).filter((v): v is string => typeof v === 'string' && v !== '');
}
