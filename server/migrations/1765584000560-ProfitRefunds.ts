import { sqlMigration } from './sql-migration';

/**
 * The profit report's deltas and sums carry the shoppers' refunds as their own figure (docs/decisions.md, "Refunds in
 * the profit report"): already taken out of `revenue_minor`, as supplier credits are out of the landed cost. A
 * payment's fee and refund are split to the order's parts and their products (docs/decisions.md, "The fee split").
 */
export const ProfitRefunds1765584000560 = sqlMigration('ProfitRefunds1765584000560', {
  up: [
    'ALTER TABLE profit_deltas ADD COLUMN refund_minor bigint NOT NULL DEFAULT 0',
    'ALTER TABLE profit_sums ADD COLUMN refund_minor bigint NOT NULL DEFAULT 0',
  ],
  down: ['ALTER TABLE profit_sums DROP COLUMN refund_minor', 'ALTER TABLE profit_deltas DROP COLUMN refund_minor'],
});
