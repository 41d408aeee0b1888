import { sqlMigration } from './sql-migration';

/**
 * The currency of an item's `link_cost_minor`: a move to an alternate in another currency writes the alternate's cost
 * and its currency together, so no check reads one currency's cents as another's (issue 51). Null on items no move
 * touched: their link cost is in `recorded_currency`.
 */
export const OrderItemLinkCurrency1765411200100 = sqlMigration('OrderItemLinkCurrency1765411200100', {
  up: ['ALTER TABLE store_order_items ADD COLUMN link_currency text'],
  down: ['ALTER TABLE store_order_items DROP COLUMN link_currency'],
});
