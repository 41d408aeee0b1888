import 'reflect-metadata';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryRunner } from 'typeorm';
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

/**
 * A statement's text, or a named one: Postgres parses and plans a named statement once per connection and
 * then reuses the plan. For hot statements with an explicit column list (a changed `*` would break the plan).
 */
export type Statement = string | { name: string; text: string };

interface PgResult {
  rows: unknown[];
  rowCount: number | null;
}
interface PgRunner {
  query(config: { text: string; values: unknown[]; name?: string }): Promise<PgResult>;
}

/**
 * pg's own pool or connection under a Queryable. Statements go to it straight, not through TypeORM's query
 * runner (which would wrap each in a runner, a connect and a release); TypeORM still owns the pool and the
 * transactions, and a transaction's statements run on its connection.
 */
async function pgOf(db: Queryable): Promise<PgRunner> {
  if (db instanceof DataSource) return (db.driver as unknown as { master: PgRunner }).master;
  if (db instanceof EntityManager) return db.queryRunner ? pgOf(db.queryRunner) : pgOf(db.connection);
  return (await db.connect()) as PgRunner;
}

async function run(db: Queryable, statement: Statement, values: unknown[]): Promise<PgResult> {
  const pg = await pgOf(db);
  return pg.query(typeof statement === 'string' ? { text: statement, values } : { name: statement.name, text: statement.text, values });
}

/** The rows a statement answers (a SELECT, or a write's RETURNING). */
export async function rows<T = Record<string, unknown>>(db: Queryable, statement: Statement, values: unknown[] = []): Promise<T[]> {
  return (await run(db, statement, values)).rows as T[];
}

/** How many rows a write touched. */
export async function affected(db: Queryable, statement: Statement, values: unknown[] = []): Promise<number> {
  return (await run(db, statement, values)).rowCount ?? 0;
}
