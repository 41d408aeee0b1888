import { sqlMigration } from './sql-migration';

/** Where shoppers pay the store's orders at its payment provider (a hosted checkout), when the store gave it. */
export const PaymentProviderCheckout1764460800270 = sqlMigration('PaymentProviderCheckout1764460800270', {
  up: ['ALTER TABLE payment_providers ADD COLUMN checkout_url text'],
  down: ['ALTER TABLE payment_providers DROP COLUMN checkout_url'],
});
