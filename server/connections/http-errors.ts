import { ApiError } from '../platform/errors';
import { SupplierError } from '../suppliers/errors';
import { CircuitOpenError, SignInLapsedError } from './gateway';

/** How a supplier failure reads to an API caller of a connection or catalogue route. */
function supplierFailure(err: unknown): unknown {
  if (!(err instanceof SupplierError)) return err;
  if (err instanceof SignInLapsedError) return new ApiError(409, 'signInExpired', err.message);
  if (err instanceof CircuitOpenError) {
    return new ApiError(503, 'circuitOpen', 'The connection is paused after repeated supplier errors; try again later.', undefined, {
      circuitOpenUntil: err.until ? err.until.toISOString() : null,
    });
  }
  switch (err.kind) {
    case 'timeout':
    case 'unavailable':
      // The supplier's own request (method, path) is no part of the merchant's answer.
      return new ApiError(503, 'supplierUnavailable', 'The supplier did not answer in time; try again in a few minutes.');
    case 'credentialsRejected':
      return new ApiError(400, 'credentialsRejected', `The supplier refused the credentials: ${err.message}`);
    case 'notFound':
      return new ApiError(
        404,
        'notFound',
        err.subject?.productId ? `The supplier has no product ${err.subject.productId}.` : 'The supplier has no such record.',
      );
    case 'notSupported':
      return new ApiError(400, 'notSupported', err.message);
    default:
      return new ApiError(422, 'supplierRefused', err.message, undefined, err.subject ? { subject: err.subject } : undefined);
  }
}

export async function orSupplierFailure<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw supplierFailure(err);
  }
}
