import { MigrationInterface, QueryRunner } from 'typeorm';

/** Where shoppers pay the store's orders at its payment provider (a hosted checkout), when the store gave it. */
export class PaymentProviderCheckout1764460800270 implements MigrationInterface {
  name = 'PaymentProviderCheckout1764460800270';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_providers ADD COLUMN checkout_url text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_providers DROP COLUMN checkout_url');
  }
}
