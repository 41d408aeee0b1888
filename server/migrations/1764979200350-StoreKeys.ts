import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MigrationDeferred, olderProcesses } from '../platform/db';
import { STORE_CHILDREN, STORE_FOREIGN_KEYS, STORE_KEYS, nextForeignKeyName, oldForeignKeyDefinition, type StoreChild, type StoreKey } from './store-keys';

/**
 * Every store table keyed by its store, in two steps that each run on a live database (docs/scaling.md, "Changing
 * the keys without downtime").
 *
 * Expand (`StoreKeysExpand`, outside a transaction): child tables gain `store_id`, filled by a trigger for writers
 * that do not send it yet (the previous release) and backfilled in batches; it becomes NOT NULL through a validated
 * check, so no long lock; the new unique indexes are built CONCURRENTLY beside the old keys; the new foreign keys are
 * added NOT VALID and validated after. The old keys stay, so processes of the previous release keep working.
 *
 * Contract (`StoreKeysContract`, one short transaction): the old foreign keys and keys go, the new indexes become the
 * primary keys, and the fill triggers go (every writer sends `store_id` now). It runs once no process of the
 * previous release is connected (server/platform/db.ts).
 */

const BATCH = 5000;

const fillFunction = (c: StoreChild) => `${c.table}_fill_store_id`;

async function exists(q: QueryRunner, sql: string, params: unknown[]): Promise<boolean> {
  const rows: unknown[] = await q.query(sql, params);
  return rows.length > 0;
}

async function buildIndex(q: QueryRunner, k: StoreKey): Promise<void> {
  // A CONCURRENTLY build that failed leaves an invalid index behind: drop it, build again.
  await q.query(`DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = '${k.next}' AND NOT i.indisvalid) THEN EXECUTE 'DROP INDEX ${k.next}'; END IF; END $$`);
  await q.query(`CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS ${k.next} ON ${k.table} (${k.columns})${k.where ? ` WHERE ${k.where}` : ''}`);
}

const fillTrigger = (c: StoreChild): string[] => [
  `CREATE OR REPLACE FUNCTION ${fillFunction(c)}() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.store_id IS NULL THEN
       SELECT p.store_id INTO NEW.store_id FROM ${c.parent} p WHERE p.${c.parentId} = NEW.${c.via};
     END IF;
     RETURN NEW;
   END $$`,
  `DROP TRIGGER IF EXISTS ${fillFunction(c)} ON ${c.table}`,
  `CREATE TRIGGER ${fillFunction(c)} BEFORE INSERT ON ${c.table} FOR EACH ROW EXECUTE FUNCTION ${fillFunction(c)}()`,
];

const dropFillTrigger = (c: StoreChild): string[] => [`DROP TRIGGER IF EXISTS ${fillFunction(c)} ON ${c.table}`, `DROP FUNCTION IF EXISTS ${fillFunction(c)}()`];

const newForeignKey = (k: (typeof STORE_FOREIGN_KEYS)[number]) =>
  `FOREIGN KEY (${k.columns}) REFERENCES ${k.references} (${k.referencedColumns})${k.onDelete === 'CASCADE' ? ' ON DELETE CASCADE' : ''}`;

export class StoreKeysExpand1764979200350 implements MigrationInterface {
  name = 'StoreKeysExpand1764979200350';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const c of STORE_CHILDREN) {
      await q.query(`ALTER TABLE ${c.table} ADD COLUMN IF NOT EXISTS store_id uuid`);
      for (const sql of fillTrigger(c)) await q.query(sql);
      // Batches, each its own statement: no long transaction holding every row.
      for (;;) {
        const done: unknown = await q.query(
          `UPDATE ${c.table} t SET store_id = p.store_id FROM ${c.parent} p
            WHERE p.${c.parentId} = t.${c.via} AND t.ctid = ANY (ARRAY(SELECT ctid FROM ${c.table} WHERE store_id IS NULL LIMIT ${BATCH}))`,
        );
        const count = Array.isArray(done) ? Number(done[1] ?? 0) : 0;
        if (count < BATCH) break;
      }
      // NOT NULL without a long lock: a check added NOT VALID, validated (reads without blocking writes), then used by SET NOT NULL.
      const check = `${c.table}_store_id_not_null`;
      if (!(await exists(q, 'SELECT 1 FROM pg_constraint WHERE conname = $1', [check]))) await q.query(`ALTER TABLE ${c.table} ADD CONSTRAINT ${check} CHECK (store_id IS NOT NULL) NOT VALID`);
      await q.query(`ALTER TABLE ${c.table} VALIDATE CONSTRAINT ${check}`);
      await q.query(`ALTER TABLE ${c.table} ALTER COLUMN store_id SET NOT NULL`);
      await q.query(`ALTER TABLE ${c.table} DROP CONSTRAINT ${check}`);
    }
    for (const k of STORE_KEYS) await buildIndex(q, k);
    for (const k of STORE_FOREIGN_KEYS) {
      const name = nextForeignKeyName(k);
      if (!(await exists(q, 'SELECT 1 FROM pg_constraint WHERE conname = $1', [name]))) await q.query(`ALTER TABLE ${k.table} ADD CONSTRAINT ${name} ${newForeignKey(k)} NOT VALID`);
      await q.query(`ALTER TABLE ${k.table} VALIDATE CONSTRAINT ${name}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const k of STORE_FOREIGN_KEYS) await q.query(`ALTER TABLE ${k.table} DROP CONSTRAINT IF EXISTS ${nextForeignKeyName(k)}`);
    // The two (store_id, id) indexes backup suppliers made stay: they came before this migration.
    for (const k of STORE_KEYS) if (!k.next.endsWith('_store_id_idx')) await q.query(`DROP INDEX IF EXISTS ${k.next}`);
    for (const c of STORE_CHILDREN) {
      for (const sql of dropFillTrigger(c)) await q.query(sql);
      await q.query(`ALTER TABLE ${c.table} DROP COLUMN IF EXISTS store_id`);
    }
  }
}

const oldKey = (k: StoreKey): string =>
  k.old.kind === 'index'
    ? `CREATE UNIQUE INDEX ${k.old.name} ON ${k.table} (${k.old.columns})${k.old.where ? ` WHERE ${k.old.where}` : ''}`
    : `ALTER TABLE ${k.table} ADD CONSTRAINT ${k.old.name} ${k.old.kind === 'primary' ? 'PRIMARY KEY' : 'UNIQUE'} (${k.old.columns})`;

const dropOldKey = (k: StoreKey): string => (k.old.kind === 'index' ? `DROP INDEX ${k.old.name}` : `ALTER TABLE ${k.table} DROP CONSTRAINT ${k.old.name}`);

export class StoreKeysContract1764979200351 implements MigrationInterface {
  name = 'StoreKeysContract1764979200351';

  async up(q: QueryRunner): Promise<void> {
    // A process of the previous release still writes child rows without store_id and conflicts on the old keys.
    const older = await olderProcesses(q);
    if (older > 0) throw new MigrationDeferred(`StoreKeysContract waits: ${older} connection(s) of the previous release`);
    // Short: every index exists already. Waiting on a busy table's lock fails the start (it retries), never queues writers behind it.
    await q.query(`SET LOCAL lock_timeout = '10s'`);
    for (const k of STORE_FOREIGN_KEYS) await q.query(`ALTER TABLE ${k.table} DROP CONSTRAINT ${k.old}`);
    for (const k of STORE_KEYS) await q.query(dropOldKey(k));
    for (const k of STORE_KEYS.filter((key) => key.primary)) await q.query(`ALTER TABLE ${k.table} ADD CONSTRAINT ${k.old.name} PRIMARY KEY USING INDEX ${k.next}`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const k of STORE_KEYS.filter((key) => key.primary)) {
      // The foreign keys that lean on the key's index are made again once it is a plain unique index.
      const leaning: Array<{ table: string; name: string; definition: string }> = await q.query(
        `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE contype = 'f' AND confrelid = $1::regclass`,
        [k.table],
      );
      for (const f of leaning) await q.query(`ALTER TABLE ${f.table} DROP CONSTRAINT ${f.name}`);
      await q.query(`ALTER TABLE ${k.table} DROP CONSTRAINT ${k.old.name}`);
      await q.query(`CREATE UNIQUE INDEX ${k.next} ON ${k.table} (${k.columns})`);
      await q.query(oldKey(k));
      for (const f of leaning) await q.query(`ALTER TABLE ${f.table} ADD CONSTRAINT ${f.name} ${f.definition}`);
    }
    for (const k of STORE_KEYS.filter((key) => !key.primary)) await q.query(oldKey(k));
    for (const k of STORE_FOREIGN_KEYS) await q.query(`ALTER TABLE ${k.table} ADD CONSTRAINT ${k.old} ${oldForeignKeyDefinition(k)}`);
  }
}
