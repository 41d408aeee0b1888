import type { Destination } from '../suppliers/adapter';
import type { ReviewReason } from './review-reasons';
import type { SupplierOrderStatus, SupplierPaymentStatus } from './state-machine';
import type { DeliveryState, ReshipOf } from './delivery/types';

export type { SupplierPaymentStatus } from './state-machine';

interface SupplierCosts {
  itemsMinor: number;
  shippingMinor: number;
  totalMinor: number;
  currency: string;
}

export interface Shipping {
  carrier: string;
  trackingNumber: string;
  shippedAt: string | null;
}

export type ContractModel = 'standard' | 'promiseToSell';

/** A supplier order as the dispatch domain reads it (./sql/rows.ts maps the row). */
export interface SupplierOrder {
  id: string;
  storeId: string;
  orderId: string;
  partKey: string;
  connectionId: string;
  supplierKey: string;
  orderNumber: string;
  contractModel: ContractModel;
  status: SupplierOrderStatus;
  reviewReason: ReviewReason | null;
  reviewMessage: string | null;
  retryable: boolean | null;
  supplierOrderNumber: string;
  /** The supplier refused the last create: the number was never used, so a retry may take a new one. */
  numberKnownAbsent: boolean;
  supplierOrderId: string | null;
  supplierStatus: string | null;
  costs: SupplierCosts | null;
  paymentStatus: SupplierPaymentStatus;
  shipping: Shipping | null;
  attempt: number;
  payNow: boolean;
  /** Work asked of the dispatch job besides sending: the job clears each flag once it has acted on it. */
  payRequested: boolean;
  cancelRequested: boolean;
  /** Decided when the order is sent: pay now, or the connection's automatic payment at that moment. */
  paymentDue: boolean;
  /** Promise to sell: the payment provider took the service's request to capture the shopper's payment (the supplier accepted). */
  captureRequested: boolean;
  /** Cancelled at the supplier because the store ships the part itself. */
  storeTakesOver: boolean;
  acceptedCostMinor: number | null;
  /** A reroute asked for (by the connection's rule on a pause, or by a person): the reroute step is due while paused. */
  rerouteRequest: RerouteRequest | null;
  /** The alternates already tried for these items, and why each could not take them (carried to the order that takes them). */
  rerouteTried: RerouteTry[];
  /** The supplier order that took this one's items. */
  reroutedTo: string | null;
  /** The supplier chosen by the routing rule at dispatch, with every candidate's quote; null: not routed (./sourcing/). */
  routing: RoutingChoice | null;
  /**
   * The supplier orders this part was at before this one (routed or rerouted away), oldest first: never returned to by
   * a machine, and asked by number before this order's first create where the proof they hold none may have aged.
   */
  earlier: EarlierOrder[];
  /** Packages the supplier reported returned to it, each recorded once (history `packageReturned`). */
  returns: PackageReturn[];
  /** The delivery watch's state (./delivery/), and when it next looks; null: not watched yet. A reship: the claim it serves. */
  delivery: DeliveryState | null;
  deliveryDueAt: Date | null;
  reshipOf: ReshipOf | null;
  destination: Destination;
  retriesUsed: number;
  nextRetryAt: Date | null;
  createdByAccountId: string;
  createdByKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A supplier order the part left, and how its supplier was shown to hold no live order for it when it left. */
export interface EarlierOrder {
  supplierOrderId: string;
  connectionId: string;
  supplierKey: string;
  supplierOrderNumber: string;
  /** The supplier's own id of the order it held (then cancelled), if any. */
  supplierSideId: string | null;
  /**
   * `cancelled`: the supplier confirmed the cancel; `refused`: it refused the create (the number was never used);
   * `lookedUp`: asked by number, it held none. Only the last may age (a create still in flight): it is asked again.
   */
  proof: 'cancelled' | 'refused' | 'lookedUp';
}

/** A package the supplier reported returned to it, and when the service learnt it. */
export interface PackageReturn {
  carrier: string;
  trackingNumber: string;
  at: string;
}

export interface RerouteRequest {
  /** `rule`: the connection's automation, acting under the store owner's plan as it is when the reroute happens; `manual`: a caller. */
  by: 'rule' | 'manual';
  reason: ReviewReason;
  /** A caller's chosen alternate connection; null: each in order. */
  connectionId: string | null;
  actor: { kind: 'key' | 'user' | 'system'; id: string | null };
}

/** One candidate's live quote, in the supplier's currency and in the store's (at the rate named). */
export interface RoutingQuote {
  connectionId: string;
  supplierKey: string;
  /** The items on that connection (the alternate's variants for an alternate). */
  items: Array<{ id: string; supplierProductId: string; supplierVariantId: string; linkCostMinor: number }>;
  currency: string;
  itemsMinor: number;
  shippingMinor: number;
  totalMinor: number;
  storeCurrency: string;
  storeTotalMinor: number;
  rate: string;
  rateSource: string;
  rateAsOf: string;
  /** The longest delivery the supplier quotes, in days; null when it gives none. */
  maxDays: number | null;
  /** The shipping service quoted (the one the create will take), and when the quote was read. */
  shippingService?: string;
  shippingServices?: string[];
  quotedAt?: string;
}

/** A routing rule's choice: the winner, why, every candidate quoted (cheapest first) and those that could not be. */
export interface RoutingChoice {
  /** The supplier order that made the choice (the one that carries it out; those made after it only keep it). */
  supplierOrderId: string;
  rule: 'lowestLandedCost' | 'fastest';
  maxCostAboveCheapestPercent?: number;
  connectionId: string;
  why: string;
  candidates: RoutingQuote[];
  excluded: Array<{ connectionId: string; supplierKey: string; why: string }>;
}

export interface RerouteTry {
  connectionId: string;
  /** Its place among the store variant's alternates. */
  position: number;
  supplierKey: string;
  why: string;
}

/** One entry of a supplier order's history (`events[]`), as the API shows it. */
export interface SupplierOrderEvent {
  at: string;
  actor: { kind: string; id: string | null };
  type: string;
  from: string | null;
  to: string | null;
  details: Record<string, unknown>;
}

/** What a new supplier order is made from: the part, its connection, and who asked. */
export type NewSupplierOrder = Pick<
  SupplierOrder,
  | 'id'
  | 'storeId'
  | 'orderId'
  | 'partKey'
  | 'connectionId'
  | 'supplierKey'
  | 'orderNumber'
  | 'contractModel'
  | 'destination'
  | 'payNow'
  | 'createdByAccountId'
  | 'createdByKeyId'
> & { reshipOf?: ReshipOf };

/** What names a part's supplier order, where a step needs no more of it. */
export type PartRef = Pick<SupplierOrder, 'id' | 'storeId' | 'orderId' | 'partKey' | 'connectionId' | 'supplierKey'>;

/** The service's own number for an attempt, sent to the supplier as its order number. */
export function supplierOrderNumber(id: string, attempt: number): string {
  return `ss-${id.replace(/-/g, '').slice(0, 20)}-${attempt}`;
}

/** The supplier order list's filters, in the code's words (./views.ts turns the API's into these). */
export interface SupplierOrderFilters {
  status?: string;
  needsReview?: boolean;
  needsAttention?: boolean;
  connectionId?: string;
  orderId?: string;
  contractModel?: string;
}
