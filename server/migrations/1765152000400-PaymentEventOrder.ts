import { sqlMigration } from './sql-migration';

const REASONS_BEFORE = `'paymentFailedAfterPaid', 'refundedAfterPaid'`;
const REASONS = `${REASONS_BEFORE}, 'paymentFailedAfterSupplierPaid', 'refundedAfterSupplierPaid', 'captureRefusedAfterShipped', 'paymentDisputed'`;
const KINDS_BEFORE = `'authorised', 'paid', 'failed', 'refunded', 'captured', 'captureFailed', 'captureRequested'`;

/**
 * Payment events in the provider's order (issue 40): each provider event keeps when the provider says it happened and
 * the payment's version there; `applied` says whether it moved the status, `stale` that a later event was applied
 * first. The order keeps the provider's payment it was authorised (or paid) on, which is the one a capture takes.
 * A shopper's dispute of a charge (`disputed`) is recorded and needs a person. A person acknowledges a payment needing attention with a note (`attentionAcknowledged`, with the reason cleared).
 */
export const PaymentEventOrder1765152000400 = sqlMigration('PaymentEventOrder1765152000400', {
  up: [
    `ALTER TABLE payment_events ADD COLUMN provider_occurred_at timestamptz, ADD COLUMN provider_version integer,
       ADD COLUMN applied boolean, ADD COLUMN stale boolean NOT NULL DEFAULT false, ADD COLUMN note text, ADD COLUMN attention text`,
    `UPDATE payment_events SET applied = true, provider_occurred_at = created_at WHERE source = 'provider'`,
    `ALTER TABLE payment_events DROP CONSTRAINT payment_events_kind_check,
       ADD CONSTRAINT payment_events_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'disputed', 'attentionAcknowledged'))`,
    `ALTER TABLE store_orders ADD COLUMN payment_reference text`,
    `UPDATE store_orders o SET payment_reference = (SELECT e.reference FROM payment_events e WHERE e.store_id = o.store_id AND e.order_id = o.id AND e.source = 'provider'
        AND e.kind IN ('authorised', 'paid') AND e.reference IS NOT NULL ORDER BY e.id LIMIT 1) WHERE o.payment_status IN ('authorised', 'paid')`,
    `ALTER TABLE store_orders DROP CONSTRAINT store_orders_payment_attention_check,
       ADD CONSTRAINT store_orders_payment_attention_check CHECK (payment_attention IN (${REASONS}))`,
  ],
  down: [
    // Every store at once, by design: an operator reverting a release (docs/scaling.md, "migration-revert").
    `UPDATE /* cross-store: migration-revert */ store_orders SET payment_attention = 'paymentFailedAfterPaid' WHERE payment_attention IN ('paymentFailedAfterSupplierPaid', 'captureRefusedAfterShipped', 'paymentDisputed')`,
    `UPDATE /* cross-store: migration-revert */ store_orders SET payment_attention = 'refundedAfterPaid' WHERE payment_attention = 'refundedAfterSupplierPaid'`,
    `ALTER TABLE store_orders DROP CONSTRAINT store_orders_payment_attention_check,
       ADD CONSTRAINT store_orders_payment_attention_check CHECK (payment_attention IN (${REASONS_BEFORE}))`,
    'ALTER TABLE store_orders DROP COLUMN payment_reference',
    `DELETE /* cross-store: migration-revert */ FROM payment_events WHERE kind IN ('disputed', 'attentionAcknowledged')`,
    `ALTER TABLE payment_events DROP CONSTRAINT payment_events_kind_check, ADD CONSTRAINT payment_events_kind_check CHECK (kind IN (${KINDS_BEFORE}))`,
    'ALTER TABLE payment_events DROP COLUMN provider_occurred_at, DROP COLUMN provider_version, DROP COLUMN applied, DROP COLUMN stale, DROP COLUMN note, DROP COLUMN attention',
  ],
});
