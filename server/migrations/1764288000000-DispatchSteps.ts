import { sqlMigration } from './sql-migration';

/**
 * What a supplier order still needs, kept on the record: whether payment is due (decided when it is sent, from pay
 * now and the automation of that moment), whether the shopper was charged (promise to sell), and `step_due`, the
 * one definition of "a dispatch step is due" that the sweeper's index and the job's next-step choice share.
 */
export const DispatchSteps1764288000000 = sqlMigration('DispatchSteps1764288000000', {
  up: [
    `
      ALTER TABLE supplier_orders
        ADD COLUMN payment_due boolean NOT NULL DEFAULT false,
        ADD COLUMN shopper_captured boolean NOT NULL DEFAULT false;
      UPDATE supplier_orders SET payment_due = pay_now;
      UPDATE supplier_orders SET shopper_captured = true WHERE contract_model = 'promiseToSell' AND payment_status = 'paid';
      ALTER TABLE supplier_orders ADD COLUMN step_due boolean GENERATED ALWAYS AS (
        cancel_requested
        OR status = 'queued'
        OR (status = 'submitted' AND payment_status = 'unpaid' AND (payment_due OR pay_requested))
        OR (contract_model = 'promiseToSell' AND payment_status = 'paid' AND NOT shopper_captured
            AND status IN ('confirmed', 'processing', 'shipped', 'delivered'))
      ) STORED;
      CREATE INDEX supplier_orders_step_due_idx ON supplier_orders (updated_at) WHERE step_due;
    `,
  ],
  down: [
    'DROP INDEX supplier_orders_step_due_idx',
    'ALTER TABLE supplier_orders DROP COLUMN step_due, DROP COLUMN shopper_captured, DROP COLUMN payment_due',
  ],
});
