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
}

/** Options of submit, retry, pay and cancel. */
export interface DispatchOptions extends RequestOptions {
  /**
   * Sends `Prefer: respond-async`: the service answers 202 with the queued supplier order at once,
   * instead of waiting for the dispatch job. A 202 is returned, never thrown; read the order again to follow it.
   */
  respondAsync?: boolean;
}
