/** Shapes the sandbox supplier speaks on the wire. Money is integer minor units of the account's currency (./money.ts). */

export type Environment = 'live' | 'test';

export type OrderStatus = 'created' | 'paid' | 'processing' | 'shipped' | 'delivered' | 'cancelled';

export interface VariantOptions {
  color?: string;
  size?: string;
}

export interface Variant {
  id: string;
  sku: string;
  title: string;
  options: VariantOptions;
  costMinor: number;
  stock: number;
  available: boolean;
}

export interface Product {
  id: string;
  title: string;
  description: string;
  url: string;
  imageUrl: string;
  currency: string;
  shipsTo: string[];
  /** The country the warehouse ships it from, and how many days delivery takes (as the warehouse quotes it). */
  shipsFrom: string;
  deliveryDays: { min: number; max: number };
  variants: Variant[];
  updatedAt: string;
}

/**
 * Where an order ships, in the supplier contract's own shape (the sandbox exists to rehearse that contract; being a
 * program of its own, it states the shape rather than import it). Empty optional fields are left out.
 */
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

export interface OrderItem {
  variantId: string;
  quantity: number;
  unitCostMinor: number;
}

export interface Shipping {
  carrier: string;
  trackingNumber: string;
  shippedAt: string;
}

export interface Order {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  paid: boolean;
  items: OrderItem[];
  costs: { itemsMinor: number; shippingMinor: number; totalMinor: number; currency: string };
  destination: Destination;
  shipping: Shipping | null;
  createdAt: string;
  updatedAt: string;
}

export interface Faults {
  latencyMs: number;
  failNext: number;
  timeoutAfterCreateNext: number;
  refuseNext: { count: number; message: string } | null;
  rejectKeys: boolean;
  /** Accounts whose every call answers 503, as if the supplier were down for them alone. */
  unavailableAccounts: string[];
  /** Extra latency for one account's calls, as if the supplier were slow for it alone. */
  accountLatencyMs: Record<string, number>;
  /** Accounts whose notifications are never sent, as if the supplier had dropped them. */
  silentAccounts: string[];
  /** Added to the next orders' shipping at create, above what the quote said (a supplier that charges more than it quoted). */
  shippingSurchargeMinor: number;
}

export type NotificationEvent =
  | { id: string; type: 'order.updated'; createdAt: string; data: { orderId: string; orderNumber: string; status: OrderStatus } }
  | { id: string; type: 'product.updated'; createdAt: string; data: { productId: string; variantIds: string[] } }
  | { id: string; type: 'claim.updated'; createdAt: string; data: { claimId: string; orderId: string; status: string } };

/** The body of POST /v1/orders, checked. */
export interface OrderRequest {
  orderNumber: string;
  items: Array<{ variantId: string; quantity: number }>;
  destination: Destination;
  /** A reship of a claim the sandbox approved for one: the order costs nothing and is paid at once. */
  reshipOf?: string;
}
