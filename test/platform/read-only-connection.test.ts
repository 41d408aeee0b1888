/**
 * A connection that met a read-only server (SQLSTATE 25006: its primary demoted under it mid-failover, issue 56 item
 * 4) is closed at once, never lent again by the pool: inside a transaction, whose connection TypeORM would otherwise
 * give back as it was. The error reads as "the database is out of reach" (a 503 with Retry-After, never a 500).
 */
import { createDataSource } from '../../server/platform/db';
import { databaseUnavailable } from '../../server/platform/errors';
import { createDatabase, eventually } from '../support/harness';

test('a transaction that meets a read-only server: 25006 reads as unavailable, and its connection is closed, not pooled', async () => {
  const ds = createDataSource(await createDatabase('read_only_conn', { empty: true }), [], 2, { connectMs: 3000, statementMs: 5000 });
  await ds.initialize();
  try {
    await ds.query('CREATE TABLE written (n int)');
    let pid = 0;
    const err = await ds
      .transaction(async (tx) => {
        // What a demoted primary answers every write with: the transaction is read-only.
        await tx.query('SET TRANSACTION READ ONLY');
        pid = ((await tx.query('SELECT pg_backend_pid() AS pid')) as Array<{ pid: number }>)[0].pid;
        await tx.query('INSERT INTO written VALUES (1)');
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ driverError: { code: '25006' } });
    expect(databaseUnavailable(err)).toBe(true);
    // The server-side session of that connection ends: the pool will not lend it again.
    const gone = await eventually(
      async () => {
        const [r] = (await ds.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid])) as Array<{ n: number }>;
        return r.n === 0 ? true : undefined;
      },
      10000,
      'the read-only connection closed',
    );
    expect(gone).toBe(true);
    // The pool goes on with a new connection.
    await ds.query('INSERT INTO written VALUES (2)');
    expect(((await ds.query('SELECT count(*)::int AS n FROM written')) as Array<{ n: number }>)[0].n).toBe(1);
  } finally {
    await ds.destroy().catch(() => undefined);
  }
});
