import { sqlMigration } from './sql-migration';

/**
 * The delivery watch of sent orders (docs/decisions.md, "The delivery watch"): what the supplier reported of the
 * parcel's journey and the delivery attention it raised (`delivery`), when the watch next has a threshold to look at
 * (`delivery_due_at`: the sweep's index holds only those rows), and whether a person is needed (`needs_attention`, the
 * list's filter). A reship's supplier order names the claim it replaces goods of (`reship_of`).
 */
export const DeliveryWatch1765497600000 = sqlMigration('DeliveryWatch1765497600000', {
  up: [
    'ALTER TABLE supplier_orders ADD COLUMN delivery jsonb, ADD COLUMN delivery_due_at timestamptz, ADD COLUMN needs_attention boolean NOT NULL DEFAULT false, ADD COLUMN reship_of jsonb',
    'CREATE INDEX supplier_orders_delivery_due_idx ON supplier_orders (delivery_due_at) WHERE delivery_due_at IS NOT NULL',
    'CREATE INDEX supplier_orders_needs_attention_idx ON supplier_orders (store_id, created_at) WHERE needs_attention',
  ],
  down: [
    'DROP INDEX supplier_orders_needs_attention_idx',
    'DROP INDEX supplier_orders_delivery_due_idx',
    'ALTER TABLE supplier_orders DROP COLUMN delivery, DROP COLUMN delivery_due_at, DROP COLUMN needs_attention, DROP COLUMN reship_of',
  ],
});
