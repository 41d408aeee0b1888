/**
 * How AliExpress checks a request (written from the note, apart from the adapter's own code so that a mistake in one
 * is not copied into the other): the app key, the timestamp within 7,200 s of now, `sign_method=sha256`, and the
 * signature: every parameter but `sign`, byte-sorted by name, as name+value pairs, after the API path for the
 * sign-in APIs, HMAC-SHA256 with the app secret, upper-case hex, compared exactly.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const MAX_SKEW_MS = 7_200_000;

export class AeFail extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly subCode = '',
    readonly type: 'ISV' | 'ISP' | 'SYSTEM' = 'ISV',
  ) {
    super(message);
  }
}

export function expectedSign(params: Record<string, string>, secret: string, apiPath: string): string {
  const names = Object.keys(params).filter((n) => n !== 'sign');
  names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  let base = apiPath;
  for (const n of names) base += n + params[n];
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(base, 'utf8')).digest('hex').toUpperCase();
}

/** Throws the platform's refusal, or returns when the request is the app's and signed right now. */
export function checkRequest(
  params: Record<string, string>,
  app: { appKey: string; appSecret: string },
  apiPath: string,
  now: number,
  maxSkewMs = MAX_SKEW_MS,
): void {
  if (!params.app_key) throw new AeFail('MissingAppKey', 'Missing app key');
  if (params.app_key !== app.appKey) throw new AeFail('InvalidAppKey', 'The app key does not exist');
  if (!/^\d{10,16}$/.test(params.timestamp ?? '')) throw new AeFail('InvalidTimestamp', 'The timestamp is missing or not in milliseconds');
  if (Math.abs(now - Number(params.timestamp)) > maxSkewMs)
    throw new AeFail('InvalidTimestamp', 'The request timestamp is more than 7200 seconds from the server time');
  if (params.sign_method !== 'sha256') throw new AeFail('InvalidSignMethod', 'Only sha256 signatures are taken here');
  const given = Buffer.from(params.sign ?? '', 'utf8');
  const wanted = Buffer.from(expectedSign(params, app.appSecret, apiPath), 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted))
    throw new AeFail('IncompleteSignature', 'The request signature does not conform to platform standards');
}
