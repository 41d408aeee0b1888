import { MigrationInterface, QueryRunner } from 'typeorm';

/** The next free call slot per supplier account (or connection): a rate limit that every process on the database shares. */
export class SupplierCallRates1764288000003 implements MigrationInterface {
  name = 'SupplierCallRates1764288000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE supplier_call_rates (
        rate_key text PRIMARY KEY,
        next_at timestamptz NOT NULL
      )
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE supplier_call_rates');
  }
}
