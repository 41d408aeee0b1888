import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A migration that is only statements: up runs them in order, down undoes them. TypeORM knows a migration by its
 * `name` (the class name it would have had, timestamp last), so the records already in `migrations` still match.
 */
export function sqlMigration(name: string, statements: { up: string[]; down: string[] }): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      for (const sql of statements.up) await q.query(sql);
    }

    async down(q: QueryRunner): Promise<void> {
      for (const sql of statements.down) await q.query(sql);
    }
  };
}
