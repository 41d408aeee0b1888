import { sqlMigration } from './sql-migration';

/**
 * An order item keeps the cost its link had when the order was taken, and that cost's currency: the anchor of every
 * reroute's cost ceiling (`link_cost_minor` follows the item to each alternate). Items of earlier orders take their
 * link cost and their link's currency now (the best still known).
 */
export const OrderItemRecordedCost1765152000410 = sqlMigration('OrderItemRecordedCost1765152000410', {
  up: [
    'ALTER TABLE store_order_items ADD COLUMN recorded_cost_minor bigint, ADD COLUMN recorded_currency text',
    `UPDATE store_order_items i SET recorded_cost_minor = i.link_cost_minor, recorded_currency = lv.currency
       FROM product_link_variants lv WHERE lv.store_id = i.store_id AND lv.store_variant_id = i.variant_id AND i.link_cost_minor IS NOT NULL`,
  ],
  down: ['ALTER TABLE store_order_items DROP COLUMN recorded_cost_minor, DROP COLUMN recorded_currency'],
});
