import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../platform/entity-columns';

// The one entity left of the stores domain: the orders domain still reads variants through a TypeORM
// repository until it reads them through stores' sql.ts (variantsInStore; issue 24). The domain's own code
// uses ./types.ts.
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
