import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The safety net's bookkeeping: when it last asked for a read-back of a supplier order, so an order the
 * supplier cannot answer for is asked once an interval, not every sweep. The sweep finds open orders by
 * the later of that and their last change, oldest first.
 */
export class ReadBackAskedAt1764201600181 implements MigrationInterface {
  name = 'ReadBackAskedAt1764201600181';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE supplier_orders ADD COLUMN read_back_asked_at timestamptz');
    await q.query(
      `CREATE INDEX supplier_orders_read_back_due_idx ON supplier_orders ((GREATEST(updated_at, read_back_asked_at)))
        WHERE status IN ('submitted', 'confirmed', 'processing', 'shipped', 'needsReview') AND supplier_order_id IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX supplier_orders_read_back_due_idx');
    await q.query('ALTER TABLE supplier_orders DROP COLUMN read_back_asked_at');
  }
}
