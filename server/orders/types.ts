// The orders domain's types; its data module (./sql/) maps its rows into them.

export type PaymentMethod = 'online' | 'cashOnDelivery' | 'manual';
export type PaymentStatus = 'none' | 'authorised' | 'paid' | 'partiallyRefunded' | 'failed' | 'refunded';
/**
 * Why a payment needs a person: the provider took back a payment after it was paid, or (promise to sell) after the
 * supplier was paid on its authorisation; or it refused the capture after the supplier shipped (the goods are gone);
 * or the shopper disputes the charge.
 */
export type PaymentAttentionReason =
  | 'paymentFailedAfterPaid'
  | 'refundedAfterPaid'
  | 'paymentFailedAfterSupplierPaid'
  | 'refundedAfterSupplierPaid'
  | 'captureRefusedAfterShipped'
  | 'paymentDisputed';
export const PAYMENT_ATTENTION_REASONS: PaymentAttentionReason[] = [
  'paymentFailedAfterPaid',
  'refundedAfterPaid',
  'paymentFailedAfterSupplierPaid',
  'refundedAfterSupplierPaid',
  'captureRefusedAfterShipped',
  'paymentDisputed',
];
export type ContractModel = 'standard' | 'promiseToSell';
import type { PartStatus, StoreOrderStatus } from '../platform/vocabulary/statuses';
export type { PartStatus };

/** The shopper's delivery address, as suppliers receive it. */
export type { Destination } from '../suppliers/adapter';
import type { Destination } from '../suppliers/adapter';

export interface Shipment {
  carrier: string;
  trackingNumber: string;
  shippedAt: string | null;
  deliveredAt: string | null;
}

export interface StoreOrder {
  id: string;
  storeId: string;
  number: string;
  status: StoreOrderStatus;
  paymentMethod: PaymentMethod;
  paymentStatus: PaymentStatus;
  /** What the provider refunded of the order's standing payment (docs/decisions.md, "Payments as records (issue 53)"). */
  refundedMinor: number;
  contractModel: ContractModel;
  currency: string;
  totalMinor: number;
  destination: Destination;
  /** A part needs a person, or the payment does (`paymentAttention`). */
  needsAttention: boolean;
  paymentAttention: { reason: PaymentAttentionReason; since: Date } | null;
  confirmedAt: Date | null;
  /** A staff member marked it paid by hand; `paymentStatus` is only ever the payment provider's word. */
  markedPaidAt: Date | null;
  createdByAccountId: string;
  createdByKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StoreOrderItem {
  id: string;
  orderId: string;
  position: number;
  productId: string;
  variantId: string;
  sku: string;
  /** The variant's title; `productTitle` is its product's, as sold (null for an old item whose product was deleted). */
  title: string;
  productTitle: string | null;
  quantity: number;
  unitPriceMinor: number;
  partKey: string;
  supplierVariantId: string | null;
  linkCostMinor: number | null;
}

/** An order part: the store's own items, or one supplier connection's. */
export interface OrderPart {
  orderId: string;
  partKey: string;
  connectionId: string | null;
  status: PartStatus;
  shipment: Shipment | null;
  fulfilledByStore: boolean;
  /** Its supplier order waits for review or for a retry: kept with the part's status, read by the order's summary. */
  needsAttention: boolean;
  updatedAt: Date;
}

/**
 * How a part moves (./sql/parts.ts `partMove`, the one write of a part's status): it follows its supplier order (status,
 * shipment, whether a person is needed), the store takes it over, or the store moves a part it fulfils itself (from
 * one of the statuses `from`; a shipment of null keeps the one it has).
 */
export type PartMove =
  | { kind: 'follow'; status: PartStatus; shipment: Shipment | null; needsAttention: boolean }
  | { kind: 'handToStore' }
  | { kind: 'byStore'; status: PartStatus; shipment: Shipment | null; from: PartStatus[] };
