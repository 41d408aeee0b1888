/**
 * The database's own synchronous replication (issue 56, item 2; server/platform/standbys.ts): declared asynchronous,
 * a server whose synchronous_standby_names names a standby, with synchronous_commit `on` or stronger, already makes
 * every commit wait for one, so the service waits for nothing and spends no statement per write on it. The look is
 * made once (then every SYNC_LOOK_MS), never per write: after it, the checks run with no database at all.
 */
import { createDataSource } from '../../server/platform/db';
import { createLogger } from '../../server/platform/logger';
import { databaseSynchronous, Standbys } from '../../server/platform/standbys';
import { OwnPostgres } from '../support/own-postgres';

let server: OwnPostgres;
afterAll(async () => {
  await server?.destroy();
});

test('declared asynchronous on a synchronous server: found once, then no statement per write; asynchronous stays waited for', async () => {
  server = new OwnPostgres();
  await server.init();
  // A synchronous standby named but never connected: only reads run here (a read-only transaction waits for none).
  server.configure(["synchronous_standby_names = 'ANY 1 (*)'", 'synchronous_commit = on']);
  await server.start();
  const db = createDataSource(server.url(), [], 2, { connectMs: 3000, statementMs: 5000 });
  await db.initialize();
  const standbys = new Standbys(db, 3000, createLogger('silent', 'standbys-test'), 'asynchronous');
  expect(standbys.waits).toBe(true); // before the look: waited for, the safe answer
  await standbys.watchSynchronous(60_000);
  expect(standbys.waits).toBe(false);
  // No database at all from here: any statement would fail.
  await db.destroy();
  expect(await standbys.confirm(3000, 1)).toBe('held');
  await expect(standbys.acknowledge(1)).resolves.toBeUndefined();
  expect(standbys.epoch()).toBeNull();
  standbys.stop();

  // A commit that waits only locally is no synchronous replication: the service's wait stays.
  const url = new URL(server.url());
  url.searchParams.set('options', '-c synchronous_commit=local');
  const local = createDataSource(url.toString(), [], 1, { connectMs: 3000 });
  await local.initialize();
  const asynchronous = new Standbys(local, 3000, createLogger('silent', 'standbys-test'), 'asynchronous');
  try {
    await asynchronous.watchSynchronous(60_000);
    expect([await databaseSynchronous(local), asynchronous.waits]).toEqual([false, true]);
  } finally {
    asynchronous.stop();
    await local.destroy();
  }
});
