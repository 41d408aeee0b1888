import type { RoutingRule, SupplierConnection } from '../connections';
import type { PaymentMethod, PaymentStatus } from '../orders';
import type { SupplierOrder } from './supplier-order';

/** One item of the part a step works on: its link, its costs and its alternates' presence. */
export interface WorkItem {
  id: string;
  sku: string;
  quantity: number;
  supplierVariantId: string | null;
  /** The unit cost the part is now priced at, at its current supplier (the link's, or what a move accepted), and its currency. */
  linkCostMinor: number | null;
  linkCurrency: string | null;
  /** The unit cost recorded when the order was taken, and its currency: a reroute's ceiling starts from it, hop after hop. */
  recordedCostMinor: number | null;
  recordedCurrency: string | null;
  /** The supplier product the item's variant is linked to now; null once unlinked. */
  supplierProductId: string | null;
  /** Whether the item's store variant names backup suppliers (a rule's pause asks for a reroute only then). */
  hasAlternates: boolean;
  /** The connection of the item's link (its primary supplier), and the product and variant linked there; null once unlinked. */
  linkConnectionId: string | null;
  linkProductId: string | null;
  linkVariantId: string | null;
  /** The routing rule of the item's link; null: the store's. */
  linkRouting: RoutingRule | null;
  /** The link's maximum buy price for the variant (per unit); null: none set. */
  maxBuyPrice: { amountMinor: number; currency: string } | null;
}

/** What a dispatch step reads: the record, its connection, the store order's payment, the part's items. */
export interface Work {
  so: SupplierOrder;
  conn: SupplierConnection;
  order: { paymentMethod: PaymentMethod; paymentStatus: PaymentStatus; confirmed: boolean };
  items: WorkItem[];
  /** The store's currency: landed costs and profit are kept in it. */
  storeCurrency: string;
  /** The store's routing rule (store_supplier_routing); null: never set (primary). */
  storeRouting: RoutingRule | null;
  /**
   * For sourcing (./sourcing/), read only while the part may be routed by a rule other than `primary` or a reroute is
   * asked: each item's alternates (the catalogue's, by position), and the connections of those and of the items'
   * links other than this order's (as the connections domain maps them).
   */
  alternates: WorkAlternate[];
  connections: SupplierConnection[];
}

/** An alternate of one of the part's items, at its place in the store variant's list. */
export interface WorkAlternate {
  itemId: string;
  position: number;
  connectionId: string;
  supplierProductId: string;
  supplierVariantId: string;
}
