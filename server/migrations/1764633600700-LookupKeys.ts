import { sqlMigration } from './sql-migration';

/** The database's stable lookup keys (digests of keys and sessions, supplier account keys), sealed under the keyring: one row. */
export const LookupKeys1764633600700 = sqlMigration('LookupKeys1764633600700', {
  up: [
    `CREATE TABLE lookup_keys (
      id smallint PRIMARY KEY CHECK (id = 1),
      sealed text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
  ],
  down: ['DROP TABLE lookup_keys'],
});
