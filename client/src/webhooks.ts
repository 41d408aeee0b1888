import { StoreSuppliersError } from './errors.js';

/** An event the service sends to a subscription: `data` is the resource as the API answers it to the subscription's owner. */
export interface WebhookEvent<T = unknown> {
  id: string;
  type: string;
  createdAt: string;
  storeId: string;
  data: T;
  /** Set when the resource was too large to send: read it back with the client. */
  dataOmitted?: true;
}

export type WebhookVerificationFailure = 'missingHeaders' | 'timestampOutOfRange' | 'invalidSignature' | 'invalidSecret' | 'invalidBody';

/** A delivery that cannot be trusted: answer it with 400 and do not act on it. */
export class WebhookVerificationError extends StoreSuppliersError {
  override name = 'WebhookVerificationError';
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The time to check against (default now). */
  now?: Date;
}

/** A request's headers: a Fetch `Headers`, or Node's `IncomingHttpHeaders` (names in lower case). */
export type WebhookHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

const PREFIX = 'whsec_';
const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * Standard Webhooks verification (the scheme the service signs with): the three headers present, the timestamp
 * within the tolerance, and one of the `v1,` signatures an HMAC-SHA256 of `id.timestamp.body` under the secret
 * (compared in constant time by Web Crypto). Verify the raw body exactly as received, before parsing it.
 */
async function verify<T = unknown>(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent<T>> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('missingHeaders', 'The webhook-id, webhook-timestamp and webhook-signature headers are required.');
  const seconds = Number(timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (!/^\d+$/.test(timestamp) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('timestampOutOfRange', 'The webhook-timestamp is too far from now: a delayed or replayed delivery.');
  }
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey(
      'raw',
      base64Bytes(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
  } catch {
    throw new WebhookVerificationError('invalidSecret', 'The secret is not a signing secret (whsec_ and base64).');
  }
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : new Uint8Array(rawBody);
  const signed = new Uint8Array([...encoder.encode(`${id}.${timestamp}.`), ...body]);
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',');
    if (version !== 'v1' || !value) continue;
    let given: Uint8Array<ArrayBuffer>;
    try {
      given = base64Bytes(value);
    } catch {
      continue;
    }
    if (await crypto.subtle.verify('HMAC', key, given, signed)) {
      try {
        return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent<T>;
      } catch {
        throw new WebhookVerificationError('invalidBody', 'The body is signed but is not JSON.');
      }
    }
  }
  throw new WebhookVerificationError('invalidSignature', "No signature matches: the body or headers were changed, or the secret is not this subscription's.");
}

/** Checks deliveries of the service's events: `await webhooks.verify(rawBody, headers, secret)` answers the event. */
export const webhooks = { verify };
