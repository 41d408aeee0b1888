// What the service sends to Postgres over the run, for the single-shard check (test/statements): read from
// pg_stat_statements every few seconds and at the end, and kept here, so statistics Postgres loses in between (a
// reset, query texts it drops) cannot leave work unchecked. Jest's global setup starts it; the teardown writes it.
import fs from 'node:fs';
import path from 'node:path';

const EVERY_MS = 5000;

async function read(client, seen) {
  const { rows } = await client.query(`
    SELECT s.dbid, s.query, sum(s.calls)::bigint AS calls
      FROM pg_stat_statements s JOIN pg_roles r ON r.oid = s.userid JOIN pg_database d ON d.oid = s.dbid
     WHERE r.rolname = 'postgres' AND d.datname LIKE 't\\_%' AND s.query IS NOT NULL
     GROUP BY s.dbid, s.query`);
  for (const r of rows) {
    const key = `${r.dbid}\u0000${r.query}`;
    seen.set(key, Math.max(seen.get(key) ?? 0, Number(r.calls)));
  }
}

export async function startCollecting(adminUrl) {
  const { default: pg } = await import('pg');
  const state = { seen: new Map(), timer: null, busy: false };
  const once = async () => {
    if (state.busy) return;
    state.busy = true;
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      await read(client, state.seen);
    } catch {
      // The next read (or the last one, at the end) catches up.
    } finally {
      state.busy = false;
      await client.end().catch(() => undefined);
    }
  };
  state.timer = setInterval(() => void once(), EVERY_MS);
  state.timer.unref();
  globalThis.__STORE_SUPPLIERS_STATEMENTS__ = state;
}

/** The last read, then dist/pg-statements.json: one entry per statement text, summed over the test databases. */
export async function writeStatements(adminUrl) {
  const state = globalThis.__STORE_SUPPLIERS_STATEMENTS__ ?? { seen: new Map() };
  if (state.timer) clearInterval(state.timer);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await read(client, state.seen);
    // The migrations' own statements (run in migrations_only by the global setup) are not the service's.
    const { rows: migrations } = await client.query(
      `SELECT DISTINCT m.query FROM pg_stat_statements m JOIN pg_database d ON d.oid = m.dbid WHERE d.datname = 'migrations_only' AND m.query IS NOT NULL`,
    );
    const migration = new Set(migrations.map((r) => r.query));
    const byQuery = new Map();
    const databasesSeen = new Set();
    for (const [key, calls] of state.seen) {
      const [dbid, query] = key.split('\u0000');
      databasesSeen.add(dbid);
      if (migration.has(query)) continue;
      const entry = byQuery.get(query) ?? { query, calls: 0, databases: 0 };
      entry.calls += calls;
      entry.databases += 1;
      byQuery.set(query, entry);
    }
    // Every test database against those the service was seen in: one with no statements would be work unchecked.
    const {
      rows: [info],
    } = await client.query(`
      SELECT (SELECT count(*) FROM pg_database WHERE datname LIKE 't\\_%')::int AS created,
             (SELECT stats_reset FROM pg_stat_statements_info)::text AS reset,
             (SELECT dealloc FROM pg_stat_statements_info)::bigint AS dealloc,
             (SELECT count(*) FROM pg_stat_statements WHERE query IS NULL)::int AS "textsLost"`);
    const file = path.resolve('dist/pg-statements.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const statements = [...byQuery.values()].sort((a, b) => (a.query < b.query ? -1 : a.query > b.query ? 1 : 0));
    fs.writeFileSync(
      file,
      JSON.stringify(
        {
          collectedAt: new Date().toISOString(),
          evicted: Number(info.dealloc),
          databases: { created: info.created, seen: databasesSeen.size, reset: info.reset, textsLost: info.textsLost },
          statements,
        },
        null,
        1,
      ),
    );
  } finally {
    await client.end();
  }
}
