/** The public API, called with the session token kept in this page's memory only (never stored, never in a URL). */
import type { Store } from './types.js';

let session: string | null = null;
let onSignedOut: () => void = () => undefined;

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown,
  ) {
    super(message);
  }
}

export function setSession(token: string | null, signedOut?: () => void): void {
  session = token;
  if (signedOut) onSignedOut = signedOut;
}

export function signedIn(): boolean {
  return session !== null;
}

export interface Answer<T> {
  status: number;
  result: T;
}

/**
 * `cookies`: keep a cookie the answer sets (opening a supplier sign-in binds it to this browser with one). Every other
 * call sends and keeps none.
 */
export async function api<T = unknown>(method: string, path: string, body?: unknown, opts: { cookies?: boolean } = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (session) headers.Authorization = `Bearer ${session}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const credentials = opts.cookies ? 'same-origin' : 'omit';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials, cache: 'no-store' });
  const text = await res.text();
  let parsed: { result?: T; error?: { code?: string; message?: string; details?: unknown } } = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    /* not JSON: reported below */
  }
  if (res.status === 401 && session) {
    session = null;
    onSignedOut();
  }
  if (res.status >= 400) {
    const e = parsed.error ?? {};
    throw new ApiFailure(res.status, e.code ?? 'httpError', e.message ?? `The service answered ${res.status}.`, e.details);
  }
  return { status: res.status, result: parsed.result as T };
}

/** Query string from the given values, leaving out empty ones. */
export function qs(values: Record<string, string | number | boolean | null | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The owner holds every permission; staff hold the ones granted (`permissions`). */
export const may = (store: Store | null, permission: string): boolean => !!store && (store.role === 'owner' || !!store.permissions?.includes(permission));
