import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber, StoreRecord, updatedAtColumn } from '../platform/entity-columns';

export type PaymentMethod = 'online' | 'cashOnDelivery' | 'manual';
export type PaymentStatus = 'none' | 'authorised' | 'paid' | 'failed' | 'refunded';
export type ContractModel = 'standard' | 'promiseToSell';
export type StoreOrderStatus = 'pending' | 'confirmed' | 'processing' | 'shipped' | 'delivered' | 'cancelled';
export type PartStatus = 'pending' | 'processing' | 'shipped' | 'delivered' | 'cancelled';

/** The shopper's delivery address, as suppliers receive it. */
export type { Destination } from '../suppliers/adapter';
import type { Destination } from '../suppliers/adapter';

export interface Shipment {
  carrier: string;
  trackingNumber: string;
  shippedAt: string | null;
  deliveredAt: string | null;
}

@Entity('store_orders')
export class StoreOrder extends StoreRecord {
  @Column('text') number: string;
  @Column('text') status: StoreOrderStatus;
  @Column('text', { name: 'payment_method' }) paymentMethod: PaymentMethod;
  @Column('text', { name: 'payment_status' }) paymentStatus: PaymentStatus;
  @Column('text', { name: 'contract_model' }) contractModel: ContractModel;
  @Column('char', { length: 3 }) currency: string;
  @Column('bigint', { name: 'total_minor', transformer: bigintNumber }) totalMinor: number;
  @Column('jsonb') destination: Destination;
  @Column('boolean', { name: 'needs_attention' }) needsAttention: boolean;
  @Column('timestamptz', { name: 'confirmed_at', nullable: true }) confirmedAt: Date | null;
  /** A staff member marked it paid by hand; `paymentStatus` is only ever the payment provider's word. */
  @Column('timestamptz', { name: 'marked_paid_at', nullable: true }) markedPaidAt: Date | null;
}

@Entity('store_order_items')
export class StoreOrderItem {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('integer') position: number;
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'variant_id' }) variantId: string;
  @Column('text') sku: string;
  @Column('text') title: string;
  @Column('integer') quantity: number;
  @Column('bigint', { name: 'unit_price_minor', transformer: bigintNumber }) unitPriceMinor: number;
  @Column('text', { name: 'group_key' }) groupKey: string;
  @Column('text', { name: 'supplier_variant_id', nullable: true }) supplierVariantId: string | null;
  @Column('bigint', { name: 'link_cost_minor', nullable: true, transformer: bigintNumber }) linkCostMinor: number | null;
}

@Entity('fulfilment_groups')
export class FulfilmentGroup {
  @PrimaryColumn('uuid', { name: 'order_id' }) orderId: string;
  @PrimaryColumn('text', { name: 'group_key' }) groupKey: string;
  @Column('uuid', { name: 'connection_id', nullable: true }) connectionId: string | null;
  @Column('text') status: PartStatus;
  @Column('jsonb', { nullable: true }) shipment: Shipment | null;
  @Column('boolean', { name: 'fulfilled_by_store' }) fulfilledByStore: boolean;
  /** Its supplier order waits for review or for a retry: kept by dispatch, read by the order's summary. */
  @Column('boolean', { name: 'needs_attention' }) needsAttention: boolean;
  @updatedAtColumn() updatedAt: Date;
}
