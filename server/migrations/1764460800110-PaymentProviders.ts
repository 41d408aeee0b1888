import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each store's payment provider and the secret its notifications are signed with (sealed under APP_SECRET). */
export class PaymentProviders1764460800110 implements MigrationInterface {
  name = 'PaymentProviders1764460800110';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_providers (
        store_id uuid PRIMARY KEY REFERENCES stores(id) ON DELETE CASCADE,
        provider text NOT NULL,
        signing_secret_sealed text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE payment_providers');
  }
}
