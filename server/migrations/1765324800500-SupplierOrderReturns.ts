import { sqlMigration } from './sql-migration';

/**
 * Packages the supplier reports returned to it (Printful's `package_returned`, confirmed by a read-back): each one is
 * recorded once, with a history entry (`packageReturned`) and the event `supplierOrder.returned`.
 */
export const SupplierOrderReturns1765324800500 = sqlMigration('SupplierOrderReturns1765324800500', {
  up: [`ALTER TABLE supplier_orders ADD COLUMN returns jsonb NOT NULL DEFAULT '[]'`],
  down: ['ALTER TABLE supplier_orders DROP COLUMN returns'],
});
