import type { ConnectionMode, ShippingMethodRule } from '../suppliers/adapter';

// The connections domain's types; ./sql.ts maps its rows into them.

type AutomationLevel = 'off' | 'manual' | 'automatic';

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

export interface SupplierConnection {
  id: string;
  storeId: string;
  supplierKey: string;
  mode: ConnectionMode;
  enabled: boolean;
  credentialsSealed: string | null;
  accountLabel: string;
  /** The supplier's own settings, as its settings schema checked them. */
  settings: Record<string, unknown>;
  automation: Automation;
  health: Health | null;
  consecutiveFailures: number;
  circuitOpenUntil: Date | null;
  lastWebhookAt: Date | null;
  disconnectedAt: Date | null;
  /** The notification address last registered with the supplier. */
  registeredNotificationAddress: string | null;
  /** A keyed digest of the supplier's id of the account the credentials act on; null when the supplier gives none. */
  supplierAccountKey: string | null;
  createdByAccountId: string;
  createdByKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}
