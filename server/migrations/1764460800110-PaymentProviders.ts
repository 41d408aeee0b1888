import { sqlMigration } from './sql-migration';

/** Each store's payment provider and the secret its notifications are signed with (sealed under APP_SECRET). */
export const PaymentProviders1764460800110 = sqlMigration('PaymentProviders1764460800110', {
  up: [
    `
      CREATE TABLE payment_providers (
        store_id uuid PRIMARY KEY REFERENCES stores(id) ON DELETE CASCADE, provider text NOT NULL,
        signing_secret_sealed text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
  ],
  down: ['DROP TABLE payment_providers'],
});
