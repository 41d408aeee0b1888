/**
 * Events to the developer, end to end: a supplier order's pause reaches a real receiver signed (Standard Webhooks),
 * with the supplier order as the API answers it to the subscription's owner, in order per resource; a receiver that
 * is down for "ten minutes" then up gets every event once, in order.
 */
import crypto from 'node:crypto';
import { webhooks } from '../../client/dist/cjs';
import { createKey, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop, soAction, submit } from '../support/orders';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS, inOrderPerResource, subscribe, verifiedEvents } from './support';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop; // sandbox balance 0: a payNow submit pauses with insufficientBalance

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'events-delivery', sandbox, privateTargets: true, env: FAST_EVENTS });
  shop = await openShop(svc, sandbox, { balanceMinor: 0, page: 3 });
}, 120000);
afterAll(async () => {
  console.log(JSON.stringify(svc.logs.filter((l: any) => l.level >= 40).slice(0, 20), null, 1));
  await svc.stop();
  await sandbox.close();
});

async function pause(): Promise<any> {
  const order = await placeOrder(svc, shop);
  const res = await submit(svc, shop, order.id, { payNow: true });
  expect(res.status).toBeLessThan(300);
  return res.body.result;
}

test('a pause arrives signed, with the supplier order as the API answers it, after its earlier events in order', async () => {
  const receiver = await Receiver.start();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, receiver.url);
  const so = await pause();
  await receiver.until((r) => r.some((x) => x.json?.type === 'supplierOrder.paused' && x.json.data._id === so._id), 20000, 'the pause');
  // The part's events are another resource's chain: in order among themselves, not with the supplier order's.
  await receiver.until(
    (r) => r.some((x) => x.json?.type === 'orderPart.statusChanged' && x.json.data.orderId === so.orderId && x.json.data.status === 'pending'),
    20000,
    'the part back to pending',
  );

  const events = await verifiedEvents(receiver.received, sub.secret);
  const mine = events.filter((e) => e.data?._id === so._id);
  expect(mine.map((e) => e.type)).toEqual(['supplierOrder.created', 'supplierOrder.statusChanged', 'supplierOrder.paused']);
  const paused = mine[2];
  expect(paused).toMatchObject({
    storeId: shop.storeId,
    data: { status: 'needsReview', reviewReason: 'insufficientBalance', retryable: false, destinationRedacted: false },
  });
  expect(paused.data.destination).toMatchObject({ country: 'US' });
  // The supplier order as GET answers it, history up to the pause included.
  const got = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${so._id}`, { key: shop.owner.key })).body.result;
  expect(paused.data).toEqual(got);
  // The part's moves are events of their own.
  const parts = events.filter((e) => e.type === 'orderPart.statusChanged' && e.data.orderId === so.orderId);
  expect(parts.map((e) => e.data.status)).toEqual(['processing', 'pending']);
  expect(parts[0].data).toMatchObject({ groupKey: `supplier:${shop.connId}`, orderNumber: so.orderNumber, items: [expect.any(String)] });
  inOrderPerResource(events);
  // Standard Webhooks headers: the event id is the webhook-id; the signature is v1 under the subscription's secret.
  const r = receiver.received.find((x) => x.json?.id === paused.id)!;
  expect(r.headers['webhook-id']).toBe(paused.id);
  expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
  expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  await receiver.down();
});

test('a bad signature, a changed body, an old timestamp and a wrong secret are refused by the JavaScript verify helper', async () => {
  const receiver = await Receiver.start();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, receiver.url);
  await pause();
  await receiver.until((r) => r.some((x) => x.json?.type === 'supplierOrder.paused'), 20000, 'a pause');
  const r = receiver.received.find((x) => x.json?.type === 'supplierOrder.paused')!;
  await expect(webhooks.verify(r.body, r.headers, sub.secret)).resolves.toMatchObject({ type: 'supplierOrder.paused' });
  const tampered = r.body.replace('insufficientBalance', 'costChanged');
  expect(tampered).not.toBe(r.body);
  await expect(webhooks.verify(tampered, r.headers, sub.secret)).rejects.toMatchObject({ name: 'WebhookVerificationError', reason: 'invalidSignature' });
  const forged = { ...r.headers, 'webhook-signature': `v1,${crypto.createHmac('sha256', 'not the secret').update(r.body).digest('base64')}` };
  await expect(webhooks.verify(r.body, forged, sub.secret)).rejects.toMatchObject({ reason: 'invalidSignature' });
  await expect(webhooks.verify(r.body, r.headers, `whsec_${crypto.randomBytes(32).toString('base64')}`)).rejects.toMatchObject({ reason: 'invalidSignature' });
  await expect(webhooks.verify(r.body, r.headers, sub.secret, { now: new Date(Date.now() + 3600_000) })).rejects.toMatchObject({
    reason: 'timestampOutOfRange',
  });
  await expect(webhooks.verify(r.body, { ...r.headers, 'webhook-id': undefined }, sub.secret)).rejects.toMatchObject({ reason: 'missingHeaders' });
  await receiver.down();
});

test('for a subscription owner without customers.view, data carries no destination, as the API would answer them', async () => {
  const staff = await newDeveloper(svc);
  const granted = await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, {
    key: shop.owner.key,
    body: { email: staff.email, permissions: ['suppliers.view', 'suppliers.manage', 'orders.view'] },
  });
  expect(granted.status).toBe(200);
  const receiver = await Receiver.start();
  const sub = await subscribe(svc, staff.key, shop.storeId, receiver.url, ['supplierOrder.paused']);
  const so = await pause();
  await receiver.until((r) => r.some((x) => x.json?.data?._id === so._id), 20000, 'the pause');
  const [event] = (await verifiedEvents(receiver.received, sub.secret)).filter((e) => e.data._id === so._id);
  expect(event.type).toBe('supplierOrder.paused');
  expect(event.data.destinationRedacted).toBe(true);
  expect(event.data).not.toHaveProperty('destination');
  expect(receiver.received.every((x) => x.json.type === 'supplierOrder.paused')).toBe(true);
  await receiver.down();
});

test("an own-scope key's subscription receives only the events of records that key made", async () => {
  const own = await createKey(svc, shop.owner.session, 'own scope', 'own');
  const receiver = await Receiver.start();
  await subscribe(svc, own.key, shop.storeId, receiver.url, ['supplierOrder.created']);
  const others = await pause(); // made with the account key
  const order = await placeOrder(svc, shop, { key: own.key });
  const mine = await submit(svc, shop, order.id, { payNow: true }, own.key);
  expect(mine.status).toBeLessThan(300);
  await receiver.until((r) => r.some((x) => x.json?.data?._id === mine.body.result._id), 20000, "the own key's order");
  await new Promise((r) => setTimeout(r, 1000));
  expect(receiver.received.map((x) => x.json.data._id)).toEqual([mine.body.result._id]);
  expect(receiver.received.map((x) => x.json.data._id)).not.toContain(others._id);
  await receiver.down();
});

test('a receiver down for ten minutes, then up, receives every event once, in order per resource', async () => {
  // The retry schedule is driven by configuration: EVENT_RETRY_BASE_MS is 100 here, a hundredth of the default 10 s, so
  // the attempts the default schedule makes in ten minutes (at about 0, 10, 30, 70, 150 and 310 s: six) take seconds.
  const receiver = await Receiver.start();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, receiver.url);
  await receiver.down();
  const first = await pause();
  const second = await pause();
  // More changes of the same resources while the receiver is down: they wait behind the first, in order.
  expect((await soAction(svc, shop, first._id, 'retry')).status).toBeLessThan(300);
  expect((await soAction(svc, shop, second._id, 'cancel')).status).toBeLessThan(300);
  const pending = async () =>
    (await svc.db.query(`SELECT attempts FROM event_deliveries WHERE subscription_id = $1 AND status = 'pending' ORDER BY event_seq`, [sub.id])).rows;
  await eventually(
    async () => {
      const rows = await pending();
      const heads = rows.filter((r) => r.attempts > 0);
      return heads.length > 0 && heads.every((r) => r.attempts >= 6) ? true : undefined;
    },
    60000,
    'six failed attempts at every delivery that can be sent',
  );
  const waiting = (await pending()).length;
  expect(waiting).toBeGreaterThanOrEqual(10);
  const list = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/event-subscriptions/${sub.id}/deliveries?status=pending&pageSize=100`, {
    key: shop.owner.key,
  });
  expect(list.body.result.items.find((d: any) => d.attempts >= 6)).toMatchObject({
    status: 'pending',
    responseStatus: null,
    lastError: 'The connection was refused.',
  });

  await receiver.up();
  await eventually(async () => ((await pending()).length === 0 ? true : undefined), 30000, 'every delivery made');
  const expected = (
    await svc.db.query(`SELECT o.id FROM event_outbox o JOIN event_deliveries d ON d.event_seq = o.seq WHERE d.subscription_id = $1`, [sub.id])
  ).rows.map((r) => r.id);
  const events = await verifiedEvents(receiver.received, sub.secret);
  expect(events.map((e) => e.id).sort()).toEqual(expected.sort());
  expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  const byResource = inOrderPerResource(events);
  expect(byResource.get(`supplierOrder:${first._id}`)!.map((e) => e.type)).toEqual([
    'supplierOrder.created',
    'supplierOrder.statusChanged',
    'supplierOrder.paused',
    'supplierOrder.statusChanged',
    'supplierOrder.statusChanged',
    'supplierOrder.paused',
  ]);
  expect(
    byResource
      .get(`supplierOrder:${second._id}`)!
      .map((e) => e.type)
      .slice(-1),
  ).toEqual(['supplierOrder.cancelled']);
  await receiver.down();
});

test('a supplier order whose creation is rolled back (its charge refused) records no event; its event number is spent unused', async () => {
  const order = await placeOrder(svc, shop);
  const lastSeq = async () => Number((await svc.db.query('SELECT last_value FROM event_outbox_seq_seq')).rows[0].last_value);
  const eventsOf = async () =>
    (await svc.db.query(`SELECT type FROM event_outbox WHERE snapshot->'record'->>'order_id' = $1 OR snapshot->>'order_id' = $1`, [order.id])).rows.map(
      (r) => r.type,
    );
  await svc.db.query('UPDATE accounts SET credits = 1 WHERE id = $1', [shop.owner.accountId]);
  const seqBefore = await lastSeq();
  const refused = await submit(svc, shop, order.id, { payNow: true });
  expect([refused.status, refused.body.error?.code]).toEqual([402, 'insufficientCredits']);
  // The statement wrote its events (their numbers were taken) and the charge rolled them back with the record.
  expect(await lastSeq()).toBeGreaterThan(seqBefore);
  expect(await eventsOf()).toEqual([]);
  expect((await svc.db.query('SELECT count(*)::int AS n FROM supplier_orders WHERE order_id = $1', [order.id])).rows[0].n).toBe(0);
  await svc.db.query('UPDATE accounts SET credits = 5000 WHERE id = $1', [shop.owner.accountId]);
  expect((await submit(svc, shop, order.id, { payNow: true })).status).toBeLessThan(300);
  expect(await eventsOf()).toEqual(expect.arrayContaining(['supplierOrder.created', 'orderPart.statusChanged']));
});

leakScanTest();
