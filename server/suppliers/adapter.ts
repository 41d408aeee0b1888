/**
 * The contract every supplier implements. The rest of the service knows suppliers only through
 * this interface and the registry; adapters know nothing of stores, keys or the database.
 */

/** A JSON Schema document, as the service's validator takes it. */
export type JsonSchema = Record<string, unknown>;

export type AuthKind = 'apiKey' | 'signIn';
export type ConnectionMode = 'test' | 'live';
export type SyncField = 'cost' | 'price' | 'stock' | 'title' | 'availability';

/** What the catalogue (GET /:storeId/catalogue) shows each supplier can do. */
export interface SupplierCapabilities {
  /** Follows from the adapter: `signIn` when it implements the sign-in methods (see `supportsSignIn`). */
  authKind: AuthKind;
  /** The supplier has a test environment of its own, so `test` connections can really place orders. */
  hasSandbox: boolean;
  balance: boolean;
  /** Shown to the merchant; the adapter's `cancelOrder` answers `refused` for what the supplier will not cancel. */
  cancel: boolean;
  /** Follows from the adapter: true when it implements `registerNotificationAddress` (see `sendsNotifications`). */
  notifications: boolean;
  /**
   * How supplier orders are paid: from a balance held at the supplier (`payOrder`), only when the order is created (the
   * connection's automatic payment; `payOrder` refuses), or not through the API at all. Shown only.
   */
  payment: 'balance' | 'atCreate' | 'external';
  syncFields: SyncField[];
}

/** What an adapter states about itself; sign-in and notifications it states by implementing their methods. */
export interface SupplierDescription {
  key: string;
  name: string;
  description: string;
  capabilities: Omit<SupplierCapabilities, 'authKind' | 'notifications'>;
  /** JSON Schema of the supplier's own settings (validated by PUT /:storeId/:id/settings). */
  settingsSchema: JsonSchema;
  defaultSettings: Record<string, unknown>;
  /** JSON Schema of the credentials taken by connect and replace (API-key suppliers). */
  credentialsSchema: JsonSchema;
}

export interface CatalogueEntry extends Omit<SupplierDescription, 'capabilities'> {
  capabilities: SupplierCapabilities;
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

export interface Money {
  amountMinor: number;
  currency: string;
}

export interface SupplierVariant {
  id: string;
  sku: string;
  title: string;
  options: Record<string, string>;
  cost: Money;
  stock: number;
  available: boolean;
}

export interface SupplierProduct {
  id: string;
  title: string;
  description: string;
  url: string;
  imageUrl: string | null;
  shipsTo: string[];
  variants: SupplierVariant[];
  updatedAt: string | null;
}

export interface ProductSearchPage {
  items: SupplierProduct[];
  /** Opaque to the service; given back to get the next page. */
  nextCursor: string | null;
  total: number | null;
}

/** Where a supplier order ships; empty optional fields are left out. */
export interface Destination {
  /** The recipient. */
  name: string;
  line1: string;
  line2?: string;
  city: string;
  /** State or province. */
  region?: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  phone?: string;
  email?: string;
}

/** One supplier order to place (not the store's order, orders/service's CreateOrderInput). */
export interface SupplierOrderInput {
  /** The service's own number for this attempt, sent as the supplier's order number. */
  orderNumber: string;
  items: Array<{ variantId: string; quantity: number }>;
  destination: Destination;
  /**
   * The service will pay this order (pay now, or automatic payment as the order is sent). Suppliers paid only when an
   * order is created are asked to pay then; the others are paid by `payOrder` and ignore it. Absent: not paid at create.
   */
  paymentDue?: boolean;
}

/** The supplier's view of an order, in the service's terms plus the supplier's own status spelling. */
export interface SupplierOrderSnapshot {
  /** Several supplier orders made by one create (one per seller) are one id here, as the adapter spells it; `getOrder` takes it back. */
  supplierOrderId: string;
  orderNumber: string;
  supplierStatus: string;
  status: 'created' | 'paid' | 'processing' | 'shipped' | 'delivered' | 'cancelled';
  paid: boolean;
  costs: { itemsMinor: number; shippingMinor: number; totalMinor: number; currency: string } | null;
  shipping: { carrier: string; trackingNumber: string; shippedAt: string | null } | null;
}

/** What a verified notification asks the service to read back; it never carries state to apply. */
export type NotificationSubject = { kind: 'order'; supplierOrderId: string; orderNumber?: string } | { kind: 'product'; supplierProductId: string };

export interface VerifiedNotification {
  /** The supplier's id for the event, when it sends one; a second receipt of it is a replay. */
  eventId: string | null;
  subjects: NotificationSubject[];
}

/** What verifying credentials tells the service about the account they act on. */
export interface VerifiedAccount {
  accountLabel: string;
  /**
   * The supplier's own identity of that account (and of its environment, where notification addresses are
   * kept per environment), the same from every adapter that reaches that supplier. Connections that answer
   * the same one share the supplier's one notification address. Never a secret itself (answer a digest of
   * one); the service keeps only a keyed digest anyway. Absent when the supplier gives no way to tell.
   */
  accountId?: string;
}

export interface HealthResult {
  ok: boolean;
  latencyMs: number;
  message: string;
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
  findOrderByNumber(ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null>;
  /** After any outage error (timeout or unavailable) the order may exist: look it up by number before trying again. */
  createOrder(ctx: SupplierCallContext, input: SupplierOrderInput): Promise<SupplierOrderSnapshot>;
  getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
  payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
  cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
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

/** The catalogue entry of an adapter: its description, with the capabilities its methods show. */
export function catalogueEntry(description: SupplierDescription, adapter: Pick<SupplierAdapter, 'signInUrl' | 'exchangeSignInCode' | 'registerNotificationAddress'>): CatalogueEntry {
  const { hasSandbox, balance, cancel, payment, syncFields } = description.capabilities;
  const signIn = typeof adapter.signInUrl === 'function' && typeof adapter.exchangeSignInCode === 'function';
  return {
    ...description,
    // In the order the catalogue has always shown them.
    capabilities: { authKind: signIn ? 'signIn' : 'apiKey', hasSandbox, balance, cancel, notifications: typeof adapter.registerNotificationAddress === 'function', payment, syncFields },
  };
}
