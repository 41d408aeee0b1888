import { sqlMigration } from './sql-migration';

/**
 * Supplier credits (docs/decisions.md, "Supplier credits"): money a supplier gives back on a part (a claim refunded,
 * a cancel refunded), in its currency and the store's at a recorded rate (rate, source, day). Recorded once per
 * cause (`kind`, `source_key`: a unique index, not a check two writes could both pass). `counted`: it reduced the
 * part's landed cost in its profit and the report's sums (a live part with a landed cost, in the store's currency).
 */
export const SupplierCredits1765584000541 = sqlMigration('SupplierCredits1765584000541', {
  up: [
    `CREATE TABLE supplier_credits (
       store_id uuid NOT NULL,
       id uuid NOT NULL,
       supplier_order_id uuid NOT NULL,
       order_id uuid NOT NULL,
       kind text NOT NULL CHECK (kind IN ('claimRefund', 'cancelRefund')),
       source_key text NOT NULL,
       amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
       currency text NOT NULL,
       store_amount_minor bigint,
       store_currency text NOT NULL,
       rate text,
       rate_source text,
       rate_as_of date,
       counted boolean NOT NULL,
       recorded_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (store_id, id),
       UNIQUE (store_id, kind, source_key),
       FOREIGN KEY (store_id, supplier_order_id) REFERENCES supplier_orders (store_id, id) ON DELETE CASCADE
     )`,
    'CREATE INDEX supplier_credits_part_idx ON supplier_credits (store_id, supplier_order_id)',
  ],
  down: ['DROP TABLE supplier_credits'],
});
