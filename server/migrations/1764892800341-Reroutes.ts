import { sqlMigration } from './sql-migration';

const STEP_DUE = (reroute: boolean) => `
  ALTER TABLE supplier_orders ADD COLUMN step_due boolean GENERATED ALWAYS AS (
    cancel_requested
    OR status = 'queued'
    OR (status = 'submitted' AND payment_status = 'unpaid' AND (payment_due OR pay_requested))
    OR (contract_model = 'promiseToSell' AND payment_status = 'paid' AND NOT capture_requested
        AND status IN ('confirmed', 'processing', 'shipped', 'delivered'))${reroute ? `
    OR (status = 'needsReview' AND reroute_request IS NOT NULL)` : ''}
  ) STORED;
  CREATE INDEX supplier_orders_step_due_idx ON supplier_orders (updated_at) WHERE step_due;`;

/**
 * Rerouting to backup suppliers: a paused supplier order may carry a reroute request (a rule's or a person's), which
 * makes a step due (`step_due` gains it); the alternates already tried for its items travel with them
 * (`reroute_tried`), and a rerouted order names the supplier order that took its items (`rerouted_to`).
 */
export const Reroutes1764892800341 = sqlMigration('Reroutes1764892800341', {
  up: [
    `ALTER TABLE supplier_orders ADD COLUMN reroute_request jsonb, ADD COLUMN reroute_tried jsonb NOT NULL DEFAULT '[]', ADD COLUMN rerouted_to uuid`,
    'ALTER TABLE supplier_orders DROP COLUMN step_due',
    STEP_DUE(true),
  ],
  down: ['ALTER TABLE supplier_orders DROP COLUMN step_due', STEP_DUE(false), 'ALTER TABLE supplier_orders DROP COLUMN reroute_request, DROP COLUMN reroute_tried, DROP COLUMN rerouted_to'],
});
