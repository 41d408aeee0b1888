import 'reflect-metadata';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryResult, QueryRunner } from 'typeorm';
import type { Logger } from './logger';

export type Db = DataSource;
export type Tx = EntityManager;

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Ctor = Function[];

export function createDataSource(url: string, entities: Ctor, migrations: Ctor, poolSize = 10): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'all',
    extra: { max: poolSize, application_name: 'store-suppliers' },
  });
}

const MIGRATION_LOCK = 727274001;

/** Several processes may start at once on one database: one runs the migrations, the others wait. */
export async function migrate(ds: DataSource, log: Logger): Promise<void> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await ds.runMigrations({ transaction: 'all' });
    if (applied.length) log.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}

/** What runs a statement: the data source, a transaction's entity manager, or a query runner. */
export type Queryable = DataSource | EntityManager | QueryRunner;

/** Runs one statement and answers TypeORM's structured result (records and affected count), whatever runs it. */
async function run(db: Queryable, text: string, values: unknown[]): Promise<QueryResult> {
  if (db instanceof DataSource || db instanceof EntityManager) {
    const own = db instanceof EntityManager ? db.queryRunner : undefined;
    if (own) return own.query(text, values, true);
    const runner = (db instanceof DataSource ? db : db.connection).createQueryRunner();
    try {
      return await runner.query(text, values, true);
    } finally {
      await runner.release();
    }
  }
  return db.query(text, values, true);
}

/** The rows a statement answers (a SELECT, or a write's RETURNING). */
export async function rows<T = Record<string, unknown>>(db: Queryable, text: string, values: unknown[] = []): Promise<T[]> {
  return (await run(db, text, values)).records as T[];
}

/** How many rows a write touched. */
export async function affected(db: Queryable, text: string, values: unknown[] = []): Promise<number> {
  return (await run(db, text, values)).affected ?? 0;
}

/**
 * The parameters of a statement written in pieces (a write and the steps other domains add to it): each piece adds
 * its values here and writes the placeholder it gets back.
 */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A JSON value (or null) for a jsonb column. */
  json(value: unknown): string {
    return `${this.add(value === null || value === undefined ? null : JSON.stringify(value))}::jsonb`;
  }
}
