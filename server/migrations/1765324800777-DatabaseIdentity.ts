import { sqlMigration } from './sql-migration';

/**
 * The database's identity as the service last saw it (docs/decisions.md, "A database that goes back in time"): its
 * cluster, its own oid and its WAL timeline. A restore from a backup or a promoted standby changes one of them, and a
 * dump carries the old ones with it, so the service knows its records may be older than the suppliers' and
 * reconciles before it acts (`reconciled` false until then).
 */
export const DatabaseIdentity1765324800777 = sqlMigration('DatabaseIdentity1765324800777', {
  up: [
    `CREATE TABLE database_identity (
       id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
       cluster text NOT NULL,
       database_oid text NOT NULL,
       timeline text NOT NULL,
       stamped_at timestamptz NOT NULL DEFAULT now(),
       reconciled boolean NOT NULL DEFAULT true
     )`,
    // Stamped at once, so a dump taken before any worker ran carries it too.
    `INSERT INTO database_identity (cluster, database_oid, timeline)
     SELECT (SELECT system_identifier::text FROM pg_control_system()), (SELECT oid::text FROM pg_database WHERE datname = current_database()),
            substr(pg_walfile_name(pg_current_wal_insert_lsn()), 1, 8)`,
  ],
  down: ['DROP TABLE database_identity'],
});
