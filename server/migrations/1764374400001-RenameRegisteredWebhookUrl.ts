import { sqlMigration } from './sql-migration';

/** The address registered with the supplier is a notification address, as the code calls it everywhere else. */
export const RenameRegisteredWebhookUrl1764374400001 = sqlMigration('RenameRegisteredWebhookUrl1764374400001', {
  up: [
    'ALTER TABLE supplier_connections RENAME COLUMN registered_webhook_url TO registered_notification_address',
  ],
  down: [
    'ALTER TABLE supplier_connections RENAME COLUMN registered_notification_address TO registered_webhook_url',
  ],
});
