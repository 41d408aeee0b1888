export { StoreClient, type StoreClientOptions } from './client.js';
export {
  ApiError,
  ConnectionError,
  InsufficientCreditsError,
  InvalidStateError,
  NotFoundError,
  PermissionDeniedError,
  PlanRequiredError,
  RateLimitedError,
  ServiceUnavailableError,
  StoreSuppliersError,
  SupplierOrderPausedError,
  TimeoutError,
  UnauthenticatedError,
  ValidationFailedError,
  type ApiErrorCode,
  type ErrorDetail,
} from './errors.js';
export {
  addMoney,
  compareMoney,
  currencyExponent,
  currencyExponents,
  CurrencyMismatchError,
  formatMinor,
  formatMoney,
  isCurrency,
  MoneyFormatError,
  parseMinor,
  parseMoney,
  subtractMoney,
  sumMoney,
  UnknownCurrencyError,
  type Money,
} from './money.js';
export { isImportJob, type ImportResult } from './suppliers/imports.js';
export type { Claims, Returns, Connections, EventSubscriptions, Imports, Links, Products, Reports, SupplierOrders, Suppliers } from './suppliers/index.js';
export type { ApiKeys, PaymentAttentionReason, StoreOrderPage, StoreOrders } from './store.js';
export { VERSION } from './transport.js';
export { webhooks, WebhookVerificationError, type VerifyOptions, type WebhookEvent, type WebhookHeaders, type WebhookVerificationFailure } from './webhooks.js';
export type * from './types.js';
