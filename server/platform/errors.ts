/** Every error a client can see: a status, a stable camelCase code, a sentence, and optional details. */
export interface ErrorDetail {
  field?: string;
  message: string;
  [extra: string]: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly extra?: Record<string, unknown>,
    /** Response headers the refusal carries (Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toBody(): { error: Record<string, unknown> } {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
        ...(this.extra ?? {}),
      },
    };
  }
}

export const errors = {
  validationFailed: (details: ErrorDetail[]) => new ApiError(400, 'validationFailed', 'The request is not valid.', details),
  badRequest: (code: string, message: string, details?: ErrorDetail[]) => new ApiError(400, code, message, details),
  invalidCursor: () => new ApiError(400, 'invalidCursor', 'The cursor is not valid for this list and these filters.'),
  malformedJson: () => new ApiError(400, 'malformedJson', 'The request body is not valid JSON.'),
  unauthenticated: () => new ApiError(401, 'unauthenticated', 'A valid API key or session is required.'),
  operatorUnauthenticated: () => new ApiError(401, 'unauthenticated', 'A valid operator token is required in X-Operator-Token.'),
  invalidSignIn: () => new ApiError(401, 'invalidCredentials', 'The e-mail address or password is not correct.'),
  insufficientCredits: (needed: number, available: number) =>
    new ApiError(402, 'insufficientCredits', `This action costs ${needed} credits; the account has ${available}.`, [
      { message: 'Not enough credits', needed, available },
    ]),
  permissionDenied: (permission: string) =>
    new ApiError(403, 'permissionDenied', `This action needs the store permission ${permission}.`, [{ message: 'Missing store permission', permission }]),
  planRequired: (plan: string) =>
    new ApiError(403, 'planRequired', `The store owner's plan does not include dropshipping; the ${plan} plan or higher is required.`, [
      { message: 'Plan required', plan },
    ]),
  keysCannotManageKeys: () => new ApiError(403, 'keysCannotManageKeys', 'API keys cannot manage API keys; sign in as a user.'),
  developerRequired: () => new ApiError(403, 'developerAccountRequired', 'API keys are a feature of Developer accounts; upgrade the account first (free).'),
  forbidden: (code: string, message: string) => new ApiError(403, code, message),
  notFound: (what = 'The resource') => new ApiError(404, 'notFound', `${what} was not found.`),
  methodNotAllowed: () => new ApiError(405, 'methodNotAllowed', 'This method is not allowed on this path.'),
  conflict: (code: string, message: string) => new ApiError(409, code, message),
  invalidState: (message: string) => new ApiError(409, 'invalidState', message),
  rateLimited: (limit: number, windowSeconds: number, retryAfterSeconds: number) =>
    new ApiError(
      429,
      'rateLimited',
      `This store may do this ${limit} times in ${windowSeconds} seconds; try again in ${retryAfterSeconds} s.`,
      [{ message: 'Rate limit reached', limit, windowSeconds, retryAfterSeconds }],
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  payloadTooLarge: () => new ApiError(413, 'payloadTooLarge', 'The request body is too large.'),
  unsupportedMediaType: () => new ApiError(415, 'unsupportedMediaType', 'Request bodies must be JSON (Content-Type: application/json).'),
  unavailable: (message = 'The service cannot answer right now.') => new ApiError(503, 'serviceUnavailable', message),
};

/** Socket errors of a database that cannot be reached (refused, reset, unreachable, not resolvable now). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs that say the server cannot serve now, not that the statement was wrong: class 08 (connection exception),
 * 57P01-57P03 (shut down by an administrator, crash shutdown, cannot connect now), 53300 (too many connections),
 * 57014 (cancelled: our statement time-out), 25006 (a read-only transaction: a primary demoted under the connection,
 * mid-failover).
 */
const UNAVAILABLE_STATES = /^(08[0-9A-Z]{3}|57P0[123]|53300|57014|25006)$/;
/** What node-postgres and pg-pool say when the connection went away or could not be had in time. */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|timeout expired|Client has encountered a connection error|Client was closed and is not queryable)/;

/** Whether `err` (or what it wraps: TypeORM's driverError, a cause, an AggregateError's errors) says the database is out of reach. */
export function databaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (UNREACHABLE.has(e.code) || UNAVAILABLE_STATES.test(e.code))) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  const inner = [e.driverError, e.cause, ...(Array.isArray(e.errors) ? e.errors : [])];
  return inner.some((x) => x !== err && databaseUnavailable(x, depth + 1));
}

/** The answer while the database is out of reach: a 503 clients retry (after Retry-After) on calls safe to repeat. */
export const databaseUnavailableError = () => errors.unavailable('The database cannot be reached right now; try again shortly.');

/** Seconds a 503's Retry-After asks for: until an open circuit closes, else a few seconds. */
export function retryAfterSeconds(err: ApiError, now = Date.now()): number {
  const until = typeof err.extra?.circuitOpenUntil === 'string' ? Date.parse(err.extra.circuitOpenUntil) : NaN;
  if (Number.isFinite(until)) return Math.min(3600, Math.max(1, Math.ceil((until - now) / 1000)));
  return 5;
}
