/**
 * The contract every supplier implements. The rest of the service knows suppliers only through
 * this interface and the registry; adapters know nothing of stores, keys or the database. The values its calls
 * carry are in shapes.ts, what an adapter states about itself in description.ts; both are answered from here too.
 */

import type { CatalogueEntry } from './description';
import type {
  ClaimInput,
  ClaimLine,
  ClaimTerms,
  HealthResult,
  Money,
  ProductSearchPage,
  SupplierClaimSnapshot,
  SupplierOrderInput,
  SupplierOrderSnapshot,
  SupplierProduct,
  VerifiedAccount,
  VerifiedNotification,
} from './shapes';

export type { AuthKind, CatalogueEntry, JsonSchema, SupplierCapabilities, SupplierDescription, SyncField } from './description';
export { catalogueEntry } from './description';
export type {
  ClaimDecision,
  ClaimInput,
  ClaimLine,
  ClaimTerms,
  DeliveryException,
  Destination,
  HealthResult,
  Money,
  NotificationSubject,
  ProductSearchPage,
  SupplierClaimSnapshot,
  SupplierOrderInput,
  SupplierOrderSnapshot,
  SupplierProduct,
  SupplierVariant,
  TrackingEvent,
  TrackingView,
  VerifiedAccount,
  VerifiedNotification,
} from './shapes';

export type ConnectionMode = 'test' | 'live';

/** A supplier's shipping quote for an order: the service chosen and what it costs. */
export interface ShippingQuote {
  service: string;
  cost: Money;
  /** The longest delivery the supplier quotes for the service, in days; null or absent when it gives none. */
  maxDays?: number | null;
  /** For suppliers that ship each item by a service of its own: the service of each item, in the input's order. */
  services?: string[];
}

/** Which of the supplier's shipping services an order takes: the cheapest, the fastest, or one named by the store. */
export type ShippingMethodRule = { rule: 'cheapest' } | { rule: 'fastest' } | { rule: 'named'; service: string };

/** What the connection's automation says about placing orders, for adapters whose supplier decides it per order. */
export interface OrderingRules {
  shippingMethod: ShippingMethodRule;
}

/**
 * Where the service keeps the supplier's order ids under our order numbers, for suppliers that cannot look an order up
 * by our number. Kept per connection, in the database; `remember` after every create the supplier answered.
 */
export interface OrderNumberMemory {
  remember(orderNumber: string, supplierOrderId: string): Promise<void>;
  recall(orderNumber: string): Promise<string | null>;
}

/** What an adapter gets for each call: never a database row, only what it needs. */
export interface SupplierCallContext {
  connectionId: string;
  mode: ConnectionMode;
  credentials: Record<string, string>;
  settings: Record<string, unknown>;
  /** Abort after this long; adapters turn it into a `timeout` error. */
  timeoutMs: number;
  /**
   * Keeps credential fields an adapter obtained during a call (such as a refreshed access token): called with
   * only the changed fields, which are stored encrypted with the connection (or with the credentials being
   * verified), and merged into `credentials` afterwards. Absent when nothing can be kept; adapters then work without.
   */
  onCredentialsChanged?: (changed: Record<string, string>) => Promise<void>;
  /**
   * Waits for the connection's next call slot (the rate from `limits.callSpacingMs`, shared by every process of the
   * service). Adapters call it before every request they send; absent when the supplier declares no rate.
   */
  pace?: () => Promise<void>;
  /** From the connection's automation; absent outside a stored connection (adapters then take the cheapest service, no payment). */
  ordering?: OrderingRules;
  /** Absent where nothing can be kept; adapters that need it then find nothing by number. */
  orderNumbers?: OrderNumberMemory;
}

/** How hard a supplier may be called, from its documented limits; the service enforces them across every process. */
export interface CallLimits {
  /** Dispatch jobs of one connection running at once. */
  callsInFlight: number;
  /** The least time between the starts of two calls of one supplier account, from its settings; null for no limit. */
  callSpacingMs(settings: Record<string, unknown>): number | null;
  /**
   * What the supplier counts calls by, from the credentials (an account): every connection and call on the same
   * account shares one rate. Absent or null: each connection has its own.
   */
  rateKey?(credentials: Record<string, string>): string | null;
}

export interface SupplierAdapter {
  readonly entry: CatalogueEntry;
  readonly limits: CallLimits;

  /** Checks the credentials with the supplier; throws `credentialsRejected` when it refuses them. */
  verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount>;
  /** Sign-in suppliers implement both sign-in methods; having them is what makes a supplier sign-in. */
  /** The address to send the merchant to. */
  signInUrl?(input: { state: string; redirectUri: string; mode: ConnectionMode }): string;
  /** Trades the code for credentials. */
  exchangeSignInCode?(input: { code: string; redirectUri: string; timeoutMs: number }): Promise<Record<string, string>>;
  /**
   * Sign-in suppliers whose tokens expire implement both renewal methods: when the stored credentials are due for
   * renewal (null: never), and the renewal, answering the changed fields. A scheduled job of the service calls them;
   * a renewal the supplier refuses (`credentialsRejected`) means the merchant must sign in again.
   */
  credentialsRenewAt?(credentials: Record<string, string>): Date | null;
  renewCredentials?(ctx: SupplierCallContext): Promise<Record<string, string>>;
  healthCheck(ctx: SupplierCallContext): Promise<HealthResult>;
  getBalance(ctx: SupplierCallContext): Promise<Money>;
  searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage>;
  getProduct(ctx: SupplierCallContext, supplierProductId: string): Promise<SupplierProduct>;
  /** Pure: answers the product id for a URL this supplier recognises, or null. Never fetches anything. */
  resolveProductUrl(url: URL): string | null;
  /**
   * Suppliers that send notifications implement it (having it is the `notifications` capability): registers the
   * notification address; answers credential fields to keep (such as a signing secret).
   */
  registerNotificationAddress?(ctx: SupplierCallContext, url: string): Promise<Record<string, string>>;
  /**
   * The service the connection's shipping rule picks for these items and destination, and its cost, as the supplier
   * quotes it before an order (a part's landed cost at confirmation, and what routing ranks). Every supplier quotes:
   * a candidate whose shipping cannot be quoted is never counted as shipping for free. `destinationUnsupported` when
   * it delivers none there. The create then takes the quoted service (`SupplierOrderInput.shipping`).
   */
  quoteShipping(ctx: SupplierCallContext, input: Pick<SupplierOrderInput, 'items' | 'destination'>): Promise<ShippingQuote>;
  findOrderByNumber(ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null>;
  /**
   * `memory`: the supplier cannot be asked for an order by our number, so findOrderByNumber answers only from the
   * service's own memory (`orderNumbers`), which goes back in time with the database. Absent: the supplier is asked.
   */
  readonly ordersFoundBy?: 'memory';
  /** After any outage error (timeout or unavailable) the order may exist: look it up by number before trying again. */
  createOrder(ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot>;
  getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
  payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
  cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
  /**
   * Suppliers with a claims API implement the first four (having them is the `claims.via: api` capability): what the
   * supplier allows for some lines (asked before sending), a claim opened under the service's own key, found again by
   * that key (after a crash between sending and recording), and read until decided. `cancelClaim` where it allows
   * withdrawing one. The others take claims from a person (their description says where, and the deadline).
   */
  claimTerms?(ctx: SupplierCallContext, supplierOrderId: string, lines: ClaimLine[]): Promise<ClaimTerms>;
  openClaim?(ctx: SupplierCallContext, input: ClaimInput): Promise<SupplierClaimSnapshot>;
  findClaim?(ctx: SupplierCallContext, supplierOrderId: string, claimKey: string): Promise<SupplierClaimSnapshot | null>;
  getClaim?(ctx: SupplierCallContext, supplierOrderId: string, supplierClaimId: string): Promise<SupplierClaimSnapshot>;
  cancelClaim?(ctx: SupplierCallContext, supplierOrderId: string, supplierClaimId: string): Promise<SupplierClaimSnapshot>;
  /**
   * Verifies a notification on its raw bytes, in constant time, with a timestamp tolerance.
   * Answers what to read back, or null for any refusal (the caller answers every refusal alike).
   */
  verifyNotification(ctx: SupplierCallContext, input: { rawBody: string; headers: Record<string, string | undefined>; now: Date }): VerifiedNotification | null;
}

/** A supplier connected by signing in rather than by pasting credentials. */
export type SignInAdapter = SupplierAdapter & Required<Pick<SupplierAdapter, 'signInUrl' | 'exchangeSignInCode'>>;

export function supportsSignIn(adapter: SupplierAdapter): adapter is SignInAdapter {
  return typeof adapter.signInUrl === 'function' && typeof adapter.exchangeSignInCode === 'function';
}

/** A supplier whose credentials the service renews on schedule. */
export type RenewingAdapter = SupplierAdapter & Required<Pick<SupplierAdapter, 'credentialsRenewAt' | 'renewCredentials'>>;

export function renewsCredentials(adapter: SupplierAdapter): adapter is RenewingAdapter {
  return typeof adapter.credentialsRenewAt === 'function' && typeof adapter.renewCredentials === 'function';
}

/** A supplier that notifies the service of changes at an address it registers. */
export type NotifyingAdapter = SupplierAdapter & Required<Pick<SupplierAdapter, 'registerNotificationAddress'>>;

export function sendsNotifications(adapter: SupplierAdapter): adapter is NotifyingAdapter {
  return typeof adapter.registerNotificationAddress === 'function';
}

/** A supplier that takes claims through its API. */
export type ClaimsAdapter = SupplierAdapter & Required<Pick<SupplierAdapter, 'claimTerms' | 'openClaim' | 'findClaim' | 'getClaim'>>;

export function takesClaims(adapter: SupplierAdapter): adapter is ClaimsAdapter {
  return ['claimTerms', 'openClaim', 'findClaim', 'getClaim'].every((m) => typeof (adapter as unknown as Record<string, unknown>)[m] === 'function');
}
