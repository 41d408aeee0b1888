/**
 * A worker killed with SIGKILL while its deliveries are in flight: nothing is lost. The deliveries it held are sent
 * again (same webhook-id) once their lease lapses, by the next worker, and the events written while no worker ran are
 * delivered too. The API and the workers are separate processes over one database, as in production.
 */
import { createDatabase, eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS, subscribe, verifiedEvents } from './support';

let sandbox: Sandbox;
let api: Service;
let shop: Shop;
const workers: Service[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  const databaseUrl = await createDatabase('events-crash');
  api = await startService({ label: 'events-crash', sandbox, databaseUrl, role: 'api', privateTargets: true, env: FAST_EVENTS });
  shop = await openShop(api, sandbox, { page: 6 });
}, 120000);
afterAll(async () => {
  for (const w of workers) await w.stop('SIGKILL').catch(() => undefined);
  await api.stop();
  await sandbox.close();
});

const startWorker = async () => {
  const w = await startService({ label: 'events-crash', sandbox, databaseUrl: api.databaseUrl, role: 'worker', privateTargets: true, env: FAST_EVENTS });
  workers.push(w);
  return w;
};

test('SIGKILL of the worker mid-delivery loses nothing: held deliveries are sent again, later events follow', async () => {
  const receiver = await Receiver.start();
  let hold = true;
  receiver.answer = () => (hold ? 'hang' : 200);
  const sub = await subscribe(api, shop.owner.key, shop.storeId, receiver.url);
  const first = await startWorker();
  const base = `/api/store-suppliers/${shop.storeId}/event-subscriptions/${sub.id}`;
  for (let i = 0; i < 4; i++) expect((await api.call('POST', `${base}/test`, { key: shop.owner.key })).status).toBe(202);
  await receiver.until((r) => r.length >= 2, 30000, 'deliveries in flight');
  const inFlight = new Set(receiver.received.map((r) => r.headers['webhook-id']));

  await first.stop('SIGKILL');
  hold = false;
  // Written while no worker runs: a health change (the API's own check) and more test events.
  await sandbox.control('POST', '/faults', { unavailableAccounts: [shop.account.accountId] });
  await api.call('POST', `/api/store-suppliers/${shop.storeId}/${shop.connId}/test`, { key: shop.owner.key });
  await sandbox.control('DELETE', '/faults');
  for (let i = 0; i < 2; i++) await api.call('POST', `${base}/test`, { key: shop.owner.key });

  await startWorker();
  const pending = async () =>
    Number((await api.db.query(`SELECT count(*) FROM event_deliveries WHERE subscription_id = $1 AND status <> 'delivered'`, [sub.id])).rows[0].count);
  await eventually(async () => ((await pending()) === 0 ? true : undefined), 60000, 'every delivery made after the restart');
  const expected = (
    await api.db.query(`SELECT o.id FROM event_outbox o JOIN event_deliveries d ON d.event_seq = o.seq WHERE d.subscription_id = $1`, [sub.id])
  ).rows.map((r) => r.id);
  expect(expected.length).toBeGreaterThanOrEqual(7);
  const accepted = await verifiedEvents(receiver.received, sub.secret);
  expect([...new Set(accepted.map((e) => e.id))].sort()).toEqual([...expected].sort());
  expect(accepted.map((e) => e.type)).toContain('connection.healthChanged');
  // The held ones came again with the same webhook-id (at least once).
  for (const id of inFlight) expect(accepted.map((e) => e.id)).toContain(id);
  await receiver.down();
}, 120000);

leakScanTest();
