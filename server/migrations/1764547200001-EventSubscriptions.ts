import { sqlMigration } from './sql-migration';

/** A store's event subscriptions: where events go, which types, and the sealed signing secrets. */
export const EventSubscriptions1764547200001 = sqlMigration('EventSubscriptions1764547200001', {
  up: [
    `
      CREATE TABLE event_subscriptions (
        id uuid PRIMARY KEY, store_id uuid NOT NULL REFERENCES stores(id) ON DELETE CASCADE,
        url text NOT NULL,
        description text,
        event_types text[] NOT NULL,
        secret_sealed text NOT NULL,
        previous_secret_sealed text,
        previous_secret_until timestamptz,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason jsonb,
        last_success_at timestamptz,
        created_by_account_id uuid NOT NULL, created_by_key_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX event_subscriptions_store ON event_subscriptions (store_id, created_at DESC, id DESC);
    `,
  ],
  down: ['DROP TABLE event_subscriptions'],
});
