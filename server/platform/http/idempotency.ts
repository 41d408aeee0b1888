import crypto from 'node:crypto';
import type { Queryable } from '../db';
import { ApiError } from '../errors';
import { failpoint } from '../failpoints';
import type { Caller, RequestIdempotency } from './route';

/** What the pipeline keeps of a first answer and replays. */
export interface StoredAnswer {
  status: number;
  body: unknown;
}

/** One caller's key, for one request (its fingerprint: the operation, its path, query and canonical body). */
export interface KeyClaim {
  /** The caller's account (the table's distribution key); `scope` narrows it to the key or the signed-in user. */
  accountId: string;
  scope: string;
  key: string;
  fingerprint: string;
  /** This request's token: only its holder writes the answer or gives the key back. */
  token: string;
}

/** What claiming a key found: run the request, replay, refuse, or rebuild an answer from what the first made. */
export type Claimed =
  { kind: 'run' } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'reused' } | { kind: 'inProgress' } | { kind: 'recover'; ref: string };

/** The keys as the identity domain keeps them (server/identity/idempotency.ts); the pipeline knows no SQL. */
export interface IdempotencyKeys {
  claim(c: KeyClaim): Promise<Claimed>;
  /** Keeps the claim's lease while the request runs. */
  renew(c: KeyClaim): Promise<void>;
  renewEveryMs: number;
  /** Records, inside the create's own transaction, what it made: the key and the create commit together or not at all. */
  made(tx: Queryable, c: KeyClaim, ref: string): Promise<void>;
  answer(c: KeyClaim, answer: StoredAnswer): Promise<void>;
  /** The request failed on our side: the key is given back (or, when its create committed, left for recovery). */
  release(c: KeyClaim): Promise<void>;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export const idempotencyErrors = {
  invalid: () => new ApiError(400, 'invalidIdempotencyKey', 'Idempotency-Key must be 1 to 255 visible ASCII characters.'),
  reused: () => new ApiError(422, 'idempotencyKeyReused', 'This Idempotency-Key was used with another request (operation, path or body); use a new key.'),
  inProgress: () =>
    new ApiError(
      409,
      'idempotencyKeyInProgress',
      'A request with this Idempotency-Key is still running; send it again once it has answered.',
      undefined,
      undefined,
      { 'Retry-After': '1' },
    ),
};

/** The header's key, or null when none was sent; refuses a malformed one. */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | null {
  const v = headers[IDEMPOTENCY_HEADER];
  if (v === undefined) return null;
  if (Array.isArray(v) || !/^[\x21-\x7e]{1,255}$/.test(v)) throw idempotencyErrors.invalid();
  return v;
}

/** JSON with object keys sorted: the same request hashes alike whatever order its keys came in. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.keys(v as object)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined);
    return `{${entries.map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/** Keys are the caller's: the API key that calls, or the account for a signed-in user. */
export function scopeOf(caller: Caller): string {
  return caller.apiKey ? `key:${caller.apiKey.id}` : `account:${caller.accountId}`;
}

export function fingerprintOf(operationId: string, params: unknown, query: unknown, body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${operationId}\n${canonicalJson(params)}\n${canonicalJson(query)}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** Answers kept for a key: a refusal is the answer too, except one that says to come back later (429). */
export function keepsAnswer(status: number): boolean {
  return status < 500 && status !== 429;
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

const replayed = (a: StoredAnswer): Answer => ({ status: a.status, body: a.body, headers: { [REPLAYED_HEADER]: 'true' } });

/**
 * A keyed request: claimed once, replayed after, refused while the first runs or when the key's request differs. The
 * answer is kept when the request ends, unless it failed on our side (5xx): then the caller may send it again.
 */
export async function runKeyed(
  keys: IdempotencyKeys,
  claim: KeyClaim,
  run: (idempotency: RequestIdempotency) => Promise<Answer>,
  rebuild: ((ref: string) => Promise<Answer>) | null,
  onStoreFailed: (err: unknown) => void,
): Promise<Answer> {
  const found = await keys.claim(claim);
  if (found.kind === 'replay') return replayed(found.answer);
  if (found.kind === 'reused') throw idempotencyErrors.reused();
  // A create that committed without its answer is never run again: its answer is rebuilt from what it made.
  if (found.kind === 'inProgress' || (found.kind === 'recover' && !rebuild)) throw idempotencyErrors.inProgress();
  if (found.kind === 'recover') {
    const answer = await rebuild!(found.ref);
    await keys.answer(claim, answer).catch(onStoreFailed);
    return replayed(answer);
  }
  const renewing = setInterval(() => void keys.renew(claim).catch(() => undefined), keys.renewEveryMs);
  renewing.unref();
  let answer: Answer;
  try {
    answer = await run({ made: (tx, ref) => keys.made(tx, claim, ref), key: keyDigest(claim) });
  } catch (err) {
    clearInterval(renewing);
    if (err instanceof ApiError && keepsAnswer(err.status)) await keys.answer(claim, { status: err.status, body: err.toBody() }).catch(onStoreFailed);
    else await keys.release(claim).catch(onStoreFailed);
    throw err;
  }
  clearInterval(renewing);
  // Fault drill: killed once the work committed, before its answer is kept (a retry then recovers or runs it again).
  failpoint('idempotency.answer');
  // The work is done: a failure to keep its answer is logged, the answer still given (the lease then lapses).
  if (keepsAnswer(answer.status)) await keys.answer(claim, { status: answer.status, body: answer.body ?? null }).catch(onStoreFailed);
  else await keys.release(claim).catch(onStoreFailed);
  return answer;
}

/** A request without a key: what a create tells its key goes nowhere. */
export const NO_KEY: RequestIdempotency = { made: async () => undefined, key: null };

const keyDigest = (c: KeyClaim): string => crypto.createHash('sha256').update(`${c.accountId}/${c.scope}/${c.key}`).digest('hex');
