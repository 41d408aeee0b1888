import { sqlMigration } from './sql-migration';

/**
 * A supplier's order ids under our order numbers, per connection: kept for adapters whose supplier cannot look an
 * order up by our number (AliExpress), so a later look-up finds the order it made.
 */
export const SupplierOrderNumbers1764460800250 = sqlMigration('SupplierOrderNumbers1764460800250', {
  up: [
    `
      CREATE TABLE supplier_order_numbers (
        connection_id uuid NOT NULL REFERENCES supplier_connections(id) ON DELETE CASCADE,
        order_number text NOT NULL,
        supplier_order_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (connection_id, order_number)
      )
    `,
  ],
  down: ['DROP TABLE supplier_order_numbers'],
});
