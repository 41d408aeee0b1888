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

/**
 * A migration that takes back what an earlier one did (its `down` as `up`), and whose `down` does it again (the
 * earlier `up`, then `thenDown`: what later migrations had changed of it).
 */
export function undoing(name: string, earlier: new () => MigrationInterface, thenDown: string[] = []): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      await new earlier().down(q);
    }

    async down(q: QueryRunner): Promise<void> {
      await new earlier().up(q);
      for (const sql of thenDown) await q.query(sql);
    }
  };
}
