import { sqlMigration } from './sql-migration';

/**
 * Returns on the store's side (docs/decisions.md, "Returns on the store's side"): one row per return of a part's
 * items, with why, the claim it goes with, and the shopper's refund. The refund's key (`refund_key`) is written with
 * the row, before the payment provider is asked, and it is the key the provider is asked under, every time: a retry or
 * a crash refunds once. How many of an item were returned across returns is checked under the part's row lock.
 */
export const PartReturns1765670400317 = sqlMigration('PartReturns1765670400317', {
  up: [
    `CREATE TABLE part_returns (
       store_id uuid NOT NULL,
       id uuid NOT NULL,
       supplier_order_id uuid NOT NULL,
       order_id uuid NOT NULL,
       reason text NOT NULL,
       note text NOT NULL,
       items jsonb NOT NULL,
       claim_id uuid,
       refund_amount_minor bigint CHECK (refund_amount_minor > 0),
       refund_currency text,
       refund_status text CHECK (refund_status IN ('sending', 'requested', 'refused')),
       refund_key text,
       refund_payment_reference text,
       refund_message text,
       refund_requested_at timestamptz,
       created_by_account_id uuid NOT NULL,
       created_by_key_id uuid,
       actor_kind text NOT NULL,
       actor_id text,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (store_id, id),
       UNIQUE (store_id, refund_key),
       CHECK ((refund_amount_minor IS NULL) = (refund_status IS NULL) AND (refund_status IS NULL) = (refund_key IS NULL)),
       FOREIGN KEY (store_id, supplier_order_id) REFERENCES supplier_orders (store_id, id) ON DELETE CASCADE
     )`,
    'CREATE INDEX part_returns_part_idx ON part_returns (store_id, supplier_order_id, created_at)',
  ],
  down: ['DROP TABLE part_returns'],
});
