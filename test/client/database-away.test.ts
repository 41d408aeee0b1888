/**
 * The JavaScript client against the real service whose database is stopped (issue 35): the service answers 503
 * serviceUnavailable with Retry-After; a call safe to repeat is sent again after the wait it asks for and returns
 * once the database is back; a call that is not safe to repeat is sent once.
 */
import { Pool } from 'pg';
import { createStore, leakScanTest, newDeveloper, Developer, Service, startService } from '../support/harness';
import { OwnPostgres } from '../support/own-postgres';
import { ServiceUnavailableError, clientFor, rejectionOf } from './support';

let pg: OwnPostgres;
let svc: Service;
let owner: Developer;
let storeId: string;

beforeAll(async () => {
  pg = new OwnPostgres();
  await pg.init();
  await pg.start();
  const admin = new Pool({ connectionString: pg.url(), max: 1 });
  await admin.query('CREATE DATABASE client_away');
  await admin.end();
  svc = await startService({ label: 'client_away', databaseUrl: pg.url('client_away') });
  owner = await newDeveloper(svc, { plan: 'pro' });
  storeId = await createStore(svc, owner.key);
}, 90000);
afterAll(async () => {
  await svc?.stop('SIGKILL');
  await pg?.destroy();
});

test('database stopped: 503 serviceUnavailable; reads wait out Retry-After and succeed once it is back; writes are sent once', async () => {
  await pg.stop();
  const once = clientFor(svc, owner.key, { maxRetries: 0 });
  const err = await rejectionOf<ServiceUnavailableError>(once.store.apiKey.current());
  expect(err).toBeInstanceOf(ServiceUnavailableError);
  expect({ status: err.status, code: err.code }).toEqual({ status: 503, code: 'serviceUnavailable' });

  // A change without an Idempotency-Key (a create carries one, and is sent again like a read).
  const write = clientFor(svc, owner.key, { maxRetries: 3 });
  await rejectionOf(
    write.store.suppliers.connections.replaceCredentials(storeId, '00000000-0000-4000-8000-000000000000', { credentials: { apiKey: 'sbx_live_not_checked' } }),
  );
  expect(write.sent.map((s) => [s.method, s.status])).toEqual([['PUT', 503]]);

  const read = clientFor(svc, owner.key, { maxRetries: 3 });
  const started = Date.now();
  const pending = read.store.orders.list(storeId);
  // Back while the client waits out the first Retry-After (5 s).
  await new Promise((r) => setTimeout(r, 1500));
  await pg.start();
  const page = await pending;
  expect(page.items).toEqual([]);
  expect(read.sent.map((s) => s.status)).toEqual([503, 200]);
  expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
}, 60000);

leakScanTest();
