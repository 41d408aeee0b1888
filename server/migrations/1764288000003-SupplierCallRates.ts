import { sqlMigration } from './sql-migration';

/** The next free call slot per supplier account (or connection): a rate limit that every process on the database shares. */
export const SupplierCallRates1764288000003 = sqlMigration('SupplierCallRates1764288000003', {
  up: [
    `
      CREATE TABLE supplier_call_rates (
        rate_key text PRIMARY KEY,
        next_at timestamptz NOT NULL
      )
    `,
  ],
  down: ['DROP TABLE supplier_call_rates'],
});
