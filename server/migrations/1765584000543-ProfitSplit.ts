import { sqlMigration } from './sql-migration';

/**
 * The profit report's deltas and sums carry supplier credits as their own figure (docs/decisions.md, "Supplier
 * credits"), and a part's deltas are split by item (docs/decisions.md, "A part of several products"): a `split` row is
 * one product's share of a part, counted in the product grouping only; the part's own row (no product) is counted by
 * day and connection.
 */
export const ProfitSplit1765584000543 = sqlMigration('ProfitSplit1765584000543', {
  up: [
    'ALTER TABLE profit_deltas ADD COLUMN supplier_credit_minor bigint NOT NULL DEFAULT 0, ADD COLUMN split boolean NOT NULL DEFAULT false',
    'ALTER TABLE profit_sums ADD COLUMN supplier_credit_minor bigint NOT NULL DEFAULT 0',
  ],
  down: ['ALTER TABLE profit_sums DROP COLUMN supplier_credit_minor', 'ALTER TABLE profit_deltas DROP COLUMN supplier_credit_minor, DROP COLUMN split'],
});
