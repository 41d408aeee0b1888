import { sqlMigration } from './sql-migration';

/**
 * An order item keeps its product's title as it was sold, beside the variant's (`title`): a merchant reads "Glass
 * Lamp — Teal / Small", not only the variant. Items of earlier orders take their product's title now; an item whose
 * product was deleted since keeps none (null).
 */
export const OrderItemProductTitle1764720000320 = sqlMigration('OrderItemProductTitle1764720000320', {
  up: [
    'ALTER TABLE store_order_items ADD COLUMN product_title text',
    'UPDATE store_order_items i SET product_title = p.title FROM store_products p WHERE p.id = i.product_id',
  ],
  down: ['ALTER TABLE store_order_items DROP COLUMN product_title'],
});
