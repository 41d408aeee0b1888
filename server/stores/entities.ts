import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity('stores')
export class Store {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'owner_account_id' }) ownerAccountId: string;
  @Column('text') name: string;
  @Column('char', { length: 3 }) currency: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

@Entity('store_staff')
export class StaffMember {
  @PrimaryColumn('uuid', { name: 'store_id' }) storeId: string;
  @PrimaryColumn('uuid', { name: 'account_id' }) accountId: string;
  @Column('text', { array: true }) permissions: string[];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}

@Entity('store_products')
export class StoreProduct {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'store_id' }) storeId: string;
  @Column('text') title: string;
  @Column('text') description: string;
  @Column('text') status: 'active' | 'draft' | 'archived';
  @Column('uuid', { name: 'created_by_account_id' }) createdByAccountId: string;
  @Column('uuid', { name: 'created_by_key_id', nullable: true }) createdByKeyId: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}

@Entity('store_variants')
export class StoreVariant {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'product_id' }) productId: string;
  @Column('uuid', { name: 'store_id' }) storeId: string;
  @Column('text') sku: string;
  @Column('text') title: string;
  @Column('bigint', { name: 'price_minor', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } }) priceMinor: number;
  @Column('char', { length: 3 }) currency: string;
  @Column('integer') stock: number;
  @Column('integer') position: number;
}
