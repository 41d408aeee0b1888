import { sqlMigration } from './sql-migration';

const KINDS_BEFORE = `'authorised', 'paid', 'failed', 'refunded', 'captured', 'captureFailed', 'captureRequested', 'disputed', 'attentionAcknowledged'`;
const STATUSES_BEFORE = `'none', 'authorised', 'paid', 'failed', 'refunded'`;

/**
 * Payments as records of their own (issue 53; docs/decisions.md, "Payments as records (issue 53)"): one row per
 * provider payment of a store order (its reference there, amount, status, what was refunded of it, the version of the
 * last change applied), each event applied to its own payment; the order's status is derived from them, with
 * `partiallyRefunded` and the amount refunded kept on the order. A refund the store asks of the provider is recorded
 * before the provider is called (`refundRequested`), and its refusal too (`refundFailed`). Existing orders get one
 * payment each, from what they knew of it.
 */
export const OrderPaymentRecords1765584000530 = sqlMigration('OrderPaymentRecords1765584000530', {
  up: [
    `CREATE TABLE store_order_payments (
       store_id uuid NOT NULL,
       order_id uuid NOT NULL,
       reference text NOT NULL,
       amount_minor bigint NOT NULL,
       currency text NOT NULL,
       status text NOT NULL CHECK (status IN ('authorised', 'paid', 'partiallyRefunded', 'refunded', 'failed')),
       refunded_minor bigint NOT NULL DEFAULT 0 CHECK (refunded_minor >= 0),
       version integer,
       occurred_at timestamptz NOT NULL,
       disputed boolean NOT NULL DEFAULT false,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at timestamptz NOT NULL DEFAULT now(),
       PRIMARY KEY (store_id, order_id, reference),
       FOREIGN KEY (store_id, order_id) REFERENCES store_orders (store_id, id) ON DELETE CASCADE
     )`,
    `ALTER TABLE store_orders ADD COLUMN refunded_minor bigint NOT NULL DEFAULT 0,
       DROP CONSTRAINT store_orders_payment_status_check,
       ADD CONSTRAINT store_orders_payment_status_check CHECK (payment_status IN (${STATUSES_BEFORE}, 'partiallyRefunded'))`,
    `UPDATE store_orders SET refunded_minor = total_minor WHERE payment_status = 'refunded'`,
    `ALTER TABLE payment_events DROP CONSTRAINT payment_events_kind_check,
       ADD CONSTRAINT payment_events_kind_check CHECK (kind IN (${KINDS_BEFORE}, 'refundRequested', 'refundFailed'))`,
    // Every order the provider reported on: one payment, the one it knew (its reference, else the provider's last named).
    `INSERT INTO store_order_payments (store_id, order_id, reference, amount_minor, currency, status, refunded_minor, version, occurred_at)
     SELECT o.store_id, o.id, coalesce(o.payment_reference, (SELECT e.reference FROM payment_events e WHERE e.store_id = o.store_id AND e.order_id = o.id
              AND e.source = 'provider' AND e.reference IS NOT NULL ORDER BY e.id DESC LIMIT 1), ''),
            o.total_minor, trim(o.currency), o.payment_status, CASE WHEN o.payment_status = 'refunded' THEN o.total_minor ELSE 0 END,
            (SELECT max(e.provider_version) FROM payment_events e WHERE e.store_id = o.store_id AND e.order_id = o.id AND e.source = 'provider' AND e.applied),
            coalesce((SELECT max(e.provider_occurred_at) FROM payment_events e WHERE e.store_id = o.store_id AND e.order_id = o.id AND e.source = 'provider' AND e.applied), o.updated_at)
       FROM store_orders o WHERE o.payment_status <> 'none'`,
  ],
  down: [
    'DROP TABLE store_order_payments',
    `UPDATE /* cross-store: migration-revert */ store_orders SET payment_status = 'paid' WHERE payment_status = 'partiallyRefunded'`,
    `ALTER TABLE store_orders DROP COLUMN refunded_minor, DROP CONSTRAINT store_orders_payment_status_check,
       ADD CONSTRAINT store_orders_payment_status_check CHECK (payment_status IN (${STATUSES_BEFORE}))`,
    `DELETE /* cross-store: migration-revert */ FROM payment_events WHERE kind IN ('refundRequested', 'refundFailed')`,
    `ALTER TABLE payment_events DROP CONSTRAINT payment_events_kind_check, ADD CONSTRAINT payment_events_kind_check CHECK (kind IN (${KINDS_BEFORE}))`,
  ],
});
