/** HTTP to the sandbox supplier: one request, one answer, and the supplier's error codes as SupplierErrors. */
import { SupplierError } from '../errors';
import { jsonOrUndefined, Obj, scrubSecrets, sendRequest, ShapeError } from '../http';

// A broken or hostile endpoint must not make us buffer without bound.
const MAX_MESSAGE_LENGTH = 300;
const NAMES = { subject: 'Sandbox supplier', object: 'the sandbox supplier' };

export interface Call {
  method: 'GET' | 'POST' | 'PUT';
  /** Already encoded; also names the call in messages, so it must hold no secret. */
  path: string;
  query?: Record<string, string | undefined>;
  token?: string;
  body?: unknown;
  timeoutMs: number;
  /** Values to scrub from any message built from the supplier's answer. */
  secrets: string[];
}

export interface Answer {
  status: number;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
  label: string;
  secrets: string[];
}

function scrub(message: string, secrets: string[]): string {
  const out = scrubSecrets(message, secrets);
  return out.length > MAX_MESSAGE_LENGTH ? `${out.slice(0, MAX_MESSAGE_LENGTH)}...` : out;
}

export class SandboxHttp {
  private readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  url(path: string): string {
    return this.baseUrl + path;
  }

  /** Answers any HTTP status; throws only when no answer arrived (or it could not be read). Never retries. */
  async send(call: Call): Promise<Answer> {
    const headers = call.token === undefined ? undefined : { authorization: `Bearer ${call.token}` };
    const { status, text, label } = await sendRequest(
      { method: call.method, baseUrl: this.baseUrl, path: call.path, query: call.query, headers, body: call.body, timeoutMs: call.timeoutMs },
      NAMES,
    );
    return { status, body: jsonOrUndefined(text), label, secrets: call.secrets };
  }
}

interface SupplierErrorBody {
  code: string | undefined;
  message: string;
  extra: Obj;
}

export function errorBody(answer: Answer): SupplierErrorBody {
  const outer = answer.body && typeof answer.body === 'object' ? (answer.body as Obj).error : undefined;
  const e = outer && typeof outer === 'object' && !Array.isArray(outer) ? (outer as Obj) : {};
  const code = typeof e.code === 'string' ? e.code : undefined;
  const raw = typeof e.message === 'string' && e.message ? e.message : `HTTP ${answer.status}`;
  return { code, message: scrub(raw, answer.secrets), extra: e };
}

/** The mapping shared by every call; codes are unique per meaning, so one table serves all routes. */
function failureOf(answer: Answer, notFoundSubject?: Record<string, string>): SupplierError {
  const { status, label } = answer;
  const { code, message, extra } = errorBody(answer);
  const said = `Sandbox supplier refused ${label}: ${message}`;
  if (status >= 500) return new SupplierError('unavailable', `Sandbox supplier failed ${label} (HTTP ${status}${code ? ` ${code}` : ''})`);
  if (status === 429) return new SupplierError('unavailable', `Sandbox supplier is rate limiting ${label}`, undefined, true);
  if (status >= 300 && status < 400) return new SupplierError('unavailable', `Sandbox supplier answered ${label} with an unexpected redirect (HTTP ${status})`);
  if (status === 401) return new SupplierError('credentialsRejected', `Sandbox supplier rejected the credentials: ${message}`);
  if (status === 404) return new SupplierError('notFound', `Sandbox supplier has no such resource for ${label}: ${message}`, notFoundSubject);
  if (status === 402) return new SupplierError('insufficientBalance', `Sandbox supplier balance is too low: ${message}`);
  switch (code) {
    case 'variantUnavailable': {
      const variantId = typeof extra.variantId === 'string' ? extra.variantId : undefined;
      return new SupplierError('variantUnavailable', message, variantId ? { variantId } : undefined);
    }
    case 'destinationUnsupported':
      return new SupplierError('destinationUnsupported', message);
    case 'orderNumberExists': {
      const orderId = typeof extra.orderId === 'string' ? extra.orderId : undefined;
      return new SupplierError('orderNumberExists', message, orderId ? { supplierOrderId: orderId } : undefined);
    }
    case 'alreadyPaid':
      return new SupplierError('alreadyPaid', message);
    case 'alreadyShipped':
      return new SupplierError('alreadyShipped', message);
    case 'orderRefused':
      // The supplier's own words are what the merchant needs to see.
      return new SupplierError('refused', message);
    default:
      // orderCancelled, invalidRequest and any other 4xx: the supplier will not do it as asked.
      return new SupplierError('refused', said);
  }
}

/** The body of a 2xx answer read by `read`; any other answer as its SupplierError. */
export function okBody<T>(answer: Answer, read: (body: unknown) => T, notFoundSubject?: Record<string, string>): T {
  if (answer.status < 200 || answer.status >= 300) throw failureOf(answer, notFoundSubject);
  try {
    return read(answer.body);
  } catch (err) {
    const what = err instanceof ShapeError ? err.message : 'unreadable body';
    throw new SupplierError('unavailable', `Sandbox supplier answered ${answer.label} with an unexpected body (${what})`);
  }
}

/**
 * One path segment for an id, encoded. An id that cannot name one record (empty, `.`, `..`, not well-formed text)
 * is a record the supplier does not have: asking would reach some other resource and read as a broken supplier.
 */
export function segment(id: string, subject: Record<string, string>): string {
  let encoded: string | undefined;
  try {
    encoded = id === '' || id === '.' || id === '..' ? undefined : encodeURIComponent(id);
  } catch {
    encoded = undefined; // URIError: an unpaired surrogate
  }
  if (encoded === undefined) throw new SupplierError('notFound', 'Sandbox supplier has no record with such an id', subject);
  return encoded;
}
