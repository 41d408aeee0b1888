import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The price an import job charges per product, taken from the route when the job is made. Jobs made before
 * this column were priced at 2 credits a product.
 */
export class ImportJobCredit1764374400000 implements MigrationInterface {
  name = 'ImportJobCredit1764374400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE import_jobs ADD COLUMN credit jsonb NOT NULL DEFAULT '{"action": "supplierProduct.import", "price": 2}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE import_jobs DROP COLUMN credit');
  }
}
