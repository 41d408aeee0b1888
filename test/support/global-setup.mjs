// Starts one embedded Postgres for the whole run (unless DATABASE_URL points at a server);
// every test file then creates its own database in it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { startCollecting } from './statements-collector.mjs';
import { freePort } from './free-port.mjs';

/**
 * Statements are collected from the run (pg_stat_statements): the tests' own reads and writes go through a role of
 * their own (TEST_DATABASE_ROLE, harness.ts), so only what the service sent is checked.
 */
async function collectStatements(adminUrl) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query(
      `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'store_suppliers_tests') THEN CREATE ROLE store_suppliers_tests SUPERUSER LOGIN PASSWORD 'test'; END IF; END $$`,
    );
  } finally {
    await client.end();
  }
  // The migrations' own statements (backfills over every store) are not the service's: a database migrated here
  // shows which they are, and the check leaves them out. It is also the template every test database is copied from.
  await migratedDatabase(adminUrl, 'migrations_only');
  process.env.TEST_STATEMENTS = '1';
}

/**
 * A database with every migration applied, which each test database is then copied from (CREATE DATABASE ...
 * TEMPLATE, harness.ts): a service started on it finds its schema made instead of making it again, a few hundred
 * times per run. Tests of migrating itself ask for an empty database.
 */
async function migratedDatabase(adminUrl, name) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}"`);
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const { openDatabase } = createRequire(import.meta.url)(path.resolve('dist/server/composition.js'));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const ds = openDatabase(url.toString(), 2);
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
  process.env.TEST_TEMPLATE_DATABASE = name;
}

export default async function globalSetup() {
  if (!fs.existsSync(path.resolve('dist/server/main.js'))) throw new Error('Build first: npm test runs the build before jest.');
  // The same sentence npm start prints on a Node the service does not support; the tests run anyway.
  const { unsupportedNodeSentence } = createRequire(import.meta.url)(path.resolve('dist/server/platform/node-support.js'));
  const unsupported = unsupportedNodeSentence();
  if (unsupported) process.stderr.write(`\n${unsupported}\n`);
  // The suite starts the service a few hundred times: V8's code cache on disk spares each start compiling it again.
  process.env.NODE_COMPILE_CACHE ??= path.join(os.tmpdir(), 'store-suppliers-compile-cache');
  if (process.env.DATABASE_URL) {
    const parentServer = process.env.TEST_ADMIN_DATABASE_URL;
    process.env.TEST_ADMIN_DATABASE_URL = process.env.DATABASE_URL;
    // A jest started by a test (test/console/ci-policy.test.ts) copies its parent's template; any other run makes
    // one of its own, since other runs may share the server.
    if (process.env.TEST_TEMPLATE_DATABASE && parentServer === process.env.DATABASE_URL) return;
    await migratedDatabase(process.env.DATABASE_URL, `store_suppliers_template_${process.pid}`);
    globalThis.__STORE_SUPPLIERS_TEMPLATE__ = process.env.TEST_TEMPLATE_DATABASE;
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-test-pg-'));
  fs.chmodSync(dir, 0o755);
  // As root from a clone others cannot enter, the binaries go where the OS user postgres can reach them (as npm start does).
  const { placeForPostgres } = createRequire(import.meta.url)(path.resolve('dist/server/platform/embedded-postgres.js'));
  const place = placeForPostgres({ dir: path.join(dir, 'data'), cacheDir: process.env.EMBEDDED_PG_CACHE_DIR || '/var/cache/store-suppliers' });
  const { default: EmbeddedPostgres } = await import(place.entry ? pathToFileURL(place.entry).href : 'embedded-postgres');
  const port = await freePort();
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const pg = new EmbeddedPostgres({
    databaseDir: place.dir,
    user: 'postgres',
    password: 'test',
    port,
    persistent: false,
    createPostgresUser: isRoot,
    // pg_stat_statements: what the service really sent, checked for single-shard statements (test/statements).
    postgresFlags: [
      '-c',
      'max_connections=400',
      '-c',
      'fsync=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'shared_preload_libraries=pg_stat_statements',
      '-c',
      'pg_stat_statements.max=200000',
      '-c',
      'pg_stat_statements.track_utility=off',
    ],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await pg.initialise();
  await pg.start();
  globalThis.__STORE_SUPPLIERS_PG__ = { pg, dir };
  process.env.TEST_ADMIN_DATABASE_URL = `postgres://postgres:test@127.0.0.1:${port}/postgres`;
  await collectStatements(process.env.TEST_ADMIN_DATABASE_URL);
  await startCollecting(process.env.TEST_ADMIN_DATABASE_URL);
  process.env.TEST_PG_DATA_DIR = place.dir;
}
