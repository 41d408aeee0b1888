import { sqlMigration } from './sql-migration';

/** Which supplier account a connection is on (a keyed digest of the supplier's own id), so connections on one account share its notifications. */
export const SupplierAccountKey1764201600180 = sqlMigration('SupplierAccountKey1764201600180', {
  up: [
    'ALTER TABLE supplier_connections ADD COLUMN supplier_account_key text',
    'CREATE INDEX supplier_connections_account_idx ON supplier_connections (supplier_account_key) WHERE disconnected_at IS NULL',
  ],
  down: [
    'DROP INDEX supplier_connections_account_idx',
    'ALTER TABLE supplier_connections DROP COLUMN supplier_account_key',
  ],
});
