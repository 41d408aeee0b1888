import fs from 'node:fs';
import path from 'node:path';
import { allowedCrossStore, judge, storeTables } from './single-shard';

/**
 * Every statement the service sent during the whole suite (pg_stat_statements over the test databases, written by
 * the global teardown to dist/pg-statements.json) stays on one store: npm test runs this file after the suite.
 */
const file = path.resolve(__dirname, '../../dist/pg-statements.json');
const built = path.resolve(__dirname, '../../dist/server/main.js');

function collected(): Array<{ query: string; calls: number }> {
  if (!fs.existsSync(file)) throw new Error('dist/pg-statements.json is missing: npm test collects it from the whole suite before this file runs.');
  if (fs.statSync(file).mtimeMs < fs.statSync(built).mtimeMs)
    throw new Error('dist/pg-statements.json is older than the build: run the suite first (npm test).');
  const read = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    evicted?: number;
    databases?: { created: number; seen: number; reset: string; textsLost: number };
    statements: Array<{ query: string; calls: number }>;
  };
  // pg_stat_statements made room by dropping entries: some statements of the run would go unchecked.
  if (!partial && read.evicted !== 0)
    throw new Error(`pg_stat_statements evicted entries ${read.evicted} times during the run: raise pg_stat_statements.max in test/support/global-setup.mjs.`);
  // Nearly every test database has the service's statements (a few are made for a test that starts no service):
  // fewer would be a run whose statistics were lost, checked as if it were the whole suite.
  const dbs = read.databases;
  if (!dbs || dbs.seen < 0.9 * dbs.created)
    throw new Error(
      `statements were read from ${dbs?.seen ?? 0} of ${dbs?.created ?? '?'} test databases (statistics reset at ${dbs?.reset}, ${dbs?.textsLost} texts lost): the check would miss the rest.`,
    );
  return read.statements;
}

const tables = storeTables();
/** STATEMENTS_PARTIAL=1: after a few test files, not the suite (while fixing statements); CI never sets it. */
const partial = process.env.STATEMENTS_PARTIAL === '1';

test('the check itself: a statement by id alone is caught, one pinned to its store passes', () => {
  expect(judge('SELECT * FROM supplier_orders WHERE id = $1', tables).unscoped).toEqual(['supplier_orders']);
  expect(judge('SELECT * FROM supplier_orders WHERE store_id = $1 AND id = $2', tables).unscoped).toEqual([]);
  expect(judge('SELECT o.id FROM store_orders o JOIN supplier_orders s ON s.order_id = o.id WHERE o.store_id = $1', tables).unscoped).toEqual([
    'supplier_orders s',
  ]);
  expect(
    judge('SELECT o.id FROM store_orders o JOIN supplier_orders s ON s.store_id = o.store_id AND s.order_id = o.id WHERE o.store_id = $1', tables).unscoped,
  ).toEqual([]);
  expect(judge('INSERT INTO supplier_order_events (supplier_order_id, type) VALUES ($1, $2)', tables).unscoped).toEqual([
    'supplier_order_events (insert without store_id)',
  ]);
  expect(judge('INSERT INTO supplier_order_events (store_id, supplier_order_id, type) VALUES ($1, $2, $3)', tables).unscoped).toEqual([]);
  expect(judge('UPDATE stores SET name = $2 WHERE id = $1', tables).unscoped).toEqual([]);
  // Two tables joined only to each other pin nothing.
  expect(judge('SELECT s.id FROM stores s JOIN store_staff st ON st.store_id = s.id WHERE st.account_id = $1', tables).unscoped).toEqual([
    'stores s',
    'store_staff st',
  ]);
  // A join on another column is no join within one store.
  expect(judge('SELECT 1 FROM store_orders o JOIN supplier_orders s ON s.store_id = o.id WHERE o.store_id = $1', tables).unscoped).toEqual([
    'supplier_orders s',
  ]);
  expect(judge('/* cross-store: x */ SELECT 1 FROM supplier_orders', tables).crossStore).toBe('x');
});

test('every statement the suite ran on a store table filters on its store, or is an allowed cross-store sweep', () => {
  const statements = collected();
  if (!partial) expect(statements.length).toBeGreaterThan(200);
  const allowed = allowedCrossStore();
  const onStoreTables = statements.map((s) => judge(s.query, tables)).filter((v) => v.unscoped.length > 0 || v.crossStore);
  const unknownSweeps = onStoreTables.filter((v) => v.crossStore && !allowed.has(v.crossStore)).map((v) => `${v.crossStore}: ${v.query.slice(0, 160)}`);
  const unscoped = onStoreTables.filter((v) => !v.crossStore).map((v) => `${v.unscoped.join(', ')} ← ${v.query.replace(/\s+/g, ' ').slice(0, 240)}`);
  expect(unknownSweeps).toEqual([]);
  expect(unscoped).toEqual([]);
});

test('every allowed cross-store sweep says why and is still used', () => {
  const allowed = allowedCrossStore();
  expect(allowed.size).toBeGreaterThan(0);
  const used = new Set(
    collected()
      .map((s) => judge(s.query, tables).crossStore)
      .filter(Boolean),
  );
  for (const [name, why] of allowed) expect({ name, why: why.length > 20, used: partial || used.has(name) }).toEqual({ name, why: true, used: true });
});
