import { MigrationInterface, QueryRunner } from 'typeorm';

/** The notification address last registered with the supplier, so a changed public address is registered again. */
export class RegisteredNotificationAddress1764115200000 implements MigrationInterface {
  name = 'RegisteredNotificationAddress1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE supplier_connections ADD COLUMN registered_webhook_url text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE supplier_connections DROP COLUMN registered_webhook_url');
  }
}
