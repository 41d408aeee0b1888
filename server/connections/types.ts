import type { Queryable } from '../platform/db';
import type { ConnectionMode, ShippingMethodRule } from '../suppliers/adapter';
import { DEFAULT_REROUTE_REASONS, REROUTE_REASONS, type RerouteReason } from '../platform/vocabulary/review-reasons';
import { DELIVERY_EXCEPTIONS, type DeliveryException } from '../platform/vocabulary/delivery';

// The connections domain's types; ./sql/rows.ts maps its rows into them.

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
  /** Which pauses of this connection's parts go to a backup supplier (the link's alternates), and how much dearer one may be. */
  reroute: RerouteRule;
  /** When a sent order's delivery needs a look (docs/decisions.md, "The delivery watch"). */
  deliveryWatch: DeliveryWatch;
}

/** The delivery watch's thresholds, and the supplier's exceptions it raises. */
export interface DeliveryWatch {
  /** No tracking this many days after the supplier was paid. */
  noTrackingDays: number;
  /** No carrier scan for this many hours. */
  noMovementHours: number;
  /** Not delivered this many days past the supplier's promised maximum. */
  overdueGraceDays: number;
  exceptions: DeliveryException[];
}

/** Existing connections read with it too (until their automation changes): DSers' "Attention" thresholds, made roomier for movement. */
export const DEFAULT_DELIVERY_WATCH: DeliveryWatch = { noTrackingDays: 7, noMovementHours: 72, overdueGraceDays: 3, exceptions: [...DELIVERY_EXCEPTIONS] };

/** The review reasons a rule may reroute on (the vocabulary's flags): the supplier cannot serve the part, or (opt-in) will not now. */
export { REROUTE_REASONS, type RerouteReason };

export interface RerouteRule {
  reasons: RerouteReason[];
  /** An alternate may cost at most this share above the primary's cost (and never above its own connection's cost limit). */
  maxCostIncreasePercent: number;
}

/** Existing connections read with it too (the row's automation lacks it until changed): the three reasons the supplier cannot serve, 10% dearer at most. */
export const DEFAULT_REROUTE: RerouteRule = { reasons: [...DEFAULT_REROUTE_REASONS], maxCostIncreasePercent: 10 };

export const DEFAULT_AUTOMATION: Automation = {
  level: 'manual',
  automaticPayment: false,
  costLimit: null,
  excludedCountries: [],
  allowUnpaidOrders: false,
  shippingMethod: { rule: 'cheapest' },
  reroute: DEFAULT_REROUTE,
  deliveryWatch: DEFAULT_DELIVERY_WATCH,
};

/**
 * How a part's supplier is chosen among its link's primary and alternates: the primary (as before routing existed),
 * the lowest landed cost, or the fastest delivery within a cap above the cheapest. Set per store, overridable per link.
 */
export type RoutingRule = { rule: 'primary' } | { rule: 'lowestLandedCost' } | { rule: 'fastest'; maxCostAboveCheapestPercent: number };

/** A store that never set a rule: the primary supplier, as always. */
export const DEFAULT_ROUTING: RoutingRule = { rule: 'primary' };

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

/**
 * What the domains built after this one keep of a connection, handed to its routes once the list is built (index.ts,
 * `lateRoutes`): what a disconnect would affect, and the links that go with it. The store id keeps each statement on its shard.
 */
export interface KeptOfConnection {
  /** The catalogue's product links: how many, and their removal inside the disconnect's transaction (answers how many went). */
  links: { count(connectionId: string, storeId: string): Promise<number>; remove(tx: Queryable, connectionId: string, storeId: string): Promise<number> };
  /** Dispatch's supplier orders still open at the supplier. */
  openSupplierOrders(connectionId: string, storeId: string): Promise<number>;
}
