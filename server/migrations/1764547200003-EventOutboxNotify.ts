import { sqlMigration } from './sql-migration';

/**
 * Wakes the delivery loops when events are written: once per statement that wrote any (and Postgres folds the same notification
 * within a transaction into one), so a change costs no more than one NOTIFY however many events it writes.
 */
export const EventOutboxNotify1764547200003 = sqlMigration('EventOutboxNotify1764547200003', {
  up: [
    `
      CREATE FUNCTION event_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF EXISTS (SELECT 1 FROM written) THEN PERFORM pg_notify('event_outbox', ''); END IF; RETURN NULL; END $$;
      CREATE TRIGGER event_outbox_notify AFTER INSERT ON event_outbox REFERENCING NEW TABLE AS written
        FOR EACH STATEMENT EXECUTE FUNCTION event_outbox_notify();
    `,
  ],
  down: ['DROP TRIGGER event_outbox_notify ON event_outbox; DROP FUNCTION event_outbox_notify()'],
});
