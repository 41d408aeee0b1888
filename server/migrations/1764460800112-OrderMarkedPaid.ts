import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a staff member marked the order paid by hand. Kept apart from `payment_status`, which only the payment
 * provider's signed events move: dispatch reads that one for automatic supplier payment.
 */
export class OrderMarkedPaid1764460800112 implements MigrationInterface {
  name = 'OrderMarkedPaid1764460800112';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE store_orders ADD COLUMN marked_paid_at timestamptz');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE store_orders DROP COLUMN marked_paid_at');
  }
}
