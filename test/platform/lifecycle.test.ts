import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Pool } from 'pg';
import { asTests, call, createDatabase, createStore, eventually, leakScanTest, newDeveloper, startService } from '../support/harness';

const main = path.resolve(__dirname, '../../dist/server/main.js');

test('a bad environment variable stops the start with a message naming it', () => {
  for (const [name, value] of [
    ['PORT', 'abc'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['APP_SECRET', 'short'],
  ]) {
    const env = { ...process.env, DATABASE_URL: 'postgres://127.0.0.1:1/x', APP_SECRET: 'y'.repeat(40), [name]: value };
    // The exit code is what is judged; on a busy machine loading the service alone can take seconds.
    const res = spawnSync(process.execPath, [main], { env, encoding: 'utf8', timeout: 60000 });
    expect([name, res.status]).toEqual([name, 2]);
    expect(res.stderr).toContain(`Invalid environment variable ${name}`);
  }
  const noSecret = spawnSync(process.execPath, [main], { env: { ...process.env, DATABASE_URL: 'postgres://127.0.0.1:1/x', APP_SECRET: '' }, encoding: 'utf8' });
  expect(noSecret.stderr).toContain('APP_SECRET');
  const badRole = spawnSync(process.execPath, [main, '--role', 'chef'], {
    env: { ...process.env, DATABASE_URL: 'postgres://127.0.0.1:1/x', APP_SECRET: 'y'.repeat(40) },
    encoding: 'utf8',
  });
  expect(badRole.status).toBe(2);
  expect(badRole.stderr).toContain('--role');
});

test('SIGTERM: no new requests, the in-flight request finishes, the process exits 0', async () => {
  const svc = await startService({ label: 'sigterm' });
  const dev = await newDeveloper(svc, { plan: 'pro' });
  const storeId = await createStore(svc, dev.key);
  // Hold the account row so the credit charge of the next request waits on it.
  const holder = new Pool({ connectionString: asTests(svc.databaseUrl), max: 1 });
  const client = await holder.connect();
  await client.query('BEGIN');
  await client.query('SELECT * FROM accounts WHERE id = $1 FOR UPDATE', [dev.accountId]);
  const inFlight = svc.call('POST', `/api/store-products/${storeId}`, {
    key: dev.key,
    body: { title: 'Late', variants: [{ sku: 'L1', title: 'V', priceMinor: 1, currency: 'USD', stock: 1 }] },
  });
  // In flight for sure: Postgres shows the request's statement waiting on the held row.
  const watcher = new Pool({ connectionString: asTests(svc.databaseUrl), max: 1 });
  await eventually(
    async () => {
      const r = await watcher.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      return r.rows[0].n > 0 ? true : undefined;
    },
    30000,
    'the request to wait on the held account row',
  );
  await watcher.end();
  const exit = svc.stop('SIGTERM');
  await svc.waitForLog((l) => l.msg === 'shutting down');
  await expect(fetch(`${svc.baseUrl}/healthz`)).rejects.toThrow();
  await client.query('COMMIT');
  client.release();
  const res = await inFlight;
  expect(res.status).toBe(201);
  expect(await exit).toBe(0);
  const check = new Pool({ connectionString: asTests(svc.databaseUrl), max: 1 });
  expect((await check.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [storeId])).rows[0].n).toBe(1);
  await check.end();
  await holder.end();
});

test('api and worker roles, and several processes, share one database', async () => {
  // Empty: three processes starting at once on a new database, one of them migrating it.
  const databaseUrl = await createDatabase('roles', { empty: true });
  const [api1, api2, worker] = await Promise.all([
    startService({ label: 'roles', databaseUrl, role: 'api' }),
    startService({ label: 'roles', databaseUrl, role: 'api' }),
    startService({ label: 'roles', databaseUrl, role: 'worker' }),
  ]);
  try {
    const dev = await newDeveloper(api1, { plan: 'pro' });
    const onOther = await call(api2.baseUrl, 'GET', '/api/api-key/current', { key: dev.key });
    expect(onOther.status).toBe(200);
    expect(worker.logs.some((l) => l.msg === 'worker started')).toBe(true);
    expect(worker.logs.some((l) => l.msg === 'listening')).toBe(false);
    const migrations = await api1.db.query('SELECT count(*)::int AS n FROM migrations');
    expect(migrations.rows[0].n).toBeGreaterThanOrEqual(1);
    const schedules = await api1.db.query(`SELECT name FROM pgboss.schedule`);
    expect(schedules.rows.map((r: { name: string }) => r.name).sort()).toEqual([
      'catalog.sync-all',
      'connections.credential-renewal',
      'credits.hold-sweep',
      'exchange-rates.refresh',
      'housekeeping',
      'readback.safety-net',
    ]);
  } finally {
    await Promise.all([api1.stop(), api2.stop(), worker.stop()]);
  }
});

test('readyz answers 503 while the database is unreachable, and ready again after', async () => {
  const svc = await startService({ label: 'readyz' });
  const admin = new Pool({ connectionString: process.env.TEST_ADMIN_DATABASE_URL, max: 1 });
  const dbName = new URL(svc.databaseUrl).pathname.slice(1);
  try {
    expect((await svc.call('GET', '/readyz')).status).toBe(200);
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName]);
    const down = await svc.call('GET', '/readyz');
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('notReady');
    expect((await svc.call('GET', '/healthz')).status).toBe(200);
  } finally {
    await admin.query(`ALTER DATABASE "${dbName}" ALLOW_CONNECTIONS true`);
    await admin.end();
  }
  let up = 0;
  for (let i = 0; i < 20 && up !== 200; i++) {
    up = (await svc.call('GET', '/readyz')).status;
    if (up !== 200) await new Promise((r) => setTimeout(r, 200));
  }
  expect(up).toBe(200);
  await svc.stop();
});

leakScanTest();
