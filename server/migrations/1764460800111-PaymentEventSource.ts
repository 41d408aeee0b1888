import { sqlMigration } from './sql-migration';

/**
 * Who said a payment happened: the payment provider (a signed notification, with its event id, which is unique per
 * order so a repeated event is recorded once), a staff member by hand (`manual`, with who), or the service itself
 * (a promise-to-sell capture). Events recorded before came from a merchant route, so they are `manual`.
 */
export const PaymentEventSource1764460800111 = sqlMigration('PaymentEventSource1764460800111', {
  up: [
    `
      ALTER TABLE payment_events
        ADD COLUMN source text NOT NULL DEFAULT 'provider' CHECK (source IN ('provider', 'manual', 'service')),
        ADD COLUMN provider_event_id text,
        ADD COLUMN actor jsonb;
      UPDATE payment_events SET source = CASE WHEN kind IN ('captured', 'captureFailed') THEN 'service' ELSE 'manual' END;
      CREATE UNIQUE INDEX payment_events_provider_event_idx ON payment_events (order_id, provider_event_id) WHERE provider_event_id IS NOT NULL`,
  ],
  down: [
    'DROP INDEX payment_events_provider_event_idx; ALTER TABLE payment_events DROP COLUMN source, DROP COLUMN provider_event_id, DROP COLUMN actor',
  ],
});
