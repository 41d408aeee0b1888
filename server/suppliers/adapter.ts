/**
 * The contract every supplier implements. The rest of the service knows suppliers only through
 * this interface and the registry; adapters know nothing of stores, keys or the database.
 */
import type { JsonSchema } from '../platform/http/route';

export type AuthKind = 'apiKey' | 'signIn';
export type ConnectionMode = 'test' | 'live';
export type SyncField = 'cost' | 'price' | 'stock' | 'title' | 'availability';

export interface SupplierCapabilities {
  authKind: AuthKind;
  /** The supplier has a test environment of its own, so `test` connections can really place orders. */
  hasSandbox: boolean;
  balance: boolean;
  cancel: boolean;
  notifications: boolean;
  /** How supplier orders are paid: from a balance held at the supplier, or not through the API at all. */
  payment: 'balance' | 'external';
  syncFields: SyncField[];
}

export interface CatalogueEntry {
  key: string;
  name: string;
  description: string;
  capabilities: SupplierCapabilities;
  /** JSON Schema of the supplier's own settings (validated by PUT /:storeId/:id/settings). */
  settingsSchema: JsonSchema;
  defaultSettings: Record<string, unknown>;
  /** JSON Schema of the credentials taken by connect and replace (API-key suppliers). */
  credentialsSchema: JsonSchema;
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

export interface Destination {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postalCode: string;
  country: string;
  phone?: string;
  email?: string;
}

export interface CreateOrderInput {
  /** The service's own number for this attempt, sent as the supplier's order number. */
  orderNumber: string;
  items: Array<{ variantId: string; quantity: number }>;
  destination: Destination;
}

/** The supplier's view of an order, in the service's terms plus the supplier's own status spelling. */
export interface SupplierOrderSnapshot {
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
   * the same one share the supplier's one notification address. May be secret: the service keeps only a
   * keyed digest of it. Absent when the supplier gives no way to tell.
   */
  accountId?: string;
}

export interface HealthResult {
  ok: boolean;
  latencyMs: number;
  message: string;
}

export interface SupplierAdapter {
  readonly entry: CatalogueEntry;

  /** Checks the credentials with the supplier; throws `credentialsRejected` when it refuses them. */
  verifyCredentials(ctx: SupplierCallContext): Promise<VerifiedAccount>;
  /** Sign-in suppliers: the address to send the merchant to. */
  signInUrl?(input: { state: string; redirectUri: string; mode: ConnectionMode }): string;
  /** Sign-in suppliers: trades the code for credentials. */
  exchangeSignInCode?(input: { code: string; redirectUri: string; timeoutMs: number }): Promise<Record<string, string>>;
  healthCheck(ctx: SupplierCallContext): Promise<HealthResult>;
  getBalance(ctx: SupplierCallContext): Promise<Money>;
  searchProducts(ctx: SupplierCallContext, q: { query?: string; cursor?: string; pageSize: number }): Promise<ProductSearchPage>;
  getProduct(ctx: SupplierCallContext, supplierProductId: string): Promise<SupplierProduct>;
  /** Pure: answers the product id for a URL this supplier recognises, or null. Never fetches anything. */
  resolveProductUrl(url: URL): string | null;
  /** Registers the notification address; answers credential fields to keep (such as a signing secret). */
  registerNotificationAddress?(ctx: SupplierCallContext, url: string): Promise<Record<string, string>>;
  findOrderByNumber(ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null>;
  /** After any outage error (timeout or unavailable) the order may exist: look it up by number before trying again. */
  createOrder(ctx: SupplierCallContext, input: CreateOrderInput): Promise<SupplierOrderSnapshot>;
  getOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
  payOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
  cancelOrder(ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot>;
  /**
   * Verifies a notification on its raw bytes, in constant time, with a timestamp tolerance.
   * Answers what to read back, or null for any refusal (the caller answers every refusal alike).
   */
  verifyNotification(ctx: SupplierCallContext, input: { rawBody: string; headers: Record<string, string | undefined>; now: Date }): VerifiedNotification | null;
}
