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
