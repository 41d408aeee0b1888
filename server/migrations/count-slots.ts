import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A migration that spreads a counts table over 64 rows per filter combination (`slot`, from the record's id), so
 * concurrent writes of one store no longer wait on one row's lock; `down` merges the slots back into one row each.
 * `functions(slot)`: the table's trigger functions, counting each record in `slot` (or, with '', in the one row).
 */
export function countSlots(name: string, table: string, keys: string, slot: string, functions: (slot: string) => string): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      await q.query(`
      ALTER TABLE ${table} ADD COLUMN slot smallint NOT NULL DEFAULT 0;
      ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, ADD PRIMARY KEY (${keys}, slot);
      ${functions(slot)}
    `);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`
      CREATE TEMP TABLE merged ON COMMIT DROP AS SELECT ${keys}, sum(n) AS n FROM ${table} GROUP BY ${keys};
      DELETE FROM ${table};
      ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey, DROP COLUMN slot, ADD PRIMARY KEY (${keys});
      INSERT INTO ${table} (${keys}, n) SELECT ${keys}, n FROM merged;
      ${functions('')}
    `);
    }
  };
}
