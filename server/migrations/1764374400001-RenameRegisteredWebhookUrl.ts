import { MigrationInterface, QueryRunner } from 'typeorm';

/** The address registered with the supplier is a notification address, as the code calls it everywhere else. */
export class RenameRegisteredWebhookUrl1764374400001 implements MigrationInterface {
  name = 'RenameRegisteredWebhookUrl1764374400001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE supplier_connections RENAME COLUMN registered_webhook_url TO registered_notification_address');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE supplier_connections RENAME COLUMN registered_notification_address TO registered_webhook_url');
  }
}
