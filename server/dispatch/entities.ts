import { Column, Entity } from 'typeorm';
import { bigintNumber, StoreRecord } from '../platform/entity-columns';
import type { Destination } from '../orders/entities';
import type { SupplierOrderStatus } from './state-machine';
import type { ReviewReason } from './review-reasons';

export interface SupplierCosts {
  itemsMinor: number;
  shippingMinor: number;
  totalMinor: number;
  currency: string;
}

@Entity('supplier_orders')
export class SupplierOrder extends StoreRecord {
  @Column('uuid', { name: 'order_id' }) orderId: string;
  @Column('text', { name: 'group_key' }) groupKey: string;
  @Column('uuid', { name: 'connection_id' }) connectionId: string;
  @Column('text', { name: 'supplier_key' }) supplierKey: string;
  @Column('text', { name: 'order_number' }) orderNumber: string;
  @Column('text', { name: 'contract_model' }) contractModel: 'standard' | 'promiseToSell';
  @Column('text') status: SupplierOrderStatus;
  @Column('text', { name: 'review_reason', nullable: true }) reviewReason: ReviewReason | null;
  @Column('text', { name: 'review_message', nullable: true }) reviewMessage: string | null;
  @Column('boolean', { nullable: true }) retryable: boolean | null;
  @Column('text', { name: 'supplier_order_number' }) supplierOrderNumber: string;
  @Column('boolean', { name: 'number_known_absent' }) numberKnownAbsent: boolean;
  @Column('text', { name: 'supplier_order_id', nullable: true }) supplierOrderId: string | null;
  @Column('text', { name: 'supplier_status', nullable: true }) supplierStatus: string | null;
  @Column('jsonb', { nullable: true }) costs: SupplierCosts | null;
  @Column('text', { name: 'payment_status' }) paymentStatus: 'notRequired' | 'unpaid' | 'paid' | 'refunded';
  @Column('jsonb', { nullable: true }) shipping: { carrier: string; trackingNumber: string; shippedAt: string | null } | null;
  @Column('integer') attempt: number;
  @Column('boolean', { name: 'pay_now' }) payNow: boolean;
  /** Work asked of the dispatch job besides sending: the job clears each flag once it has acted on it. */
  @Column('boolean', { name: 'pay_requested' }) payRequested: boolean;
  @Column('boolean', { name: 'cancel_requested' }) cancelRequested: boolean;
  /** Decided when the order is sent: pay now, or the connection's automatic payment at that moment. */
  @Column('boolean', { name: 'payment_due' }) paymentDue: boolean;
  /** Promise to sell: the shopper's authorised payment was charged once the supplier accepted. */
  @Column('boolean', { name: 'shopper_captured' }) shopperCaptured: boolean;
  /** Kept by the database (a generated column): some dispatch step is due for this record. */
  @Column({ type: 'boolean', name: 'step_due', insert: false, update: false }) stepDue: boolean;
  /** Cancelled at the supplier because the store ships the part itself. */
  @Column('boolean', { name: 'store_takes_over' }) storeTakesOver: boolean;
  @Column('bigint', { name: 'accepted_cost_minor', nullable: true, transformer: bigintNumber }) acceptedCostMinor: number | null;
  @Column('jsonb') destination: Destination;
  @Column('integer', { name: 'retries_used' }) retriesUsed: number;
  @Column('timestamptz', { name: 'next_retry_at', nullable: true }) nextRetryAt: Date | null;
}
