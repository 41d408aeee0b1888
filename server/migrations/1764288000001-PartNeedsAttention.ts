import { sqlMigration } from './sql-migration';

/** An order part says itself whether it needs attention, so the orders domain never reads supplier orders. */
export const PartNeedsAttention1764288000001 = sqlMigration('PartNeedsAttention1764288000001', {
  up: [
    `
      ALTER TABLE fulfilment_groups ADD COLUMN needs_attention boolean NOT NULL DEFAULT false;
      UPDATE fulfilment_groups g SET needs_attention = true
        FROM supplier_orders s
       WHERE s.order_id = g.order_id AND s.group_key = g.group_key AND s.status IN ('needsReview', 'failed');
    `,
  ],
  down: ['ALTER TABLE fulfilment_groups DROP COLUMN needs_attention'],
});
