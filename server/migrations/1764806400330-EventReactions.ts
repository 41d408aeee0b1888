import { sqlMigration } from './sql-migration';

/**
 * The service's own reactions to events (dispatch sending a part once its order is confirmed), made by fan-out like
 * the deliveries to subscriptions and claimed by the same loop under a lease: one row per event and handler while it
 * is pending, kept as failed once given up. Replaces the job queue `events.store-order`.
 */
export const EventReactions1764806400330 = sqlMigration('EventReactions1764806400330', {
  up: [
    `
      CREATE TABLE event_reactions (
        id bigserial PRIMARY KEY, event_seq bigint NOT NULL REFERENCES event_outbox(seq) ON DELETE CASCADE,
        handler text NOT NULL, resource_key text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        pending_since timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (event_seq, handler)
      );
      CREATE INDEX event_reactions_due ON event_reactions (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX event_reactions_order ON event_reactions (handler, resource_key, event_seq) WHERE status = 'pending';
    `,
  ],
  down: ['DROP TABLE event_reactions'],
});
