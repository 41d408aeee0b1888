import { sqlMigration } from './sql-migration';

/**
 * The price an import job charges per product, taken from the route when the job is made. Jobs made before
 * this column were priced at 2 credits a product.
 */
export const ImportJobCredit1764374400000 = sqlMigration('ImportJobCredit1764374400000', {
  up: [
    `ALTER TABLE import_jobs ADD COLUMN credit jsonb NOT NULL DEFAULT '{"action": "supplierProduct.import", "price": 2}'`,
  ],
  down: ['ALTER TABLE import_jobs DROP COLUMN credit'],
});
