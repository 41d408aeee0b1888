import type { MigrationInterface, QueryRunner } from 'typeorm';
import { MigrationDeferred, olderProcesses } from '../platform/db';
import { STORE_FOREIGN_KEYS, STORE_KEYS, oldForeignKeyDefinition, type StoreKey } from './store-keys';

/**
 * Every store table keyed by its store, second step (one short transaction): the old foreign keys and keys go, the new
 * unique indexes of StoreKeysExpand become the primary keys. It runs once no process of the previous release is
 * connected (server/platform/db.ts); the fill triggers go after it (StoreKeysWrittenByCode).
 */

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
