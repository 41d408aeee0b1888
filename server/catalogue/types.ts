import type { RoutingRule } from '../connections';
import type { PriceRule } from './price-rule';
import type { CostRate } from './conversion';

// The catalogue domain's types; its data module (./sql/) maps its rows into them.

/** Which fields the hourly sync may change on the store side. */
export interface SyncSwitches {
  cost: boolean;
  price: boolean;
  stock: boolean;
  title: boolean;
  availability: boolean;
}

export const DEFAULT_SYNC: SyncSwitches = { cost: true, price: true, stock: true, title: false, availability: true };

export interface ProductLink {
  id: string;
  storeId: string;
  productId: string;
  connectionId: string;
  supplierKey: string;
  supplierProductId: string;
  priceRule: PriceRule;
  sync: SyncSwitches;
  /** This link's own routing rule; null: the store's. */
  routing: RoutingRule | null;
  /** The rate its costs were last priced at into the store's currency; null when the supplier sells in it. */
  costRate: CostRate | null;
  lastSyncAt: Date | null;
  lastSyncError: string | null;
  createdByAccountId: string;
  createdByKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProductLinkVariant {
  linkId: string;
  storeVariantId: string;
  supplierVariantId: string;
  costMinor: number;
  currency: string;
  stock: number;
  available: boolean;
  /** The most the store pays the supplier for one unit (any currency: compared in the store's); above it a part pauses costAboveLimit. */
  maxBuyPrice: { amountMinor: number; currency: string } | null;
}

/** A backup supplier variant for one store variant of a link, on another connection of the store; `position` orders them. */
export interface LinkAlternate {
  storeVariantId: string;
  position: number;
  connectionId: string;
  supplierProductId: string;
  supplierVariantId: string;
  /** As the supplier had them when the alternate was set or last synced. */
  costMinor: number;
  currency: string;
  stock: number;
  available: boolean;
}

/** An alternate as a caller names it. */
export interface AlternateInput {
  storeVariantId: string;
  connectionId: string;
  supplierProductId: string;
  supplierVariantId: string;
}

export type ImportJobStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ImportJob {
  id: string;
  storeId: string;
  connectionId: string;
  status: ImportJobStatus;
  priceRule: PriceRule;
  sync: SyncSwitches;
  total: number;
  /** What each imported product costs, as the import route stated it when the job was made. */
  credit: { action: string; price: number };
  finishedAt: Date | null;
  createdByAccountId: string;
  createdByKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ImportJobItem {
  jobId: string;
  position: number;
  supplierProductId: string;
  variantIds: string[] | null;
  status: 'pending' | 'done' | 'failed';
  productId: string | null;
  errorCode: string | null;
  errorMessage: string | null;
}

/** One product to import: the supplier's product, and the variants chosen (all when none are named). */
export interface ImportItem {
  supplierProductId: string;
  variantIds?: string[];
}
