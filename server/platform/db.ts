import 'reflect-metadata';
import { DataSource, EntityManager } from 'typeorm';
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

/** Runs SQL and answers its rows: TypeORM answers `[rows, count]` for UPDATE and DELETE, rows otherwise. */
export async function sqlRows<T = Record<string, unknown>>(db: DataSource | EntityManager, text: string, params: unknown[] = []): Promise<T[]> {
  const res = await db.query(text, params);
  if (Array.isArray(res) && res.length === 2 && Array.isArray(res[0]) && typeof res[1] === 'number') return res[0] as T[];
  return res as T[];
}
