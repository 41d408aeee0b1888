import type { SupplierOrder } from './types.js';

/** The stable error codes the service documents; other codes may appear and are kept as strings. */
export type ApiErrorCode =
  | 'validationFailed'
  | 'malformedJson'
  | 'invalidCursor'
  | 'unauthenticated'
  | 'insufficientCredits'
  | 'permissionDenied'
  | 'planRequired'
  | 'keysCannotManageKeys'
  | 'developerAccountRequired'
  | 'notFound'
  | 'methodNotAllowed'
  | 'invalidState'
  | 'invalidTransition'
  | 'alreadyConnected'
  | 'alreadyLinked'
  | 'alreadyPaid'
  | 'alreadyShipped'
  | 'concurrentChange'
  | 'payloadTooLarge'
  | 'unsupportedMediaType'
  | 'credentialsRejected'
  | 'notSupported'
  | 'supplierRefused'
  | 'supplierUnavailable'
  | 'circuitOpen'
  | 'serviceUnavailable'
  | 'rateLimited'
  | 'unexpectedResponse'
  | 'alternateInvalid'
  | 'rerouteNotProven'
  | 'rerouteInProgress'
  | (string & {});

export interface ErrorDetail {
  field?: string;
  message: string;
  [extra: string]: unknown;
}

/** Base of every error this client throws (the caller's own abort reason is rethrown as it is). */
export class StoreSuppliersError extends Error {
  override name = 'StoreSuppliersError';
}

/** A refusal answered by the service: a status, a stable code, a sentence, details and the request id. */
export class ApiError extends StoreSuppliersError {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId: string | undefined = undefined,
    /** Any other fields of the error body, such as `circuitOpenUntil`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class ValidationFailedError extends ApiError {
  override name = 'ValidationFailedError';
}
export class UnauthenticatedError extends ApiError {
  override name = 'UnauthenticatedError';
}
export class InsufficientCreditsError extends ApiError {
  override name = 'InsufficientCreditsError';
}
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
export class PlanRequiredError extends ApiError {
  override name = 'PlanRequiredError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
export class InvalidStateError extends ApiError {
  override name = 'InvalidStateError';
}
export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError';
}
export class ServiceUnavailableError extends ApiError {
  override name = 'ServiceUnavailableError';
}

type ApiErrorClass = new (...args: ConstructorParameters<typeof ApiError>) => ApiError;

const BY_CODE: Record<string, ApiErrorClass> = {
  validationFailed: ValidationFailedError,
  unauthenticated: UnauthenticatedError,
  insufficientCredits: InsufficientCreditsError,
  permissionDenied: PermissionDeniedError,
  planRequired: PlanRequiredError,
  notFound: NotFoundError,
  invalidState: InvalidStateError,
  invalidTransition: InvalidStateError,
};

/** The most specific class for an answer: by code first, then by status. */
export function apiErrorFor(
  status: number,
  code: string,
  message: string,
  details: ErrorDetail[],
  requestId: string | undefined,
  extra: Record<string, unknown>,
): ApiError {
  const Cls =
    BY_CODE[code] ?? (status === 429 ? RateLimitedError : status === 503 ? ServiceUnavailableError : status === 401 ? UnauthenticatedError : ApiError);
  return new Cls(status, code, message, details, requestId, extra);
}

/** The service could not be reached, or the connection broke before an answer came. */
export class ConnectionError extends StoreSuppliersError {
  override name = 'ConnectionError';
}

/** No answer within the time-out. */
export class TimeoutError extends StoreSuppliersError {
  override name = 'TimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms.`);
  }
}

/**
 * Submit, retry, reroute or pay answered a supplier order paused for review (status `needsReview`). The call
 * itself succeeded; nothing more happens until a person or a changed input clears the cause.
 */
export class SupplierOrderPausedError extends StoreSuppliersError {
  override name = 'SupplierOrderPausedError';
  readonly reviewReason: NonNullable<SupplierOrder['reviewReason']>;
  readonly reviewMessage: string | null;
  /** Whether trying again with nothing changed may succeed (set by the service). */
  readonly retryable: boolean;
  constructor(readonly supplierOrder: SupplierOrder) {
    const reason = supplierOrder.reviewReason ?? 'supplierRefused';
    super(`Supplier order ${supplierOrder._id} is paused for review: ${reason}${supplierOrder.reviewMessage ? `: ${supplierOrder.reviewMessage}` : ''}`);
    this.reviewReason = reason;
    this.reviewMessage = supplierOrder.reviewMessage;
    this.retryable = supplierOrder.retryable === true;
  }
}
