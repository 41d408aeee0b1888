import { sqlMigration } from './sql-migration';

/**
 * The rate a link's supplier costs were priced at into the store's currency (docs/decisions.md, "Import in any
 * currency"): the rate as a decimal string, the two currencies, its source and its day, written at import and by
 * every sync that reprices. Null on links whose supplier sells in the store's currency.
 */
export const LinkCostRate1765584000540 = sqlMigration('LinkCostRate1765584000540', {
  up: [
    `ALTER TABLE product_links ADD COLUMN cost_rate text, ADD COLUMN cost_rate_from text, ADD COLUMN cost_rate_to text,
       ADD COLUMN cost_rate_source text CHECK (cost_rate_source IN ('ecb', 'pinned', 'identity')), ADD COLUMN cost_rate_as_of date`,
  ],
  down: ['ALTER TABLE product_links DROP COLUMN cost_rate, DROP COLUMN cost_rate_from, DROP COLUMN cost_rate_to, DROP COLUMN cost_rate_source, DROP COLUMN cost_rate_as_of'],
});
