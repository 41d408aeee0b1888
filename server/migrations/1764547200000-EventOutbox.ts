import { sqlMigration } from './sql-migration';

/**
 * Events to developers, written by each domain in the transaction of the change they report (an outbox). `seq`
 * orders them: one resource's events get their numbers in the order they commit (each writer holds the resource's
 * row lock), which is what delivery in order per resource rests on; `created_at` is the clock at the write, after that
 * lock, so it grows along a resource's events too. Rows wait for fan-out to the subscriptions.
 */
export const EventOutbox1764547200000 = sqlMigration('EventOutbox1764547200000', {
  up: [
    `
      CREATE TABLE event_outbox (
        seq bigserial PRIMARY KEY,
        id uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
        store_id uuid NOT NULL,
        type text NOT NULL,
        resource_key text NOT NULL,
        record_key_id uuid,
        snapshot jsonb NOT NULL,
        fanned_out boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      CREATE INDEX event_outbox_waiting ON event_outbox (seq) WHERE NOT fanned_out;
      CREATE INDEX event_outbox_created ON event_outbox (created_at);
    `,
  ],
  down: ['DROP TABLE event_outbox'],
});
