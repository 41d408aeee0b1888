import { MigrationInterface, QueryRunner } from 'typeorm';

/** Which supplier account a connection is on (a keyed digest of the supplier's own id), so connections on one account share its notifications. */
export class SupplierAccountKey1764201600180 implements MigrationInterface {
  name = 'SupplierAccountKey1764201600180';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE supplier_connections ADD COLUMN supplier_account_key text');
    await q.query('CREATE INDEX supplier_connections_account_idx ON supplier_connections (supplier_account_key) WHERE disconnected_at IS NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX supplier_connections_account_idx');
    await q.query('ALTER TABLE supplier_connections DROP COLUMN supplier_account_key');
  }
}
