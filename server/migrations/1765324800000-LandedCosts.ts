import { sqlMigration } from './sql-migration';

/**
 * A part's landed cost (items and the chosen shipping service), recorded at confirmation, at the supplier's acceptance
 * and at payment (docs/decisions.md, "Landed cost and profit"): in the supplier's currency and in the store's, with the
 * rate, its source and as-of day. One row per stage, never rewritten; a profit report sums these rows.
 * Links gain a per-variant maximum buy price; payment events gain the provider's fee when it reports one.
 */
export const LandedCosts1765324800000 = sqlMigration('LandedCosts1765324800000', {
  up: [
    `CREATE TABLE landed_costs (
       store_id uuid NOT NULL,
       supplier_order_id uuid NOT NULL,
       stage text NOT NULL CHECK (stage IN ('confirmation', 'accepted', 'paid')),
       order_id uuid NOT NULL,
       connection_id uuid NOT NULL,
       currency text NOT NULL,
       items_minor bigint NOT NULL,
       shipping_minor bigint,
       total_minor bigint NOT NULL,
       store_currency text NOT NULL,
       store_total_minor bigint NOT NULL,
       rate text NOT NULL,
       rate_source text NOT NULL,
       rate_as_of date NOT NULL,
       recorded_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (store_id, supplier_order_id, stage),
       FOREIGN KEY (store_id, supplier_order_id) REFERENCES supplier_orders (store_id, id) ON DELETE CASCADE
     )`,
    // The sweeper's look for parts waiting on a rate (every store): only those rows are in it.
    `CREATE INDEX supplier_orders_rate_wait_idx ON supplier_orders (updated_at) WHERE status = 'needsReview' AND review_reason = 'exchangeRateUnavailable'`,
    'ALTER TABLE product_link_variants ADD COLUMN max_buy_price_minor bigint CHECK (max_buy_price_minor >= 0), ADD COLUMN max_buy_price_currency text',
    'ALTER TABLE payment_events ADD COLUMN fee_minor bigint, ADD COLUMN fee_currency text',
  ],
  down: [
    'ALTER TABLE payment_events DROP COLUMN fee_minor, DROP COLUMN fee_currency',
    'ALTER TABLE product_link_variants DROP COLUMN max_buy_price_minor, DROP COLUMN max_buy_price_currency',
    'DROP INDEX supplier_orders_rate_wait_idx',
    'DROP TABLE landed_costs',
  ],
});
