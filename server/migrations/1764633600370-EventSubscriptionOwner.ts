import { sqlMigration } from './sql-migration';

/**
 * A subscription acts for its owner, who is its creator until someone takes it over (by changing its address or
 * rotating its secret): the columns say owner, not creator.
 */
export const EventSubscriptionOwner1764633600370 = sqlMigration('EventSubscriptionOwner1764633600370', {
  up: [
    'ALTER TABLE event_subscriptions RENAME COLUMN created_by_account_id TO owner_account_id',
    'ALTER TABLE event_subscriptions RENAME COLUMN created_by_key_id TO owner_key_id',
  ],
  down: [
    'ALTER TABLE event_subscriptions RENAME COLUMN owner_key_id TO created_by_key_id',
    'ALTER TABLE event_subscriptions RENAME COLUMN owner_account_id TO created_by_account_id',
  ],
});
