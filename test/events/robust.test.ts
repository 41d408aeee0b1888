/**
 * A delivery that cannot be built (its event does not render, its secret does not decrypt, the send itself throws) is
 * retried like a failed send, then given up with its reason; its chain moves on, the rest of its pass goes out, and
 * the process keeps serving. Faults made as they would come: a row the renderer cannot read, a damaged sealed secret,
 * and fault points (FAILPOINTS=<name>=throw) where a bug would throw.
 */
import { eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop, submit } from '../support/orders';
import { FAST_EVENTS, ownStore, receiverPool, subscribe } from './support';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;
const receivers = receiverPool();
const others: Service[] = [];

beforeAll(async () => {
  sandbox = await startSandbox();
  // Given up after 4 s of failing (the default is three days), so the end of a retry period is seen here.
  svc = await startService({ label: 'events-robust', sandbox, privateTargets: true, env: { ...FAST_EVENTS, EVENT_GIVE_UP_SECONDS: '4' } });
  shop = await openShop(svc, sandbox, { balanceMinor: 0, page: 8 });
}, 120000);
afterAll(async () => {
  await receivers.downAll();
  for (const o of others) await o.stop();
  await svc.stop();
  await sandbox.close();
});

const receiver = () => receivers.start();
const deliveriesOf = async (subscriptionId: string) =>
  (
    await svc.db.query(
      `SELECT d.status, d.attempts, d.last_error, o.resource_key, o.id AS event_id FROM event_deliveries d JOIN event_outbox o ON o.seq = d.event_seq WHERE d.subscription_id = $1 ORDER BY d.event_seq`,
      [subscriptionId],
    )
  ).rows;

test('an event whose row cannot be rendered is retried, then given up with its reason; the rest of its pass goes out at once and its chain moves on', async () => {
  const r = await receiver();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, r.url);
  const order = await placeOrder(svc, shop);
  expect((await submit(svc, shop, order.id, { payNow: true })).status).toBeLessThan(300);
  await r.until((got) => got.some((x) => x.json?.type === 'supplierOrder.paused'), 20000, 'a pause');

  // One transaction, so one fan-out and one claim: a supplier order event whose row the renderer cannot read, the next
  // event of that same resource behind it, and three good events of other resources (copies of a real one's row).
  const client = await svc.db.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO event_outbox (store_id, type, resource_key, snapshot) VALUES ($1, 'supplierOrder.statusChanged', 'supplierOrder:broken', '{"record": null}')`,
      [shop.storeId],
    );
    for (const key of ['supplierOrder:broken', 'supplierOrder:fine-1', 'supplierOrder:fine-2', 'supplierOrder:fine-3']) {
      await client.query(
        `INSERT INTO event_outbox (store_id, type, resource_key, snapshot) SELECT store_id, type, $2, snapshot FROM event_outbox WHERE store_id = $1 AND type = 'supplierOrder.paused' LIMIT 1`,
        [shop.storeId, key],
      );
    }
    await client.query('COMMIT');
  } finally {
    client.release();
  }

  const rows = await eventually(
    async () => {
      const all = (await deliveriesOf(sub.id)).filter((d) => d.resource_key.startsWith('supplierOrder:fine') || d.resource_key === 'supplierOrder:broken');
      return all.length === 5 && all.every((d) => d.status !== 'pending') ? all : undefined;
    },
    30000,
    'every delivery of the transaction ended',
  );
  const [broken, behind, ...fine] = rows;
  expect(broken).toMatchObject({
    resource_key: 'supplierOrder:broken',
    status: 'failed',
    last_error: 'The event could not be rendered; it was retried until its retry period ended.',
  });
  expect(broken.attempts).toBeGreaterThanOrEqual(2);
  // The next of its chain went once the broken one was given up; the others of the pass at their first attempt.
  expect(behind).toMatchObject({ resource_key: 'supplierOrder:broken', status: 'delivered' });
  expect(fine.map((d) => [d.resource_key, d.status, d.attempts])).toEqual([
    ['supplierOrder:fine-1', 'delivered', 1],
    ['supplierOrder:fine-2', 'delivered', 1],
    ['supplierOrder:fine-3', 'delivered', 1],
  ]);
  const got = new Set(r.received.map((x) => x.json?.id));
  expect([behind, ...fine].every((d) => got.has(d.event_id))).toBe(true);
  expect(got.has(broken.event_id)).toBe(false);
});

test("a subscription whose sealed secret cannot be opened: its delivery is retried, then given up with the reason; another subscription's delivery goes", async () => {
  const bad = await receiver();
  const good = await receiver();
  const damaged = await subscribe(svc, shop.owner.key, shop.storeId, bad.url);
  const fine = await subscribe(svc, shop.owner.key, shop.storeId, good.url);
  await svc.db.query(`UPDATE event_subscriptions SET secret_sealed = 'v1.damaged' WHERE id = $1`, [damaged.id]);
  const base = `/api/store-suppliers/${shop.storeId}/event-subscriptions`;
  expect((await svc.call('POST', `${base}/${damaged.id}/test`, { key: shop.owner.key })).status).toBe(202);
  expect((await svc.call('POST', `${base}/${fine.id}/test`, { key: shop.owner.key })).status).toBe(202);
  await good.until((got) => got.length >= 1, 20000, "the good subscription's test event");
  const [failed] = await eventually(
    async () => {
      const rows = await deliveriesOf(damaged.id);
      return rows.length && rows[0].status === 'failed' ? rows : undefined;
    },
    30000,
    "the damaged subscription's delivery given up",
  );
  expect(failed.last_error).toBe('The signing secret could not be read (rotate the secret); it was retried until its retry period ended.');
  expect(failed.attempts).toBeGreaterThanOrEqual(2);
  expect(bad.received).toEqual([]);
  // Its log answers the same reason to the merchant.
  const log = await svc.call('GET', `${base}/${damaged.id}/deliveries`, { key: shop.owner.key });
  expect(log.body.result.items[0]).toMatchObject({ status: 'failed', responseStatus: null, lastError: failed.last_error });
});

test('a send that throws is caught: the delivery is retried with its reason and the process keeps serving', async () => {
  const thrower = await startService({ label: 'events-throw', privateTargets: true, env: { ...FAST_EVENTS, FAILPOINTS: 'events.send=throw' } });
  others.push(thrower);
  const { dev, storeId } = await ownStore(thrower);
  const r = await receiver();
  const sub = await subscribe(thrower, dev.key, storeId, r.url);
  const sent = await thrower.call('POST', `/api/store-suppliers/${storeId}/event-subscriptions/${sub.id}/test`, { key: dev.key });
  expect(sent.status).toBe(202);
  const d = await eventually(
    async () => {
      const got = await thrower.call('GET', `/api/store-suppliers/${storeId}/event-subscriptions/${sub.id}/deliveries`, { key: dev.key });
      const item = got.body?.result?.items?.[0];
      return item && item.attempts >= 2 ? item : undefined;
    },
    30000,
    'two attempts',
  );
  expect(d).toMatchObject({ status: 'pending', responseStatus: null, lastError: 'The delivery could not be sent (an error on our side); it is retried.' });
  expect(thrower.proc.exitCode).toBeNull();
  expect((await thrower.call('GET', '/healthz')).status).toBe(200);
  expect(r.received).toEqual([]);
});

test('a promise rejection nobody handles is logged, and the process keeps serving', async () => {
  const drill = await startService({ label: 'events-unhandled', env: { FAILPOINTS: 'main.unhandledRejection=throw' } });
  others.push(drill);
  const line = await drill.waitForLog((l) => l.msg === 'unhandled promise rejection', 20000);
  expect(line).toMatchObject({ level: 50 });
  expect(String((line.err as { message?: string })?.message ?? line.err)).toContain('failpoint main.unhandledRejection');
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(drill.proc.exitCode).toBeNull();
  expect((await drill.call('GET', '/healthz')).status).toBe(200);
  expect((await newDeveloper(drill)).key).toMatch(/^ssk_/);
});

leakScanTest();
