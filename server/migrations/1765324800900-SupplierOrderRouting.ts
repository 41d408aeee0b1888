import { sqlMigration } from './sql-migration';

/**
 * The routing choice of a supplier order (issue 42): null until dispatch chose its supplier by a rule other than
 * `primary`; then the rule, the chosen connection and every candidate's quote, kept so a run after a crash between
 * the choice and the create resumes with the same choice (docs/decisions.md "Routing at dispatch").
 */
export const SupplierOrderRouting1765324800900 = sqlMigration('SupplierOrderRouting1765324800900', {
  up: ['ALTER TABLE supplier_orders ADD COLUMN routing jsonb'],
  down: ['ALTER TABLE supplier_orders DROP COLUMN routing'],
});
