import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber, createdAtColumn, StoreRecord } from '../platform/entity-columns';

@Entity('stores')
export class Store {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'owner_account_id' }) ownerAccountId: string;
  @Column('text') name: string;
  @Column('char', { length: 3 }) currency: string;
  @createdAtColumn() createdAt: Date;
}

@Entity('store_staff')
export class StaffMember {
  @PrimaryColumn('uuid', { name: 'store_id' }) storeId: string;
  @PrimaryColumn('uuid', { name: 'account_id' }) accountId: string;
  @Column('text', { array: true }) permissions: string[];
  @createdAtColumn() createdAt: Date;
}

@Entity('store_products')
export class StoreProduct extends StoreRecord {
  @Column('text') title: string;
  @Column('text') description: string;
  @Column('text') status: 'active' | 'draft' | 'archived';
}

@Entity('store_variants')
export class StoreVariant {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'store_id' }) storeId: string;
  @Column('text') sku: string;
  @Column('text') title: string;
  @Column('bigint', { name: 'price_minor', transformer: bigintNumber }) priceMinor: number;
  @Column('char', { length: 3 }) currency: string;
  @Column('integer') stock: number;
  @Column('integer') position: number;
}
