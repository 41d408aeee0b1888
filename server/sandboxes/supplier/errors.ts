/** Thrown by handlers and turned into `{ error: { code, message, ...extra } }` by the app. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function invalidRequest(message: string): ApiError {
  return new ApiError(400, 'invalidRequest', message);
}
