import { sqlMigration } from './sql-migration';

/**
 * The profit report's kept sums (docs/decisions.md, "The profit report"): per store, day (the store order's, UTC) and
 * grouping (`day`, `product`, `connection`) with its key, the parts' revenue, landed cost and the provider's fees in
 * the store's currency, updated in the statements that change them. `profit_order_keys` counts each order once per key.
 */
export const ProfitSums1765324800800 = sqlMigration('ProfitSums1765324800800', {
  up: [
    `CREATE TABLE profit_sums (
       store_id uuid NOT NULL,
       grouping text NOT NULL CHECK (grouping IN ('day', 'product', 'connection')),
       key text NOT NULL,
       day date NOT NULL,
       label text NOT NULL DEFAULT '',
       orders integer NOT NULL DEFAULT 0,
       parts integer NOT NULL DEFAULT 0,
       revenue_minor bigint NOT NULL DEFAULT 0,
       landed_cost_minor bigint NOT NULL DEFAULT 0,
       payment_fee_minor bigint NOT NULL DEFAULT 0,
       incomplete_parts integer NOT NULL DEFAULT 0,
       PRIMARY KEY (store_id, grouping, key, day),
       FOREIGN KEY (store_id) REFERENCES stores (id) ON DELETE CASCADE
     )`,
    // The totals and a day's rows: by day first.
    'CREATE INDEX profit_sums_day_idx ON profit_sums (store_id, grouping, day)',
    `CREATE TABLE profit_order_keys (
       store_id uuid NOT NULL,
       order_id uuid NOT NULL,
       grouping text NOT NULL,
       key text NOT NULL,
       PRIMARY KEY (store_id, order_id, grouping, key),
       FOREIGN KEY (store_id, order_id) REFERENCES store_orders (store_id, id) ON DELETE CASCADE
     )`,
  ],
  down: ['DROP TABLE profit_order_keys', 'DROP TABLE profit_sums'],
});
