import type * as Api from './generated/api.js';

export type { Api };

/** A supplier order as the service answers it (the same shape on every supplier order route). */
export type SupplierOrder = Api.GetSupplierOrder['result'];
export type SupplierOrderStatus = SupplierOrder['status'];
export type ReviewReason = NonNullable<SupplierOrder['reviewReason']>;
export type SupplierOrderPage = Api.ListSupplierOrders['result'];
export type SupplierOrderFilters = Omit<Api.ListSupplierOrders['query'], 'cursor'>;
export type Pagination = SupplierOrderPage['pagination'];

export type SupplierConnection = Api.ConnectSupplier['result'];
export type ProductLink = Api.CreateProductLink['result'];
export type ImportJob = Api.GetImportJob['result'];
export type StoreOrder = Api.GetStoreOrder['result'];
export type CurrentApiKey = Api.GetCurrentApiKey['result'];

/** A backup supplier variant of a link's store variant, with its cost and stock as last read (`variants[].alternates`). */
export type LinkAlternate = ProductLink['variants'][number]['alternates'][number];
/** An alternate as link create and update take it; its place in the list is the order it is tried in. */
export type AlternateInput = NonNullable<Api.UpdateProductLink['body']['alternates']>[number];
/** The connection's reroute rule (`automation.reroute`): which pauses go to the alternates, and how much dearer one may be. */
export type RerouteRule = SupplierConnection['automation']['reroute'];
export type RerouteReason = RerouteRule['reasons'][number];
/** A claim with the supplier, and its outcome once it has one (refunded, reshipped, rejected, cancelled, stopped). */
export type Claim = Api.GetSupplierClaim['result'];
export type ClaimOutcome = NonNullable<Claim['outcome']>;
export type PartReturn = Api.GetSupplierOrderReturn['result'];
/** Why a sent order's delivery needs a look (its status stays): no tracking, no movement, overdue, or the supplier's exception. */
export type DeliveryAttention = NonNullable<SupplierOrder['deliveryAttention']>;
/** The event types a subscription may name (`*`: all). */
export type EventType = Api.CreateEventSubscription['body']['eventTypes'][number];

/** What a `rerouted` history entry of a supplier order says (the first order's; `supplierOrder.rerouted` carries it). */
export interface Rerouted {
  from: { supplierOrderId: string; connectionId: string; supplierKey: string };
  to: { supplierOrderId: string; connectionId: string; supplierKey: string; groupKey: string };
  reason: ReviewReason;
  /** `rule`: the connection's reroute rule; `manual`: a caller's reroute. */
  by: 'rule' | 'manual';
  /** The alternate's cost less the primary's, in minor units of `currency`. */
  costDifferenceMinor: number;
  currency: string;
  /** Alternates tried before the one that took the items, and why each could not. */
  tried?: Array<{ connectionId: string; position: number; supplierKey: string; why: string }>;
}

/** Options every call takes. */
export interface RequestOptions {
  /** Aborts the call (and any retry wait); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time-out of one attempt in milliseconds; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
  /** Retries of a call that is safe to repeat; overrides the client's `maxRetries`. */
  maxRetries?: number;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * The `Idempotency-Key` of a create or money action. The client makes one per call (a UUID) and sends the same one on
   * each of its retries; give your own to keep it across your own retries (a job run again, a restart).
   */
  idempotencyKey?: string;
}

/** Options of submit, retry, reroute, pay and cancel. */
export interface DispatchOptions extends RequestOptions {
  /**
   * Sends `Prefer: respond-async`: the service answers 202 with the queued supplier order at once,
   * instead of waiting for the dispatch job. A 202 is returned, never thrown; read the order again to follow it.
   */
  respondAsync?: boolean;
}
