import { sqlMigration } from './sql-migration';

/** The notification address last registered with the supplier, so a changed public address is registered again. */
export const RegisteredNotificationAddress1764115200000 = sqlMigration('RegisteredNotificationAddress1764115200000', {
  up: ['ALTER TABLE supplier_connections ADD COLUMN registered_webhook_url text'],
  down: ['ALTER TABLE supplier_connections DROP COLUMN registered_webhook_url'],
});
