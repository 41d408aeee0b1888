/** Typed supplier failures; dispatch maps them to review reasons, routes to HTTP answers. */
export type SupplierErrorKind =
  | 'credentialsRejected'
  | 'refused'
  | 'insufficientBalance'
  | 'variantUnavailable'
  | 'destinationUnsupported'
  | 'timeout'
  | 'unavailable'
  | 'notFound'
  | 'alreadyPaid'
  | 'alreadyShipped'
  | 'orderNumberExists'
  | 'notSupported';

export class SupplierError extends Error {
  constructor(
    readonly kind: SupplierErrorKind,
    message: string,
    /** Supplier ids the error names (variant, product, order), never secrets. */
    readonly subject?: Record<string, string>,
  ) {
    super(message);
  }

  /** Errors that say the supplier could not be reached or did not answer; they count towards the circuit breaker. */
  get isOutage(): boolean {
    return this.kind === 'timeout' || this.kind === 'unavailable';
  }
}
