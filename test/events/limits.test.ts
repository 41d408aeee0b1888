/**
 * What one store may take of what all stores share: subscriptions per store, test and redeliver per store and minute
 * (held across API processes), and delivery slots, of which one store's dead receivers hold only their store's share.
 * The limits are published in the OpenAPI document.
 */
import { eventually, leakScanTest, seen, Service, startService } from '../support/harness';
import { FAST_EVENTS, ownStore, receiverPool, subscribe } from './support';

let svc: Service;
let second: Service;
const receivers = receiverPool();

const LIMITS = {
  EVENT_SUBSCRIPTIONS_PER_STORE: '3',
  EVENT_SENDS_PER_MINUTE: '10',
  // 4 slots, at most 2 for one store and 2 for one subscription: without the store's share, two of a store's hanging
  // subscriptions would hold all four.
  EVENT_DELIVERY_CONCURRENCY: '4',
  EVENT_STORE_CONCURRENCY: '2',
  EVENT_SUBSCRIPTION_CONCURRENCY: '2',
  EVENT_DELIVERY_TIMEOUT_MS: '5000',
};

beforeAll(async () => {
  svc = await startService({ label: 'events-limits', privateTargets: true, env: { ...FAST_EVENTS, ...LIMITS } });
  // A second API process on the same database: the per-store limits hold across processes.
  second = await startService({ label: 'events-limits', databaseUrl: svc.databaseUrl, role: 'api', privateTargets: true, env: { ...FAST_EVENTS, ...LIMITS } });
}, 120000);
afterAll(async () => {
  await receivers.downAll();
  await second.stop();
  await svc.stop();
});

const receiver = () => receivers.start();

test('a store has at most EVENT_SUBSCRIPTIONS_PER_STORE subscriptions: the next is 409 subscriptionLimitReached, also when asked for at once through two processes', async () => {
  const { dev, storeId, base } = await ownStore(svc);
  const r = await receiver();
  const made = await Promise.all(
    Array.from({ length: 6 }, (_, i) => (i % 2 ? second : svc).call('POST', base, { key: dev.key, body: { url: r.url, eventTypes: ['*'] } })),
  );
  for (const m of made) if (m.status === 201) seen.secrets.add(m.body.result.secret);
  expect(made.map((m) => m.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
  const refused = made.find((m) => m.status === 409)!;
  expect(refused.body.error).toMatchObject({ code: 'subscriptionLimitReached', details: [{ limit: 3 }] });
  expect((await svc.call('GET', base, { key: dev.key })).body.result.items).toHaveLength(3);
  // Another store is not counted against it; one deleted makes room.
  const other = await ownStore(svc);
  await subscribe(svc, other.dev.key, other.storeId, r.url);
  expect((await svc.call('DELETE', `${base}/${made.find((m) => m.status === 201)!.body.result.id}`, { key: dev.key })).status).toBe(204);
  await subscribe(svc, dev.key, storeId, r.url);
});

test('test and redeliver share EVENT_SENDS_PER_MINUTE per store, across API processes: then 429 rateLimited with Retry-After; other stores are untouched', async () => {
  const { dev, storeId, base } = await ownStore(svc);
  const r = await receiver();
  const sub = await subscribe(svc, dev.key, storeId, r.url);
  const answers = [];
  for (let i = 0; i < 10; i++) answers.push(await (i % 2 ? second : svc).call('POST', `${base}/${sub.id}/test`, { key: dev.key }));
  expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202));
  const refused = await second.call('POST', `${base}/${sub.id}/test`, { key: dev.key });
  expect([refused.status, refused.body.error?.code]).toEqual([429, 'rateLimited']);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(refused.body.error.details[0]).toMatchObject({ limit: 10, windowSeconds: 60, retryAfterSeconds: retryAfter });
  const redeliver = await svc.call('POST', `${base}/${sub.id}/deliveries/${answers[0].body.result.id}/redeliver`, { key: dev.key });
  expect([redeliver.status, redeliver.body.error?.code]).toEqual([429, 'rateLimited']);
  expect(Number(redeliver.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // Nothing was written for the refused ones.
  const events = await svc.db.query(`SELECT count(*)::int AS n FROM event_deliveries WHERE subscription_id = $1`, [sub.id]);
  expect(events.rows[0].n).toBe(10);
  // Another store's sends are its own.
  const other = await ownStore(svc);
  const otherSub = await subscribe(svc, other.dev.key, other.storeId, r.url);
  expect((await svc.call('POST', `${other.base}/${otherSub.id}/test`, { key: other.dev.key })).status).toBe(202);
  // Once Retry-After has passed, one more is allowed.
  await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 200));
  expect((await svc.call('POST', `${base}/${sub.id}/test`, { key: dev.key })).status).toBe(202);
}, 120000);

test('the limits are in the OpenAPI document: x-rate-limit and 429 on test and redeliver, 409 on create', async () => {
  const doc = (await svc.call('GET', '/api/store-suppliers/openapi.json')).body;
  const subs = '/api/store-suppliers/{storeId}/event-subscriptions';
  for (const op of [doc.paths[`${subs}/{subscriptionId}/test`].post, doc.paths[`${subs}/{subscriptionId}/deliveries/{deliveryId}/redeliver`].post]) {
    expect(op['x-rate-limit']).toMatchObject({ limit: 10, windowSeconds: 60, per: 'store', shared: ['testEventSubscription', 'redeliverEvent'] });
    expect(op.responses['429'].description).toMatch(/rateLimited/);
    expect(op.responses['429'].headers['Retry-After']).toBeDefined();
  }
  const create = doc.paths[subs].post;
  expect(create['x-limit']).toMatchObject({ limit: 3, per: 'store' });
  expect(create.responses['409'].description).toMatch(/subscriptionLimitReached/);
});

test("a store's hanging receivers hold only the store's share of the delivery slots: another store's event goes out at once", async () => {
  const a = await ownStore(svc);
  const hanging = await Promise.all([receiver(), receiver(), receiver()]);
  for (const h of hanging) h.answer = () => 'hang';
  const subs = [];
  for (const h of hanging) subs.push(await subscribe(svc, a.dev.key, a.storeId, h.url));
  // A backlog: three test events each, nine due at once.
  for (const s of subs) for (let i = 0; i < 3; i++) expect((await svc.call('POST', `${a.base}/${s.id}/test`, { key: a.dev.key })).status).toBe(202);
  const arrivals = () => hanging.flatMap((h) => h.received.map((x) => x.at)).sort((x, y) => x - y);
  await eventually(async () => (arrivals().length >= 2 ? true : undefined), 20000, "store A's receivers holding deliveries");

  const b = await ownStore(svc);
  const quick = await receiver();
  const bSub = await subscribe(svc, b.dev.key, b.storeId, quick.url);
  expect((await svc.call('POST', `${b.base}/${bSub.id}/test`, { key: b.dev.key })).status).toBe(202);
  await quick.until((got) => got.length >= 1, 20000, "store B's event");
  const firstHeld = arrivals()[0];
  // Store B's event went out while store A's first deliveries were still held (each waits out the 5 s time limit),
  // and store A never had more than its share (2) in flight before that.
  expect(quick.received[0].at - firstHeld).toBeLessThan(5000);
  expect(arrivals().filter((at) => at < firstHeld + 4000).length).toBeLessThanOrEqual(2);
  for (const s of subs) await svc.call('PATCH', `${a.base}/${s.id}`, { key: a.dev.key, body: { enabled: false } });
}, 60000);

leakScanTest();
