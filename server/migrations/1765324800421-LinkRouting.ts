import { sqlMigration } from './sql-migration';

/** A product link's own routing rule, overriding the store's; null (every existing link): the store's rule. */
export const LinkRouting1765324800421 = sqlMigration('LinkRouting1765324800421', {
  up: [`ALTER TABLE product_links ADD COLUMN routing jsonb CHECK (routing IS NULL OR routing->>'rule' IN ('primary', 'lowestLandedCost', 'fastest'))`],
  down: ['ALTER TABLE product_links DROP COLUMN routing'],
});
