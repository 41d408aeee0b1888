import { sqlMigration } from './sql-migration';

export const FOLLOW_PARTS = (attention: string) => `
  CREATE OR REPLACE FUNCTION store_order_follow_parts() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE o uuid := COALESCE(NEW.order_id, OLD.order_id);
  BEGIN
    UPDATE store_orders s
       SET status = store_order_status_from_parts(s.id, s.confirmed_at IS NOT NULL),
           needs_attention = EXISTS (SELECT 1 FROM fulfilment_groups g WHERE g.order_id = s.id AND g.needs_attention)${attention},
           updated_at = now()
     WHERE s.id = o;
    RETURN NULL;
  END $$;`;

/**
 * Promise to sell through the payment provider. The store's provider settings keep the provider's API key (sealed),
 * which the service needs to ask for a capture. A supplier order records that the capture was asked
 * (`capture_requested`, was `shopper_captured`): earlier versions wrote "captured" without asking the provider, so
 * those captures are asked now, and the orders they marked paid go back to what the provider said (authorised).
 * A payment the provider fails or refunds after it was paid needs a person (`payment_attention`), which the store
 * order's needs-attention flag includes.
 */
export const CaptureThroughProvider1764633600500 = sqlMigration('CaptureThroughProvider1764633600500', {
  up: [
    'ALTER TABLE payment_providers ADD COLUMN api_key_sealed text',
    'ALTER TABLE supplier_orders RENAME COLUMN shopper_captured TO capture_requested',
    `UPDATE supplier_orders SET capture_requested = false WHERE contract_model = 'promiseToSell' AND capture_requested`,
    `UPDATE store_orders o SET payment_status = 'authorised', updated_at = now()
      WHERE contract_model = 'promiseToSell' AND payment_status = 'paid'
        AND EXISTS (SELECT 1 FROM payment_events e WHERE e.order_id = o.id AND e.source = 'service' AND e.kind = 'captured')
        AND NOT EXISTS (SELECT 1 FROM payment_events e WHERE e.order_id = o.id AND e.source = 'provider' AND e.kind IN ('paid', 'refunded'))`,
    `ALTER TABLE payment_events DROP CONSTRAINT payment_events_kind_check,
       ADD CONSTRAINT payment_events_kind_check CHECK (kind IN ('authorised', 'paid', 'failed', 'refunded', 'captured', 'captureFailed', 'captureRequested'))`,
    `ALTER TABLE store_orders ADD COLUMN payment_attention text CHECK (payment_attention IN ('paymentFailedAfterPaid', 'refundedAfterPaid')),
       ADD COLUMN payment_attention_at timestamptz`,
    FOLLOW_PARTS(' OR s.payment_attention IS NOT NULL'),
  ],
  down: [
    FOLLOW_PARTS(''),
    'ALTER TABLE store_orders DROP COLUMN payment_attention, DROP COLUMN payment_attention_at',
    `DELETE FROM payment_events WHERE kind = 'captureRequested'`,
    `ALTER TABLE payment_events DROP CONSTRAINT payment_events_kind_check,
       ADD CONSTRAINT payment_events_kind_check CHECK (kind IN ('authorised', 'paid', 'failed', 'refunded', 'captured', 'captureFailed'))`,
    'ALTER TABLE supplier_orders RENAME COLUMN capture_requested TO shopper_captured',
    'ALTER TABLE payment_providers DROP COLUMN api_key_sealed',
  ],
});
