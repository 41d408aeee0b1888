import { sqlMigration } from './sql-migration';

/**
 * One row per event and subscription: its attempts, the last answer, and when it is next due. A worker claims a
 * pending row with a lease (`leased_until`), so one that dies mid-delivery leaves it to be sent again once it lapses.
 */
export const EventDeliveries1764547200002 = sqlMigration('EventDeliveries1764547200002', {
  up: [
    `
      CREATE TABLE event_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_seq bigint NOT NULL REFERENCES event_outbox(seq) ON DELETE CASCADE,
        subscription_id uuid NOT NULL REFERENCES event_subscriptions(id) ON DELETE CASCADE,
        resource_key text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        leased_until timestamptz,
        pending_since timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        response_status int,
        last_error text,
        delivered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (event_seq, subscription_id)
      );
      CREATE INDEX event_deliveries_due ON event_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX event_deliveries_chain ON event_deliveries (subscription_id, resource_key, event_seq) WHERE status = 'pending';
      CREATE INDEX event_deliveries_list ON event_deliveries (subscription_id, created_at DESC, id DESC);
    `,
  ],
  down: ['DROP TABLE event_deliveries'],
});
