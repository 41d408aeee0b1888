import type { MigrationInterface, QueryRunner } from 'typeorm';
import { STORE_CHILDREN, STORE_FOREIGN_KEYS, STORE_KEYS, dropFillTrigger, fillTrigger, nextForeignKeyName, type StoreKey } from './store-keys';

/**
 * Every store table keyed by its store, first step (docs/scaling.md, "Changing the keys without downtime"), outside a
 * transaction and safe on a live database: child tables gain `store_id`, filled by a trigger for writers that do not
 * send it yet (the previous release) and backfilled in batches; it becomes NOT NULL through a validated check, so no
 * long lock; the new unique indexes are built CONCURRENTLY beside the old keys; the new foreign keys are added NOT
 * VALID and validated after. The old keys stay, so processes of the previous release keep working.
 */

const BATCH = 5000;

async function exists(q: QueryRunner, sql: string, params: unknown[]): Promise<boolean> {
  const rows: unknown[] = await q.query(sql, params);
  return rows.length > 0;
}

async function buildIndex(q: QueryRunner, k: StoreKey): Promise<void> {
  // A CONCURRENTLY build that failed leaves an invalid index behind: drop it, build again.
  await q.query(`DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = '${k.next}' AND NOT i.indisvalid) THEN EXECUTE 'DROP INDEX ${k.next}'; END IF; END $$`);
  await q.query(`CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS ${k.next} ON ${k.table} (${k.columns})${k.where ? ` WHERE ${k.where}` : ''}`);
}

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
