/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Restored from an older backup (issue 43, item 3; docs/operations.md "Restoring an older backup"): the dump is taken
 * while three parts wait to be sent, dispatch then sends them, and the database is restored from the dump and the
 * service started on it. The suppliers kept what they took; the records did not. Read against the sandbox's and
 * AliExpress's own records: the part the sandbox holds is found by its number and adopted, the one no supplier holds
 * is sent once, and the AliExpress part (AliExpress cannot be asked by number, and its guard on repeated numbers
 * lasts a day) is paused `orderNumberUnverifiable` rather than sent again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { eventually, leakScanTest, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { dumpTools, OwnPostgres } from '../support/own-postgres';
import { openShop, placeOrder, received, Shop, submit } from '../support/orders';
import { AeWorld, startAeWorld } from '../suppliers/aliexpress-support';

const SECRET = 'restore-older-backup-'.padEnd(48, 'r');
seen.secrets.add(SECRET);
const FAST = {
  JOB_SUPERVISE_SECONDS: '1',
  DISPATCH_SWEEP_SECONDS: '1',
  DISPATCH_SWEEP_STALE_SECONDS: '3',
  DISPATCH_RETRY_BASE_SECONDS: '1',
  DISPATCH_WAIT_MS: '0',
};

let pg: OwnPostgres;
let sandbox: Sandbox;
let world: AeWorld;
const services: Service[] = [];
const dumpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-restore-'));
afterAll(async () => {
  for (const s of services) await s.stop('SIGKILL').catch(() => undefined);
  await world?.close().catch(() => undefined);
  await sandbox?.close();
  await pg?.destroy();
  fs.rmSync(dumpDir, { recursive: true, force: true });
});

/** An order whose part is submitted: recorded and queued by the API, sent by a worker. */
async function confirmOne(svc: Service, shop: Shop): Promise<string> {
  const order = await placeOrder(svc, shop);
  const res = await submit(svc, shop, order.id);
  expect([res.status, res.body.result?.status]).toEqual([202, 'queued']);
  return order.id;
}

test('restored from a dump taken before three parts were sent: adopted, sent once, or paused for a person; never ordered twice', async () => {
  const tools = dumpTools();
  if (!tools) throw new Error("No pg_dump and pg_restore with a server beside them: install Debian's postgresql package (.ci/run does).");
  pg = new OwnPostgres(tools);
  await pg.init();
  await pg.start();
  await pg.createDatabase('live');
  sandbox = await startSandbox();
  // The API alone first: confirmed parts wait on the queue, unsent, while the dump is taken.
  world = await startAeWorld('restore', FAST, { databaseUrl: pg.url('live'), sandbox, appSecret: SECRET, role: 'api' });
  const aeEnv = {
    ALIEXPRESS_APP_KEY: world.fake.appKey,
    ALIEXPRESS_APP_SECRET: world.fake.appSecret,
    ALIEXPRESS_API_BASE_URL: world.fake.baseUrl,
    SUPPLIER_TIMEOUT_MS: '2500',
    ...FAST,
  };
  const api = world.svc;
  const automatic = { level: 'automatic', automaticPayment: false, allowUnpaidOrders: true };
  const held = await openShop(api, sandbox, { automation: automatic });
  const unsent = await openShop(api, sandbox, { automation: automatic, page: 3 });
  const ae = await world.openShop({ automation: automatic });
  const orderIds = { held: await confirmOne(api, held), unsent: await confirmOne(api, unsent), ae: await confirmOne(api, ae) };
  const partOf = async (svc: Service, shop: Shop, orderId: string) => {
    const res = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key });
    expect(res.status).toBe(200);
    return res.body.result.items[0];
  };
  const before = { held: await partOf(api, held, orderIds.held), unsent: await partOf(api, unsent, orderIds.unsent), ae: await partOf(api, ae, orderIds.ae) };
  expect([before.held.status, before.unsent.status, before.ae.status]).toEqual(['queued', 'queued', 'queued']);

  // The backup.
  const dump = path.join(dumpDir, 'store.dump');
  pg.tool('pg_dump', ['--format=custom', `--file=${dump}`, pg.url('live')]);

  // Dispatch runs on: the sandbox and AliExpress take two parts; the third's account is down.
  await sandbox.control('POST', '/faults', { unavailableAccounts: [unsent.account.accountId] });
  const worker = await startService({
    label: 'restore-worker',
    databaseUrl: pg.url('live'),
    sandbox,
    appSecret: SECRET,
    role: 'worker',
    publicBaseUrl: true,
    env: aeEnv,
  });
  services.push(worker);
  await eventually(async () => ((await partOf(api, held, orderIds.held)).supplierOrderId ? true : undefined), 60000, 'the sandbox part sent');
  await eventually(async () => ((await partOf(api, ae, orderIds.ae)).supplierOrderId ? true : undefined), 60000, 'the AliExpress part sent');
  expect((await received(sandbox)).count(before.held.supplierOrderNumber)).toBe(1);
  expect(await world.ordersAt(before.ae.supplierOrderNumber)).toHaveLength(1);
  await worker.stop('SIGKILL');
  await api.stop('SIGKILL');

  // Disaster: restored from the dump, a day later (AliExpress's guard on repeated numbers has lapsed), the account back.
  await world.control('POST', '/orders/guard/expire');
  await sandbox.control('POST', '/faults', { unavailableAccounts: [] });
  await pg.createDatabase('restored');
  pg.tool('pg_restore', ['--no-owner', '--exit-on-error', `--dbname=${pg.url('restored')}`, dump]);
  const restored = await startService({ label: 'restored', databaseUrl: pg.url('restored'), sandbox, appSecret: SECRET, publicBaseUrl: true, env: aeEnv });
  services.push(restored);
  await restored.waitForLog((l) => l.msg === 'reconciled with the suppliers after the database went back in time', 60000);

  // Held by the sandbox: found by its number and adopted.
  const adopted = await eventually(
    async () => {
      const so = await partOf(restored, held, orderIds.held);
      return so.status === 'submitted' ? so : undefined;
    },
    60000,
    'the held part adopted',
  );
  const adoptedHistory = (
    await restored.call('GET', `/api/store-suppliers/${held.storeId}/orders/${adopted._id}`, { key: held.owner.key })
  ).body.result.events.map((e: any) => e.type);
  expect(adoptedHistory).toContain('foundAtSupplier');
  // Held by no supplier: sent once.
  const sent = await eventually(
    async () => {
      const so = await partOf(restored, unsent, orderIds.unsent);
      return so.status === 'submitted' ? so : undefined;
    },
    60000,
    'the unsent part sent',
  );
  // AliExpress cannot be asked: paused for a person, with its own reason.
  const paused = await eventually(
    async () => {
      const so = await partOf(restored, ae, orderIds.ae);
      return so.status === 'needsReview' ? so : undefined;
    },
    60000,
    'the AliExpress part paused',
  );
  expect(paused).toMatchObject({ reviewReason: 'orderNumberUnverifiable', retryable: false, supplierOrderId: null });
  expect(paused.supplierOrderNumber).toBe(before.ae.supplierOrderNumber);
  expect(paused.reviewMessage).toMatch(/records went back in time/);

  // The suppliers' own records: one order per part, whatever the records forgot.
  const r = await received(sandbox);
  expect(r.count(before.held.supplierOrderNumber)).toBe(1);
  expect(r.count(sent.supplierOrderNumber)).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 3000)); // sweeps and retries had their chance to send it again
  expect(await world.ordersAt(before.ae.supplierOrderNumber)).toHaveLength(1);

  // Reconciled once: a restart on the same database does not pause anything again.
  const db = new Pool({ connectionString: pg.url('restored'), max: 1 });
  const { rows } = await db.query('SELECT reconciled FROM database_identity');
  await db.end();
  expect(rows).toEqual([{ reconciled: true }]);
}, 300000);

leakScanTest();
