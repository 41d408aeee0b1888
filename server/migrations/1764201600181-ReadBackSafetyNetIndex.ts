import { MigrationInterface, QueryRunner } from 'typeorm';

/** The safety net's sweep finds open supplier orders by when they were last touched, oldest first. */
export class ReadBackSafetyNetIndex1764201600181 implements MigrationInterface {
  name = 'ReadBackSafetyNetIndex1764201600181';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX supplier_orders_readback_due_idx ON supplier_orders (updated_at)
        WHERE status IN ('submitted', 'confirmed', 'processing', 'shipped', 'needsReview') AND supplier_order_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX supplier_orders_readback_due_idx');
  }
}
