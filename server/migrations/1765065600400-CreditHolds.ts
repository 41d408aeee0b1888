import { sqlMigration } from './sql-migration';

/**
 * Credits charged before a request's work, held until the request ends: its work marks the units it spent in the
 * transactions that do it, its end refunds the rest and removes the hold, and a hold whose request stopped renewing
 * its lease (the process died) is refunded the same way by the sweep (docs/decisions.md, "Credits").
 */
export const CreditHolds1765065600400 = sqlMigration('CreditHolds1765065600400', {
  up: [
    `CREATE TABLE credit_holds (
       id uuid NOT NULL,
       account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
       api_key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL,
       action text NOT NULL,
       price integer NOT NULL CHECK (price > 0),
       units integer NOT NULL CHECK (units > 0),
       units_spent integer NOT NULL DEFAULT 0,
       request_id text,
       lease_until timestamptz NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (account_id, id),
       CHECK (units_spent BETWEEN 0 AND units)
     )`,
    'CREATE INDEX credit_holds_lease_idx ON credit_holds (lease_until)',
  ],
  down: ['DROP TABLE credit_holds'],
});
