/** Shapes of the public API's answers, as the console reads them. */
export interface Account {
  id: string;
  email: string;
  name: string;
  plan: string;
  includesDropshipping: boolean;
  isDeveloper: boolean;
  credits: number;
}

export interface Store {
  id: string;
  name: string;
  currency: string;
  role: 'owner' | 'staff';
  permissions: string[] | null;
}

export interface Page<T> {
  items: T[];
  pagination: { nextCursor: string | null; previousCursor: string | null; hasMore: boolean; totalCount: number; pageSize: number };
}

export interface Money {
  amountMinor: number;
  currency: string;
}

/** What every page gets: who is signed in, the chosen store, and a way to refresh the header. */
export interface Ctx {
  account: Account;
  store: Store | null;
  refreshAccount(): Promise<void>;
}

/** A part of a store order: the store's own items, or one supplier connection's. */
export interface OrderPart {
  groupKey: string;
  connectionId: string | null;
  status: string;
  fulfilledByStore: boolean;
  items: string[];
  shipment: { carrier: string; trackingNumber: string; shippedAt: string | null; deliveredAt?: string | null } | null;
}

/** One entry of an order's payment history: who said what about the shopper's payment. */
export interface PaymentEntry {
  kind: string;
  /** `provider`: a signed notification; `manual`: a person (or a key) by hand; `service`: a promise-to-sell capture asked (or refused in the provider's answer). */
  source: 'provider' | 'manual' | 'service';
  amountMinor: number | null;
  reference: string | null;
  actor: { kind: string; id: string | null } | null;
  at: string;
  /** A provider event that arrived after a later one was applied: kept, it changed nothing. */
  stale?: boolean;
  /** An acknowledgement of the payment's attention: the person's note and the reason it cleared. */
  note?: string;
  attentionReason?: string;
}

/** The store's payment provider as `GET /api/stores/:storeId/payment-provider` answers it (the secret never is). */
export interface PaymentProviderView {
  provider: string | null;
  notificationUrl: string;
  configured: boolean;
  checkoutUrl: string | null;
  /** The store gave its API key at the provider (never answered): needed to charge promise-to-sell orders. */
  hasApiKey?: boolean;
  updatedAt: string | null;
}

export interface StoreOrder {
  id: string;
  number: string;
  status: string;
  paymentMethod: string;
  /** The shopper's payment as the payment provider reported it; nothing else moves it. */
  paymentStatus: string;
  /** When a person marked it paid by hand (their word, not the provider's). */
  markedPaidAt: string | null;
  payments?: PaymentEntry[];
  /** Each payment the provider reported, and what it refunded of the standing one (order details). */
  providerPayments?: Array<{
    reference: string;
    amountMinor: number;
    currency: string;
    status: string;
    refundedMinor: number;
    disputed: boolean;
    updatedAt: string;
  }>;
  amountRefundedMinor?: number;
  contractModel?: string;
  currency: string;
  totalMinor: number;
  needsAttention: boolean;
  /** The provider took the payment back after it was paid: a person decides. */
  paymentAttention?: { reason: string; since: string } | null;
  /** Only for staff allowed to see customer data (customers.view); `destinationRedacted` otherwise. */
  destination?: {
    name: string;
    line1: string;
    line2?: string;
    city: string;
    region?: string;
    postalCode: string;
    country: string;
    email?: string;
    phone?: string;
  };
  destinationRedacted: boolean;
  /** `title` is the variant's, `productTitle` its product's, both as sold. */
  items?: Array<{
    id: string;
    productId: string;
    variantId: string;
    sku: string;
    title: string;
    productTitle: string | null;
    quantity: number;
    unitPriceMinor: number;
    groupKey: string;
  }>;
  fulfilmentGroups: OrderPart[];
  fulfilmentSummary: { parts: number; shipped: number; delivered: number; needingAttention: number };
  confirmedAt: string | null;
  createdAt: string;
  /** What the order earned, in the store's currency (order details, for callers with suppliers.view). */
  profit?: Profit | null;
}

/** A profit in the store's currency; `missing` names what is not known yet (then `complete` is false). */
export interface Profit {
  currency: string;
  revenueMinor: number | null;
  landedCostMinor: number | null;
  landedCostStage: 'confirmation' | 'accepted' | 'paid' | null;
  paymentFeeMinor: number | null;
  /** What suppliers gave back (a claim refunded), already off `landedCostMinor`; absent from an older service. */
  supplierCreditMinor?: number;
  resultMinor: number | null;
  complete: boolean;
  missing: string[];
}

/** A part's landed cost at one stage, in the supplier's currency and the store's, with the rate it was converted at. */
export interface LandedCost {
  stage: 'confirmation' | 'accepted' | 'paid';
  currency: string;
  itemsMinor: number;
  shippingMinor: number | null;
  totalMinor: number;
  storeCurrency: string;
  storeTotalMinor: number;
  rate: string;
  rateSource: string;
  rateAsOf: string;
  recordedAt: string;
}

export interface StoreProduct {
  id: string;
  title: string;
  status: string;
  variants: Array<{ id: string; sku: string; title: string; priceMinor: number; currency: string; stock: number }>;
}

/** A supplier order as the review queue and the order page read it. */
export interface SupplierOrder {
  _id: string;
  orderId: string;
  orderNumber: string;
  fulfilmentGroupKey: string;
  supplierKey: string;
  status: string;
  reviewReason: string | null;
  reviewMessage: string | null;
  retryable: boolean | null;
  supplierOrderNumber: string;
  supplierOrderId: string | null;
  supplierStatus: string | null;
  costs: { itemsMinor: number; shippingMinor: number; totalMinor: number; currency: string } | null;
  payment: { status: string };
  shipping: { carrier: string; trackingNumber: string; shippedAt: string | null } | null;
  attempt: number;
  events: Array<{
    at: string;
    actor: { kind: string; id: string | null };
    type: string;
    from: string | null;
    to: string | null;
    details: Record<string, unknown>;
  }>;
  landedCosts?: LandedCost[];
  profit?: Profit | null;
  /** After shipping: why its delivery needs a look (the status stays), the carrier's scans, the claim a reship serves. */
  deliveryAttention?: { reason: string; since: string; message: string } | null;
  tracking?: {
    events: Array<{ at: string; description: string; location: string | null }>;
    lastScanAt: string | null;
    exception: string | null;
    promisedMaxDays: number | null;
  } | null;
  reshipOf?: { claimId: string; supplierOrderId: string } | null;
  nextAction?: { action: 'return'; operationId: string; method: 'POST'; path: string } | null;
  createdAt: string;
}

/** A claim with the supplier, as the order page shows it. */
export interface Claim {
  _id: string;
  via: 'api' | 'person';
  reason: string;
  expectation: 'refund' | 'reship';
  items: Array<{ itemId: string; sku: string; quantity: number }>;
  status: string;
  supplierStatus: string | null;
  deadline: string | null;
  outcome: { kind: string; amount?: Money; storeAmount?: Money | null; supplierOrderId?: string | null; message?: string } | null;
  evidencePack: { where: string; text: string } | null;
  createdAt: string;
}

/** How an assistant (MCP) reaches the service with a key. */
export interface AssistantLink {
  url: string;
  transport: string;
  headers: { 'X-API-Key': string };
}

/** An API key as the API answers it (never its secret). */
export interface ApiKey {
  id: string;
  name: string;
  maskedKey: string;
  recordScope: 'own' | 'account';
  lastUsedAt: string | null;
  revoked: boolean;
  revokedAt: string | null;
  createdAt: string;
}
