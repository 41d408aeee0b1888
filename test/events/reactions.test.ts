/**
 * The service's own reactions to events go through the events domain's fan-out, like the deliveries to subscriptions:
 * dispatch sends a part once its order is confirmed. A worker killed while it reacts leaves the reaction to the next
 * (at least once; the part is still ordered once at the supplier); and the internal event types are offered to no
 * subscription, not even to `*`.
 */
import { createDatabase, eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, received, Shop } from '../support/orders';
import { FAST_EVENTS, receiverPool, subscribe, verifiedEvents } from './support';

const AUTOMATIC = { level: 'automatic', automaticPayment: false, allowUnpaidOrders: true };

let sandbox: Sandbox;
const started: Service[] = [];
const receivers = receiverPool();

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const s of started.reverse()) await s.stop('SIGKILL').catch(() => undefined);
  await receivers.downAll();
  await sandbox?.close();
});

async function start(label: string, databaseUrl: string, role: 'api' | 'worker', env: Record<string, string> = {}): Promise<Service | 'crashed'> {
  try {
    const svc = await startService({
      label,
      sandbox,
      databaseUrl,
      role,
      privateTargets: true,
      env: { ...FAST_EVENTS, DISPATCH_WAIT_MS: '0', JOB_SUPERVISE_SECONDS: '1', ...env },
    });
    started.push(svc);
    return svc;
  } catch (err) {
    // A worker may reach its crash point before it says it started.
    if (env.FAILPOINTS && /exited/.test(String(err))) return 'crashed';
    throw err;
  }
}

/** The supplier orders of the store once every part has one sent, each ordered once at the supplier. */
async function sentOnce(api: Service, shop: Shop, parts: number) {
  const rows = await eventually(
    async () => {
      const { rows } = await api.db.query(`SELECT status, supplier_order_number FROM supplier_orders WHERE store_id = $1`, [shop.storeId]);
      return rows.length === parts && rows.every((r) => r.status !== 'queued') ? rows : undefined;
    },
    90000,
    'every part sent',
  );
  const r = await received(sandbox);
  for (const row of rows) expect(r.count(row.supplier_order_number)).toBe(1);
  return rows;
}

test('a worker killed while it reacts to a confirmation leaves the reaction to the next: every part sent, once', async () => {
  const databaseUrl = await createDatabase('reactions-crash');
  const api = (await start('reactions-crash', databaseUrl, 'api')) as Service;
  const shop = await openShop(api, sandbox, { automation: AUTOMATIC });
  const orders = [await placeOrder(api, shop), await placeOrder(api, shop)];
  for (const o of orders) expect((await api.call('POST', `/api/store-orders/${shop.storeId}/${o.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  // The orders domain recorded its event with each confirmation; nothing is sent until a worker reacts.
  const { rows: recorded } = await api.db.query(`SELECT count(*)::int AS n FROM event_outbox WHERE type = 'storeOrder.confirmed' AND store_id = $1`, [
    shop.storeId,
  ]);
  expect(recorded[0].n).toBe(2);

  const doomed = await start('reactions-crash', databaseUrl, 'worker', { FAILPOINTS: 'events.react' });
  if (doomed !== 'crashed')
    await eventually(
      async () => (doomed.proc.exitCode !== null || doomed.proc.signalCode !== null ? true : undefined),
      30000,
      'the worker dying at its reaction',
    );
  const { rows: supplierOrders } = await api.db.query(`SELECT count(*)::int AS n FROM supplier_orders WHERE store_id = $1`, [shop.storeId]);
  expect(supplierOrders[0].n).toBe(0);

  await start('reactions-crash', databaseUrl, 'worker');
  await sentOnce(api, shop, 2);
  await eventually(
    async () => {
      const { rows } = await api.db.query(`SELECT count(*)::int AS n FROM event_reactions r JOIN event_outbox o ON o.seq = r.event_seq WHERE o.store_id = $1`, [
        shop.storeId,
      ]);
      return rows[0].n === 0 ? true : undefined;
    },
    30000,
    'the reactions done (and gone)',
  );
}, 240000);

test('internal event types are offered to no subscription: not chosen by name, not taken by *', async () => {
  const databaseUrl = await createDatabase('reactions-internal');
  const svc = (await start('reactions-internal', databaseUrl, 'api')) as Service;
  const shop = await openShop(svc, sandbox, { automation: AUTOMATIC });
  const receiver = await receivers.start();
  const refused = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/event-subscriptions`, {
    key: shop.owner.key,
    body: { url: receiver.url, eventTypes: ['storeOrder.confirmed'] },
  });
  expect([refused.status, refused.body.error?.code]).toEqual([400, 'validationFailed']);
  const { secret } = await subscribe(svc, shop.owner.key, shop.storeId, receiver.url, ['*']);
  await start('reactions-internal', databaseUrl, 'worker');
  const order = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  // The part's supplier order is made by the reaction and sent: their events are ones `*` takes.
  const got = (type: string) => (r: Array<{ json?: { type?: string } }>) => r.some((x) => x.json?.type === type);
  await receiver.until(got('supplierOrder.created'), 60000, 'supplierOrder.created');
  await receiver.until(got('orderPart.statusChanged'), 60000, 'orderPart.statusChanged');
  const types = (await verifiedEvents(receiver.received, secret)).map((e) => e.type);
  expect(types.filter((t) => t.startsWith('storeOrder.'))).toEqual([]);
  expect(types).toContain('orderPart.statusChanged');
}, 240000);
