import { sqlMigration } from './sql-migration';

/**
 * The supplier orders a part left before this one (routed or rerouted away), each with how its supplier was shown to
 * hold none: no machine sends the part back to them, and one shown so by a look-up is asked again before this order's
 * first create (docs/decisions.md, "One sourcing decision").
 */
export const SupplierOrderEarlier1765411200110 = sqlMigration('SupplierOrderEarlier1765411200110', {
  up: ['ALTER TABLE supplier_orders ADD COLUMN earlier jsonb'],
  down: ['ALTER TABLE supplier_orders DROP COLUMN earlier'],
});
