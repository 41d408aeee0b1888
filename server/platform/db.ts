import 'reflect-metadata';
import crypto from 'node:crypto';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { QueryRunner } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { SCHEMA_GENERATION, applicationName } from './generation';
import type { Logger } from './logger';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Ctor = Function[];

/** How long a connection may take to be had, and a statement to answer; none for migrations, which may run long. */
export interface DbTimeouts {
  connectMs: number;
  statementMs?: number;
}

/**
 * node-postgres settings that bound every wait on the database: a connection (made, or freed in the pool), and a
 * statement, which the server cancels itself (statement_timeout) and the client gives up on a second later in case
 * the server cannot even say so (a database that hangs). Those errors read as "the database is out of reach" (503).
 */
function boundedWaits(t: DbTimeouts): Record<string, unknown> {
  return {
    connectionTimeoutMillis: t.connectMs,
    keepAlive: true,
    ...(t.statementMs ? { statement_timeout: t.statementMs, query_timeout: t.statementMs + 1000 } : {}),
  };
}

/**
 * The pool's connections: one that met a read-only server (SQLSTATE 25006: a primary demoted under it, reached through
 * an address that now leads elsewhere) is closed at once, so the pool never lends it again. pg-pool already drops a
 * connection whose own statement failed outside a transaction; TypeORM's transactions give theirs back as it was.
 */
class DropOnReadOnly extends Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(...args: any[]): any {
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    if (typeof args.at(-1) === 'function' || !(out instanceof Promise)) return out;
    return out.catch((err: { code?: string }) => {
      if (err?.code === '25006') void this.end().catch(() => undefined);
      throw err;
    });
  }
}

/** TypeORM for the pool, transactions and migrations only: no entities, every domain maps its own rows (sql.ts). */
export function createDataSource(url: string, migrations: Ctor, poolSize = 10, timeouts?: DbTimeouts): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: [],
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTransactionMode: 'each',
    extra: { Client: DropOnReadOnly, max: poolSize, application_name: applicationName('store-suppliers'), ...(timeouts ? boundedWaits(timeouts) : {}) },
  });
}

const MIGRATION_LOCK = 727274001;

/** Connections to this database of a previous release: ours by name, without this generation. */
export async function olderProcesses(q: { query(sql: string, params?: unknown[]): Promise<unknown> }): Promise<number> {
  const rows = (await q.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name LIKE 'store-suppliers%' AND application_name NOT LIKE $1`,
    [`% ${SCHEMA_GENERATION}`],
  )) as Array<{ n: number }>;
  return rows[0]?.n ?? 0;
}

/** Thrown by a contract step while a previous release's process is connected: the migrations before it stay applied. */
export class MigrationDeferred extends Error {}

/**
 * Several processes may start at once on one database: one runs the migrations, the others wait. Each migration runs
 * in its own transaction, or none when it builds indexes CONCURRENTLY; the lock is taken by polling, so a waiting
 * process holds no snapshot that such a build would wait for. Answers false when a contract step waits.
 */
export async function migrate(ds: DataSource, log: Logger): Promise<boolean> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    for (;;) {
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK])) as Array<{ locked: boolean }>;
      if (locked) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const applied = await ds.runMigrations({ transaction: 'each' }).catch((err: unknown) => {
      if (!(err instanceof MigrationDeferred)) throw err;
      log.warn({ reason: err.message }, 'a migration waits for the previous release to stop');
      return null;
    });
    if (applied?.length) log.info({ migrations: applied.map((m) => m.name) }, 'migrations applied');
    return applied !== null;
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}

/** The names of the applied migrations, newest first. */
export async function appliedMigrations(ds: DataSource): Promise<string[]> {
  return ((await ds.query('SELECT name FROM migrations ORDER BY timestamp DESC, id DESC')) as Array<{ name: string }>).map((r) => r.name);
}

/** What runs a statement: the data source, a transaction's entity manager, or a query runner. */
export type Queryable = DataSource | EntityManager | QueryRunner;

/** What node-postgres answers for a statement. */
interface PgResult {
  rows: unknown[];
  rowCount: number | null;
}
interface PgQueryable {
  query(q: { text: string; values: unknown[]; name?: string }): Promise<PgResult>;
}

/**
 * Runs one statement straight on node-postgres, whatever runs it: the pool behind the data source, or the connection
 * a transaction (or query runner) holds. TypeORM's query runner would be made and released around every statement,
 * which costs more than a short statement itself; errors are node-postgres's own (code, constraint, detail).
 */
async function run(db: Queryable, text: string, values: unknown[], name?: string): Promise<{ records: unknown[]; affected: number }> {
  const q = { text, values, ...(name ? { name } : {}) };
  const runner = db instanceof DataSource ? undefined : db instanceof EntityManager ? db.queryRunner : db;
  let result: PgResult;
  if (runner) {
    // The transaction's own connection (connected on first use, as TypeORM does). TypeORM keeps it in a protected
    // field, which no type may name from outside: hence the way through unknown.
    const connection = (runner as unknown as { databaseConnection?: PgQueryable }).databaseConnection ?? ((await runner.connect()) as PgQueryable);
    result = await connection.query(q);
  } else {
    const source = db instanceof DataSource ? db : db.connection;
    const pool: PgQueryable = (source.driver as PostgresDriver).master;
    result = await pool.query(q);
  }
  return { records: result.rows ?? [], affected: result.rowCount ?? 0 };
}

/** The rows a statement answers (a SELECT, or a write's RETURNING). */
export async function rows<T = Record<string, unknown>>(db: Queryable, text: string, values: unknown[] = []): Promise<T[]> {
  return (await run(db, text, values)).records as T[];
}

/**
 * `rows` for a statement run very often: prepared once per connection (named by its text), so Postgres plans it once
 * instead of at every run. Its result must name its columns (no `*`): a prepared statement's result type may not
 * change under it when a migration adds a column.
 */
export async function preparedRows<T = Record<string, unknown>>(db: Queryable, text: string, values: unknown[] = []): Promise<T[]> {
  let name = statementNames.get(text);
  if (!name) {
    if (/(SELECT|RETURNING|,)\s*(\w+\.)?\*/i.test(text)) throw new Error('a prepared statement names its columns');
    name = `s${crypto.createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    if (statementNames.size < 1000) statementNames.set(text, name);
  }
  return (await run(db, text, values, naming ? name : undefined)).records as T[];
}
const statementNames = new Map<string, string>();
/** Off behind a pooler in transaction mode: a statement prepared on one server connection is unknown on the next. */
let naming = true;
export function nameStatements(on: boolean): void {
  naming = on;
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
