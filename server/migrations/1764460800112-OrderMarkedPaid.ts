import { sqlMigration } from './sql-migration';

/**
 * When a staff member marked the order paid by hand. Kept apart from `payment_status`, which only the payment
 * provider's signed events move: dispatch reads that one for automatic supplier payment.
 */
export const OrderMarkedPaid1764460800112 = sqlMigration('OrderMarkedPaid1764460800112', {
  up: ['ALTER TABLE store_orders ADD COLUMN marked_paid_at timestamptz'],
  down: ['ALTER TABLE store_orders DROP COLUMN marked_paid_at'],
});
