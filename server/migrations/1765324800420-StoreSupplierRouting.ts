import { sqlMigration } from './sql-migration';

/**
 * The store's routing rule (docs/decisions.md, "Routing rule"): how a part's supplier is chosen among its link's
 * primary and alternates. One row per store that set one; a store without a row routes to the primary, as before.
 */
export const StoreSupplierRouting1765324800420 = sqlMigration('StoreSupplierRouting1765324800420', {
  up: [
    `CREATE TABLE store_supplier_routing (
       store_id uuid PRIMARY KEY REFERENCES stores (id) ON DELETE CASCADE,
       routing jsonb NOT NULL CHECK (routing->>'rule' IN ('primary', 'lowestLandedCost', 'fastest')),
       updated_at timestamptz NOT NULL DEFAULT now()
     )`,
  ],
  down: ['DROP TABLE store_supplier_routing'],
});
