import fs from 'node:fs';
import path from 'node:path';

/**
 * What the service sent to Postgres in this run, one entry per statement text (summed over the test databases), for
 * the single-shard check (test/statements). Statements of the tests' own role and of pg-boss's schema are left out.
 */
async function writeStatements(adminUrl) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`
      SELECT s.query, sum(s.calls)::bigint AS calls, count(DISTINCT s.dbid)::int AS databases
        FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid JOIN pg_database d ON d.oid = s.dbid
       WHERE r.rolname = 'postgres' AND d.datname LIKE 't\\_%'
         AND s.query NOT IN (SELECT m.query FROM pg_stat_statements m JOIN pg_database md ON md.oid = m.dbid WHERE md.datname = 'migrations_only')
       GROUP BY s.query ORDER BY s.query`);
    // Entries evicted for room (pg_stat_statements.max) would be statements the check never saw.
    const { rows: [info] } = await client.query('SELECT dealloc FROM pg_stat_statements_info');
    const file = path.resolve('dist/pg-statements.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ collectedAt: new Date().toISOString(), evicted: Number(info.dealloc), statements: rows.map((r) => ({ query: r.query, calls: Number(r.calls), databases: r.databases })) }, null, 1));
  } finally {
    await client.end();
  }
}

export default async function globalTeardown() {
  const template = globalThis.__STORE_SUPPLIERS_TEMPLATE__;
  if (template) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${template}"`).finally(() => client.end()).catch(() => undefined);
  }
  const held = globalThis.__STORE_SUPPLIERS_PG__;
  if (!held) return;
  if (process.env.TEST_STATEMENTS === '1') await writeStatements(process.env.TEST_ADMIN_DATABASE_URL).catch((err) => process.stderr.write(`statements not collected: ${err}\n`));
  await held.pg.stop().catch(() => undefined);
  fs.rmSync(held.dir, { recursive: true, force: true });
}
