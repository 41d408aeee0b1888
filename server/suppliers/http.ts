import { SupplierError } from './errors';

/** Supplier answers larger than this are refused rather than read into memory. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The socket error code behind a failed fetch (undici wraps it: TypeError('fetch failed') { cause: { code } }). */
export function networkErrorCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; cur && typeof cur === 'object' && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Reads an answer's text, refusing it as `unavailable` once it passes MAX_ANSWER_BYTES. */
export async function readCapped(res: Response, what: string): Promise<string> {
  const tooLarge = () => new SupplierError('unavailable', `${what} is too large`);
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
    await res.body?.cancel();
    throw tooLarge();
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const NUL = /\u0000/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `s` as text Postgres can store: NULs dropped, unpaired surrogates replaced by U+FFFD. */
export function storable(s: string): string {
  return s.replace(NUL, '').replace(LONE_SURROGATE, '\ufffd');
}

/** A supplier's JSON answer with every string and field name made storable, so no answer can break a write. */
export function parseSupplierJson(text: string): unknown {
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
export function timeoutOf(ms: number): number {
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

/**
 * Sends one JSON (or form) request and reads the answer's text (capped), whatever its status. Throws `timeout` or `unavailable`
 * only when no answer arrived. Never retries, never follows a redirect (it would carry the credential elsewhere).
 */
export async function sendRequest(req: SupplierRequest, names: SupplierNames): Promise<{ status: number; text: string; label: string }> {
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
  const body = req.form !== undefined ? new URLSearchParams(req.form).toString() : req.body === undefined ? undefined : JSON.stringify(req.body);
  try {
    const res = await fetch(url, {
      method: req.method,
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    return { status: res.status, text: await readCapped(res, `${names.subject} answer to ${label}`), label };
  } catch (err) {
    if (err instanceof SupplierError) throw err;
    const name = err && typeof err === 'object' ? (err as { name?: unknown }).name : undefined;
    if (name === 'TimeoutError' || name === 'AbortError') throw new SupplierError('timeout', `${names.subject} did not answer ${label} within ${timeoutMs} ms`);
    throw new SupplierError('unavailable', `Could not reach ${names.object} for ${label} (${networkErrorCode(err) ?? 'network error'})`);
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
