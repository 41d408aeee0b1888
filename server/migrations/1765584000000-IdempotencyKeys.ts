import { sqlMigration } from './sql-migration';

/**
 * Callers' idempotency keys (docs/decisions.md, "Idempotency keys (issue 56)"): one row per caller and key, the
 * request's fingerprint, the lease of the request running under it, what its create made (written in the create's own
 * transaction) and its answer, sealed. By account, as the credit ledger is (one group under Citus). Kept at least 24 hours; the hourly housekeeping removes older ones.
 */
export const IdempotencyKeys1765584000000 = sqlMigration('IdempotencyKeys1765584000000', {
  up: [
    `CREATE TABLE idempotency_keys (
       account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
       scope text NOT NULL,
       key text NOT NULL,
       fingerprint text NOT NULL,
       token uuid NOT NULL,
       lease_until timestamptz NOT NULL,
       made_ref text,
       answer_status integer,
       answer_sealed text,
       created_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (account_id, scope, key),
       CHECK ((answer_status IS NULL) = (answer_sealed IS NULL))
     )`,
    'CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)',
  ],
  down: ['DROP TABLE idempotency_keys'],
});
