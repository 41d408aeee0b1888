/**
 * The standby check must look at the server that took the commit (server/platform/standbys.ts). After a failover the
 * pool reaches the promoted server, which has no slots yet and would confirm anything: a write committed on the dead
 * primary, checked there, would be answered as done though it is lost. On real replication: the commit is lost, and
 * the check says `switched`, which a write's answer turns into a 503.
 */
import { Writable } from 'node:stream';
import { createDataSource } from '../../server/platform/db';
import { createLogger } from '../../server/platform/logger';
import { Standbys } from '../../server/platform/standbys';
import { eventually } from '../support/harness';
import { OwnPostgres } from '../support/own-postgres';
import { ReplicatedPostgres, rowsAt } from '../support/replication';

let pair: ReplicatedPostgres;
let single: OwnPostgres;
afterAll(async () => {
  await pair?.destroy();
  await single?.destroy();
});

test('a write committed before a failover that lost it is not confirmed by the promoted server: switched, answered 503', async () => {
  pair = await ReplicatedPostgres.start();
  await pair.primary.createDatabase('live');
  const db = createDataSource(pair.url('live'), [], 2, { connectMs: 3000, statementMs: 5000 });
  await db.initialize();
  const lines: string[] = [];
  const log = createLogger('warn', 'standbys-test', new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
  const standbys = new Standbys(db, 3000, log, 'asynchronous');
  try {
    await db.query('CREATE TABLE written (n int)');
    expect(await standbys.confirm(3000, null)).toBe('held');
    const since = standbys.epoch();
    expect(since).toEqual(expect.any(Number));

    // Committed on the primary alone: the standby's stream is cut, so the check waits, then gives up.
    pair.cutReplication();
    await db.query('INSERT INTO written VALUES (1)');
    expect(await standbys.confirm(300, since)).toBe('behind');

    const { lostWalBytes } = await pair.failover();
    expect(lostWalBytes).toBeGreaterThan(0);
    // The pool's connections to the dead primary fail once; the check then reaches the promoted server.
    const answer = await eventually(async () => standbys.confirm(3000, since).catch(() => undefined), 30000, 'the check on the promoted server');
    expect(answer).toBe('switched');
    expect((await rowsAt(pair.url('live'), 'SELECT count(*)::int AS n FROM written'))[0].n).toBe(0);
    await expect(standbys.acknowledge(since)).rejects.toMatchObject({ status: 503, code: 'serviceUnavailable' });
    expect(lines.join('')).toMatch(/the database failed over meanwhile/);

    // Work begun on the promoted server is confirmed there (it has no standby yet: nothing more can be known).
    const now = standbys.epoch();
    expect(now).not.toBe(since);
    await db.query('INSERT INTO written VALUES (2)');
    expect(await standbys.confirm(3000, now)).toBe('held');
    await expect(standbys.acknowledge(now)).resolves.toBeUndefined();
  } finally {
    await db.destroy().catch(() => undefined);
  }
}, 120000);

test('a standby being made counts from the moment its slot appears, even right after the server had none', async () => {
  // Its own server: a slot is the whole cluster's, and the shared test database's other checks must not see it.
  single = new OwnPostgres();
  await single.init();
  await single.start();
  const db = createDataSource(single.url(), [], 2, { connectMs: 3000, statementMs: 5000 });
  await db.initialize();
  const standbys = new Standbys(db, 3000, createLogger('silent', 'standbys-test'), 'asynchronous');
  try {
    await db.query('CREATE TABLE written (n int)');
    expect(await standbys.confirm(3000, null)).toBe('held');
    const since = standbys.epoch();

    // pg_basebackup -C makes its slot at the backup's start, reserving WAL from before it, and the backup may end at
    // once: the next write is on this server alone until the new standby streams. At once: within what a cached "no
    // slots" answer would have covered (the soak of 2026-12-06 lost such writes).
    await db.query(`SELECT pg_create_physical_replication_slot('being_made', true)`);
    await db.query('INSERT INTO written VALUES (1)');
    expect(await standbys.confirm(300, since)).toBe('behind');

    // Declared without replication (DATABASE_REPLICATION=none): nothing is looked at, so a data source that cannot
    // run a statement (never opened) answers at once; the same server's slot is said at start, once.
    const none = new Standbys(createDataSource(single.url(), [], 1), 3000, createLogger('silent', 'standbys-test'), 'none');
    expect([none.waits, await none.confirm(3000, since), none.epoch()]).toEqual([false, 'held', null]);
    await expect(none.acknowledge(since)).resolves.toBeUndefined();
    const said: string[] = [];
    await new Standbys(
      db,
      3000,
      createLogger('warn', 'standbys-test', new Writable({ write: (chunk, _enc, done) => (said.push(String(chunk)), done()) })),
      'none',
    ).checkDeclared();
    expect(said.join('')).toMatch(/physical replication slots but DATABASE_REPLICATION is none/);

    // The standby confirms (its slot moves past the write): now it holds.
    const answer = await eventually(
      async () => {
        await db.query(`SELECT pg_replication_slot_advance('being_made', pg_current_wal_flush_lsn())`);
        return (await standbys.confirm(100, since)) === 'held' ? 'held' : undefined;
      },
      10000,
      'the check once the slot has passed the write',
    );
    expect(answer).toBe('held');
  } finally {
    await db.query(`SELECT pg_drop_replication_slot('being_made')`).catch(() => undefined);
    await db.destroy().catch(() => undefined);
  }
}, 60000);
