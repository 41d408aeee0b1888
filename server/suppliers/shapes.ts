/** What the contract's calls take and answer: products, orders, notifications, accounts, in the service's terms. */

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
  /** The shipping service quoted before the order (`quoteShipping`), which the create takes; absent: the adapter picks by the rule. */
  shipping?: { service: string; services?: string[] };
  /** This order replaces goods of a claim the supplier approved for a reship (its claim id): the supplier charges nothing for it. */
  reshipOf?: string;
}

/** An exception a carrier reports on a parcel (the service's vocabulary spells the same words). */
export type DeliveryException = 'returnedToSender' | 'failedDelivery' | 'customsHold';

/** One carrier scan, as the supplier reports it. */
export interface TrackingEvent {
  /** ISO 8601, when the carrier scanned it. */
  at: string;
  description: string;
  location: string | null;
  /** The scan reports an exception. */
  exception?: DeliveryException;
}

/** What the supplier knows of a shipped parcel's journey. */
export interface TrackingView {
  /** The carrier's scans, oldest first (as many as the supplier gives). */
  events: TrackingEvent[];
  /** The exception the parcel is in now (its latest scan's), if any. */
  exception: DeliveryException | null;
  /** The longest delivery the supplier promised for the order, in days; null when it says none. */
  promisedMaxDays: number | null;
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
  /** Packages the supplier reports as returned to it (so far Printful only); absent: the supplier says nothing of returns. */
  returns?: Array<{ carrier: string; trackingNumber: string }>;
  /** When the supplier says it was paid (ISO 8601); absent: it does not say. */
  paidAt?: string | null;
  /** The parcel's carrier scans and exception; absent: the supplier gives none (yet). */
  tracking?: TrackingView;
}

/** The lines of a claim, by the supplier's variant, and what the store expects. */
export interface ClaimLine {
  variantId: string;
  quantity: number;
}

/** What the supplier allows a claim on some lines of an order to be, asked before it is sent. */
export interface ClaimTerms {
  /** Each line asked about: how many are still open to a claim, and whether one may be made on it now. */
  lines: Array<{ variantId: string; openQuantity: number; canChoose: boolean; unitPrice: Money }>;
  /** The most the supplier refunds for these lines (items and postage); null: it names no limit. */
  maxAmount: Money | null;
  expectations: Array<'refund' | 'reship'>;
}

/** A claim to send, under the service's own key (the claim's id): sent again with the same key, it is found, not made twice. */
export interface ClaimInput {
  supplierOrderId: string;
  claimKey: string;
  reason: 'notReceived' | 'damaged' | 'wrongItem' | 'missingItems' | 'quality';
  expectation: 'refund' | 'reship';
  lines: ClaimLine[];
  message: string;
  evidence: string[];
}

/** What the supplier decided, once it did. */
export type ClaimDecision =
  | { kind: 'refund'; amount: Money }
  /** `supplierOrderId`: an order the supplier made itself to reship (CJ's reissue); null: the store places it, free. */
  | { kind: 'reship'; supplierOrderId: string | null }
  | { kind: 'rejected'; message: string };

/** The supplier's view of a claim. */
export interface SupplierClaimSnapshot {
  supplierClaimId: string;
  /** The service's key, where the supplier keeps it. */
  claimKey: string | null;
  supplierStatus: string;
  status: 'open' | 'decided' | 'cancelled';
  decision: ClaimDecision | null;
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
