import { Column, Entity } from 'typeorm';
import { StoreRecord } from '../platform/entity-columns';
import type { ConnectionMode, ShippingMethodRule } from '../suppliers/adapter';

export type AutomationLevel = 'off' | 'manual' | 'automatic';

/** How orders are sent to this supplier, and the limits that stop them. */
export interface Automation {
  level: AutomationLevel;
  automaticPayment: boolean;
  costLimit: { amountMinor: number; currency: string } | null;
  excludedCountries: string[];
  allowUnpaidOrders: boolean;
  /** Which of the supplier's shipping services orders take, for suppliers that offer several. */
  shippingMethod: ShippingMethodRule;
}

export const DEFAULT_AUTOMATION: Automation = { level: 'manual', automaticPayment: false, costLimit: null, excludedCountries: [], allowUnpaidOrders: false, shippingMethod: { rule: 'cheapest' } };

export interface Health {
  status: 'healthy' | 'unhealthy';
  checkedAt: string;
  latencyMs: number;
  message: string;
}

@Entity('supplier_connections')
export class SupplierConnection extends StoreRecord {
  @Column('text', { name: 'supplier_key' }) supplierKey: string;
  @Column('text') mode: ConnectionMode;
  @Column('boolean') enabled: boolean;
  @Column('text', { name: 'credentials_sealed', nullable: true }) credentialsSealed: string | null;
  @Column('text', { name: 'account_label' }) accountLabel: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  @Column('jsonb') settings: Record<string, any>;
  @Column('jsonb') automation: Automation;
  @Column('jsonb', { nullable: true }) health: Health | null;
  @Column('integer', { name: 'consecutive_failures' }) consecutiveFailures: number;
  @Column('timestamptz', { name: 'circuit_open_until', nullable: true }) circuitOpenUntil: Date | null;
  @Column('timestamptz', { name: 'last_webhook_at', nullable: true }) lastWebhookAt: Date | null;
  @Column('timestamptz', { name: 'disconnected_at', nullable: true }) disconnectedAt: Date | null;
  /** The notification address last registered with the supplier. */
  @Column('text', { name: 'registered_notification_address', nullable: true }) registeredNotificationAddress: string | null;
  /** A keyed digest of the supplier's id of the account the credentials act on; null when the supplier gives none. */
  @Column('text', { name: 'supplier_account_key', nullable: true }) supplierAccountKey: string | null;
}
