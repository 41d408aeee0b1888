/**
 * Event subscriptions over HTTP: permissions (view to read, manage to change), the key's record scope, the address
 * guard, the test event, the delivery log and redelivery, secret rotation, a slow receiver delaying only its own
 * deliveries, and a subscription switched off (with its reason) once its deliveries failed for the whole retry period.
 */
import { webhooks } from '../../client/dist/cjs';
import { createKey, eventually, leakScanTest, newDeveloper, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { FAST_EVENTS, receiverPool, subscribe } from './support';

let sandbox: Sandbox;
let svc: Service;
let shop: Shop;
const receivers = receiverPool();

beforeAll(async () => {
  sandbox = await startSandbox();
  // Given up after 3 s of failing (the default is three days), so the switch-off is seen here; 4 delivery slots, at
  // most 2 for one subscription, so a hanging receiver could take them all without the per-subscription limit.
  const env = { ...FAST_EVENTS, EVENT_GIVE_UP_SECONDS: '3', EVENT_DELIVERY_CONCURRENCY: '4', EVENT_SUBSCRIPTION_CONCURRENCY: '2' };
  svc = await startService({ label: 'events-subscriptions', sandbox, privateTargets: true, env });
  shop = await openShop(svc, sandbox, { page: 5 });
}, 120000);
afterAll(async () => {
  await receivers.downAll();
  await svc.stop();
  await sandbox.close();
});

const base = () => `/api/store-suppliers/${shop.storeId}/event-subscriptions`;
const receiver = () => receivers.start();

test('reading takes suppliers.view, changing takes suppliers.manage; a key without either is refused', async () => {
  const viewer = await newDeveloper(svc);
  const outsider = await newDeveloper(svc);
  expect(
    (await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: viewer.email, permissions: ['suppliers.view'] } }))
      .status,
  ).toBe(200);
  expect(
    (await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: outsider.email, permissions: ['orders.view'] } })).status,
  ).toBe(200);
  const r = await receiver();
  const made = await subscribe(svc, shop.owner.key, shop.storeId, r.url, ['supplierOrder.paused']);

  const listed = await svc.call('GET', base(), { key: viewer.key });
  expect(listed.status).toBe(200);
  expect(listed.body.result.items.map((s: any) => s.id)).toContain(made.id);
  expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  const create = await svc.call('POST', base(), { key: viewer.key, body: { url: r.url, eventTypes: ['*'] } });
  expect([create.status, create.body.error.code]).toEqual([403, 'permissionDenied']);
  expect((await svc.call('DELETE', `${base()}/${made.id}`, { key: viewer.key })).status).toBe(403);
  expect((await svc.call('GET', base(), { key: outsider.key })).status).toBe(403);
  expect((await svc.call('GET', `${base()}/${made.id}`, { key: outsider.key })).status).toBe(403);
});

test('an own-scope key sees and changes only the subscriptions it made', async () => {
  const own = await createKey(svc, shop.owner.session, 'own events', 'own');
  const r = await receiver();
  const accounts = await subscribe(svc, shop.owner.key, shop.storeId, r.url);
  const mine = await subscribe(svc, own.key, shop.storeId, r.url);
  const listed = (await svc.call('GET', base(), { key: own.key })).body.result.items.map((s: any) => s.id);
  expect(listed).toEqual([mine.id]);
  expect((await svc.call('GET', `${base()}/${accounts.id}`, { key: own.key })).status).toBe(404);
  expect((await svc.call('PATCH', `${base()}/${accounts.id}`, { key: own.key, body: { enabled: false } })).status).toBe(404);
  expect((await svc.call('PATCH', `${base()}/${mine.id}`, { key: own.key, body: { description: 'mine' } })).body.result.description).toBe('mine');
});

test('bad input is a 400 with its field, never a 500', async () => {
  const r = await receiver();
  const cases = [
    { url: r.url, eventTypes: [] },
    { url: r.url, eventTypes: ['supplierOrder.exploded'] },
    { url: 'ftp://example.com/hook', eventTypes: ['*'] },
    { url: 'http://user:pw@example.com/hook', eventTypes: ['*'] },
    { eventTypes: ['*'] },
  ];
  for (const body of cases) {
    const res = await svc.call('POST', base(), { key: shop.owner.key, body });
    expect([JSON.stringify(body), res.status, typeof res.body.error.code]).toEqual([JSON.stringify(body), 400, 'string']);
  }
});

test('the test event arrives signed; the delivery log shows status, attempts and response code; redeliver sends it again with the same id', async () => {
  const r = await receiver();
  let answer = 500;
  r.answer = () => answer;
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, r.url);
  const sent = await svc.call('POST', `${base()}/${sub.id}/test`, { key: shop.owner.key });
  expect(sent.status).toBe(202);
  expect(sent.body.result).toMatchObject({ eventType: 'subscription.test', status: 'pending' });
  await r.until((got) => got.length >= 2, 20000, 'two failed attempts');
  answer = 200;
  await r.until((got) => got.some((x) => x.status === 200), 20000, 'the accepted attempt');
  const event = await webhooks.verify(r.received[0].body, r.received[0].headers, sub.secret);
  expect(event).toMatchObject({ type: 'subscription.test', storeId: shop.storeId, data: { subscriptionId: sub.id } });
  expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([event.id]));

  const deliveries = `${base()}/${sub.id}/deliveries`;
  const [d] = await eventually(
    async () => {
      const items = (await svc.call('GET', `${deliveries}?status=delivered`, { key: shop.owner.key })).body.result.items;
      return items.length ? items : undefined;
    },
    10000,
    'the delivered row',
  );
  expect(d).toMatchObject({ id: sent.body.result.id, eventId: event.id, status: 'delivered', responseStatus: 200, lastError: null, nextAttemptAt: null });
  expect(d.attempts).toBe(r.received.length);
  expect(d.attempts).toBeGreaterThanOrEqual(3);

  const before = r.received.length;
  const again = await svc.call('POST', `${deliveries}/${d.id}/redeliver`, { key: shop.owner.key });
  expect([again.status, again.body.result.status]).toEqual([202, 'pending']);
  await r.until((got) => got.length > before, 20000, 'the redelivery');
  expect(r.received[before].headers['webhook-id']).toBe(event.id);
  expect((await svc.call('POST', `${deliveries}/00000000-0000-4000-8000-000000000000/redeliver`, { key: shop.owner.key })).status).toBe(404);
});

test('a rotated secret signs beside the old one while the old one is kept', async () => {
  const r = await receiver();
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, r.url);
  const rotated = await svc.call('POST', `${base()}/${sub.id}/rotate-secret`, { key: shop.owner.key, body: { keepOldSeconds: 3600 } });
  expect(rotated.status).toBe(200);
  const secret = rotated.body.result.secret as string;
  seen.secrets.add(secret);
  expect(secret).toMatch(/^whsec_/);
  expect(secret).not.toBe(sub.secret);
  await svc.call('POST', `${base()}/${sub.id}/test`, { key: shop.owner.key });
  await r.until((got) => got.length >= 1, 20000, 'the test event');
  const [got] = r.received;
  expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
  await expect(webhooks.verify(got.body, got.headers, secret)).resolves.toMatchObject({ type: 'subscription.test' });
  await expect(webhooks.verify(got.body, got.headers, sub.secret)).resolves.toMatchObject({ type: 'subscription.test' });
});

test('a receiver that hangs delays only its own deliveries', async () => {
  const slow = await receiver();
  slow.answer = () => 'hang';
  const fast = await receiver();
  const s = await subscribe(svc, shop.owner.key, shop.storeId, slow.url);
  const f = await subscribe(svc, shop.owner.key, shop.storeId, fast.url);
  for (let i = 0; i < 5; i++) await svc.call('POST', `${base()}/${s.id}/test`, { key: shop.owner.key });
  await slow.until((got) => got.length >= 2, 20000, 'the slow receiver held two deliveries');
  const started = Date.now();
  await svc.call('POST', `${base()}/${f.id}/test`, { key: shop.owner.key });
  await fast.until((got) => got.length >= 1, 20000, 'the fast receiver');
  // The slow receiver's attempts each take the 2 s time limit; the fast one's event did not wait for them.
  expect(Date.now() - started).toBeLessThan(1500);
  expect(slow.received.every((x) => x.status === 0)).toBe(true);
  await svc.call('PATCH', `${base()}/${s.id}`, { key: shop.owner.key, body: { enabled: false } });
});

test('a subscription whose deliveries fail for the whole retry period is switched off and says why; switching it on sends again', async () => {
  const r = await receiver();
  r.answer = () => 503;
  const sub = await subscribe(svc, shop.owner.key, shop.storeId, r.url);
  await svc.call('POST', `${base()}/${sub.id}/test`, { key: shop.owner.key });
  const off = await eventually(
    async () => {
      const s = (await svc.call('GET', `${base()}/${sub.id}`, { key: shop.owner.key })).body.result;
      return s.enabled ? undefined : s;
    },
    30000,
    'the switch-off',
  );
  expect(off.disabledReason).toMatchObject({ code: 'deliveriesFailing', message: expect.stringMatching(/retry period/) });
  const [failed] = (await svc.call('GET', `${base()}/${sub.id}/deliveries`, { key: shop.owner.key })).body.result.items;
  expect(failed).toMatchObject({ status: 'failed', responseStatus: 503 });
  r.answer = () => 200;
  const on = await svc.call('PATCH', `${base()}/${sub.id}`, { key: shop.owner.key, body: { enabled: true } });
  expect(on.body.result).toMatchObject({ enabled: true, disabledReason: null });
  await svc.call('POST', `${base()}/${sub.id}/test`, { key: shop.owner.key });
  await r.until((got) => got.some((x) => x.status === 200), 20000, 'a delivery after switching on');
});

test('the address guard refuses loopback, private and link-local targets outside the local default', async () => {
  const guarded = await startService({ label: 'events-guard', databaseUrl: svc.databaseUrl });
  try {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/hook',
      'http://[::ffff:127.0.0.1]/hook',
    ]) {
      const res = await guarded.call('POST', base(), { key: shop.owner.key, body: { url, eventTypes: ['*'] } });
      expect([url, res.status, res.body.error?.code]).toEqual([url, 400, 'targetNotAllowed']);
    }
    const pub = await guarded.call('POST', base(), { key: shop.owner.key, body: { url: 'https://93.184.216.34/hook', eventTypes: ['*'] } });
    expect(pub.status).toBe(201);
    seen.secrets.add(pub.body.result.secret);
    const moved = await guarded.call('PATCH', `${base()}/${pub.body.result.id}`, { key: shop.owner.key, body: { url: 'http://127.0.0.1/hook' } });
    expect([moved.status, moved.body.error?.code]).toEqual([400, 'targetNotAllowed']);
    await guarded.call('DELETE', `${base()}/${pub.body.result.id}`, { key: shop.owner.key });
  } finally {
    await guarded.stop();
  }
}, 90000);

leakScanTest();
