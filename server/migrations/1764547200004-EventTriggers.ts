import { sqlMigration } from './sql-migration';

/**
 * Events of the catalogue and the connections, written by triggers in the transaction of the change: these changes
 * are written by several statements each (health by four, a link's sync error by two), so the one place that sees
 * every one of them is the table. An import job that finished, a link whose sync failed (a new error, not the same
 * one again each hour), a connection's circuit that opened (from closed) or its health status that changed. The
 * snapshot is the row as written; a connection's sealed credentials stay out of it (only whether there are any).
 */
export const EventTriggers1764547200004 = sqlMigration('EventTriggers1764547200004', {
  up: [
    `
      CREATE FUNCTION event_of_row() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE snap jsonb := to_jsonb(NEW);
        BEGIN
          IF TG_TABLE_NAME = 'supplier_connections' THEN
            snap := snap - 'credentials_sealed' || jsonb_build_object('credentials_sealed', CASE WHEN NEW.credentials_sealed IS NULL THEN NULL ELSE 'sealed' END);
          END IF;
          INSERT INTO event_outbox (store_id, type, resource_key, record_key_id, snapshot)
            VALUES (NEW.store_id, TG_ARGV[0], TG_ARGV[1] || ':' || NEW.id, NEW.created_by_key_id, snap);
          RETURN NULL;
        END $$;
      CREATE TRIGGER import_job_finished AFTER UPDATE OF status ON import_jobs FOR EACH ROW
        WHEN (NEW.status IN ('completed', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
        EXECUTE FUNCTION event_of_row('importJob.finished', 'importJob');
      CREATE TRIGGER product_link_sync_failed AFTER UPDATE OF last_sync_error ON product_links FOR EACH ROW
        WHEN (NEW.last_sync_error IS NOT NULL AND OLD.last_sync_error IS DISTINCT FROM NEW.last_sync_error)
        EXECUTE FUNCTION event_of_row('productLink.syncFailed', 'productLink');
      CREATE TRIGGER connection_circuit_opened AFTER UPDATE OF circuit_open_until ON supplier_connections FOR EACH ROW
        WHEN (OLD.circuit_open_until IS NULL AND NEW.circuit_open_until IS NOT NULL)
        EXECUTE FUNCTION event_of_row('connection.circuitOpened', 'connection');
      CREATE TRIGGER connection_health_changed AFTER UPDATE OF health ON supplier_connections FOR EACH ROW
        WHEN (NEW.health IS NOT NULL AND OLD.health->>'status' IS DISTINCT FROM NEW.health->>'status')
        EXECUTE FUNCTION event_of_row('connection.healthChanged', 'connection');
    `,
  ],
  down: [
    `
      DROP TRIGGER import_job_finished ON import_jobs; DROP TRIGGER product_link_sync_failed ON product_links;
      DROP TRIGGER connection_circuit_opened ON supplier_connections; DROP TRIGGER connection_health_changed ON supplier_connections;
      DROP FUNCTION event_of_row();
    `,
  ],
});
