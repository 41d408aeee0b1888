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
