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
    new ApiError(403, 'permissionDenied', `This action needs the store permission ${permission}.`, [
      { message: 'Missing store permission', permission },
    ]),
  planRequired: (plan: string) =>
    new ApiError(403, 'planRequired', `The store owner's plan does not include dropshipping; the ${plan} plan or higher is required.`, [
      { message: 'Plan required', plan },
    ]),
  keysCannotManageKeys: () => new ApiError(403, 'keysCannotManageKeys', 'API keys cannot manage API keys; sign in as a user.'),
  developerRequired: () =>
    new ApiError(403, 'developerAccountRequired', 'API keys are a feature of Developer accounts; upgrade the account first (free).'),
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
