import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber, StoreRecord } from '../platform/entity-columns';
import type { PriceRule } from './price-rule';

/** Which fields the hourly sync may change on the store side. */
export interface SyncSwitches {
  cost: boolean;
  price: boolean;
  stock: boolean;
  title: boolean;
  availability: boolean;
}

export const DEFAULT_SYNC: SyncSwitches = { cost: true, price: true, stock: true, title: false, availability: true };

@Entity('product_links')
export class ProductLink extends StoreRecord {
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'connection_id' }) connectionId: string;
  @Column('text', { name: 'supplier_key' }) supplierKey: string;
  @Column('text', { name: 'supplier_product_id' }) supplierProductId: string;
  @Column('jsonb', { name: 'price_rule' }) priceRule: PriceRule;
  @Column('jsonb') sync: SyncSwitches;
  @Column('timestamptz', { name: 'last_sync_at', nullable: true }) lastSyncAt: Date | null;
  @Column('text', { name: 'last_sync_error', nullable: true }) lastSyncError: string | null;
}

@Entity('product_link_variants')
export class ProductLinkVariant {
  @PrimaryColumn('uuid', { name: 'link_id' }) linkId: string;
  @PrimaryColumn('uuid', { name: 'store_variant_id' }) storeVariantId: string;
  @Column('text', { name: 'supplier_variant_id' }) supplierVariantId: string;
  @Column('bigint', { name: 'cost_minor', transformer: bigintNumber }) costMinor: number;
  @Column('char', { length: 3 }) currency: string;
  @Column('integer') stock: number;
  @Column('boolean') available: boolean;
}

@Entity('import_jobs')
export class ImportJob extends StoreRecord {
  @Column('uuid', { name: 'connection_id' }) connectionId: string;
  @Column('text') status: 'queued' | 'running' | 'completed' | 'failed';
  @Column('jsonb', { name: 'price_rule' }) priceRule: PriceRule;
  @Column('jsonb') sync: SyncSwitches;
  @Column('integer') total: number;
  /** What each imported product costs, as the import route stated it when the job was made. */
  @Column('jsonb', { name: 'credit' }) credit: { action: string; price: number };
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt: Date | null;
}

@Entity('import_job_items')
export class ImportJobItem {
  @PrimaryColumn('uuid', { name: 'job_id' }) jobId: string;
  @PrimaryColumn('integer') position: number;
  @Column('text', { name: 'supplier_product_id' }) supplierProductId: string;
  @Column('text', { name: 'variant_ids', array: true, nullable: true }) variantIds: string[] | null;
  @Column('text') status: 'pending' | 'done' | 'failed';
  @Column('uuid', { name: 'product_id', nullable: true }) productId: string | null;
  @Column('text', { name: 'error_code', nullable: true }) errorCode: string | null;
  @Column('text', { name: 'error_message', nullable: true }) errorMessage: string | null;
}
