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
  | 'notSupported'
  /** The supplier account behind the connection may not order at all (disabled, blacklisted): a person must act. */
  | 'accountUnusable';

export class SupplierError extends Error {
  constructor(
    readonly kind: SupplierErrorKind,
    message: string,
    /** Supplier ids the error names (variant, product, order), never secrets. */
    readonly subject?: Record<string, string>,
    /** The supplier (or our own limit for it) asked us to slow down: unavailable for now, but not a fault of the supplier. */
    readonly throttled = false,
  ) {
    super(message);
  }

  /** Errors that say the supplier could not be reached or did not answer; they count towards the circuit breaker. */
  get isOutage(): boolean {
    return this.kind === 'timeout' || this.kind === 'unavailable';
  }

  /**
   * What the circuit breaker counts: the supplier failed a well-formed request (no answer, a time-out, 5xx, an answer
   * it could not have meant). Rate limits follow from our own volume, and refusals from the caller's input.
   */
  get isSupplierFault(): boolean {
    return this.isOutage && !this.throttled;
  }
}
