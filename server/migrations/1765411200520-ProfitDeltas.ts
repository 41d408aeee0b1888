import { sqlMigration } from './sql-migration';

/**
 * What changes the profit report's kept sums, appended (docs/decisions.md, "The profit report's sums without a hot
 * row"): one row per part's recorded change or fee, which no other write waits on, folded into profit_sums (and
 * profit_order_keys) by the workers; the report adds the rows not folded yet. A fee's row has no product nor connection.
 */
export const ProfitDeltas1765411200520 = sqlMigration('ProfitDeltas1765411200520', {
  up: [
    `CREATE TABLE profit_deltas (
       store_id uuid NOT NULL,
       order_id uuid NOT NULL,
       day date NOT NULL,
       product_key text,
       product_label text,
       connection_id uuid,
       entered boolean NOT NULL DEFAULT false,
       parts integer NOT NULL DEFAULT 0,
       revenue_minor bigint NOT NULL DEFAULT 0,
       landed_cost_minor bigint NOT NULL DEFAULT 0,
       payment_fee_minor bigint NOT NULL DEFAULT 0,
       incomplete_parts integer NOT NULL DEFAULT 0,
       FOREIGN KEY (store_id, order_id) REFERENCES store_orders (store_id, id) ON DELETE CASCADE
     )`,
    'CREATE INDEX profit_deltas_day_idx ON profit_deltas (store_id, day)',
  ],
  down: ['DROP TABLE profit_deltas'],
});
