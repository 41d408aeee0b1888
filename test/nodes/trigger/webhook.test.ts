/**
 * The trigger's webhook mode, in n8n-core's HookContext and WebhookContext: activation subscribes
 * through the real service and deactivation unsubscribes; each delivery's Standard Webhooks signature
 * is checked (good, tampered, wrong secret, stale) and only a good one starts the workflow; a real
 * pause, delivered by the real service, arrives as the event.
 */
import type { IDataObject } from 'n8n-workflow';

import { StoreSuppliersTrigger } from '../../../nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node';
import { webhookHeaders } from '../../../server/events/signing';
import { openShop } from '../../support/orders';
import { Receiver } from '../../support/receiver';
import { hookContext, rl, webhookContext } from '../support/context';
import { leakScanTest, pausedOrder, setUp } from '../support/world';

const s = setUp('trigger', (w) => openShop(w.svc, w.sandbox, { balanceMinor: 0, page: 2 }));
let receiver: Receiver & { url: string };

beforeAll(async () => {
  receiver = await Receiver.start('/webhook/store-suppliers');
});
afterAll(async () => {
  await receiver?.down();
});

const trigger = new StoreSuppliersTrigger();
const creds = () => ({ baseUrl: s.world.svc.baseUrl, apiKey: s.shop.owner.key });
const params = (extra: IDataObject = {}) => ({ mode: 'webhook', store: rl(s.shop.storeId, 'list'), eventTypes: ['supplierOrder.paused'], ...extra });
const hooks = (state: IDataObject, extra: IDataObject = {}) =>
  hookContext({ credentials: creds(), parameters: params(extra), staticData: state, webhookUrl: receiver.url }).ctx;

const SECRET = `whsec_${Buffer.from('a test signing key of 32 bytes!!').toString('base64')}`;
const EVENT = {
  id: 'evt_1',
  type: 'supplierOrder.paused',
  createdAt: new Date().toISOString(),
  storeId: 'store-1',
  data: { _id: 'so-1', status: 'needsReview' },
};

async function deliver(rawBody: string, headers: Record<string, string>, state: IDataObject = { subscriptionId: 'sub-1', secret: SECRET }) {
  const { ctx, response } = webhookContext({
    credentials: creds(),
    parameters: params(),
    staticData: state,
    request: { headers, rawBody: Buffer.from(rawBody) },
  });
  const answer = await trigger.webhook!.call(ctx);
  return { answer, response };
}

describe('a delivery is checked against the subscription secret before it starts the workflow', () => {
  const body = JSON.stringify(EVENT);

  test('a good signature starts the workflow with the event', async () => {
    const { answer, response } = await deliver(body, webhookHeaders([SECRET], EVENT.id, body));
    expect(response.status).toBeUndefined();
    expect(answer.workflowData?.[0].map((i) => i.json)).toEqual([EVENT]);
  });

  test('while a secret rotates, either of the two signatures is accepted', async () => {
    const old = `whsec_${Buffer.from('the old signing key, 32 bytes!!!').toString('base64')}`;
    const { answer } = await deliver(body, webhookHeaders([old, SECRET], EVENT.id, body));
    expect(answer.workflowData?.[0]).toHaveLength(1);
  });

  test.each([
    ['a body changed after signing', () => ({ raw: body.replace('needsReview', 'shipped'), headers: webhookHeaders([SECRET], EVENT.id, body) })],
    ['another secret', () => ({ raw: body, headers: webhookHeaders([`whsec_${Buffer.from('somebody else key').toString('base64')}`], EVENT.id, body) })],
    ['a stale timestamp (10 minutes old)', () => ({ raw: body, headers: webhookHeaders([SECRET], EVENT.id, body, new Date(Date.now() - 10 * 60_000)) })],
    ['a timestamp from the future (10 minutes)', () => ({ raw: body, headers: webhookHeaders([SECRET], EVENT.id, body, new Date(Date.now() + 10 * 60_000)) })],
    ['another event id', () => ({ raw: body, headers: { ...webhookHeaders([SECRET], EVENT.id, body), 'webhook-id': 'evt_2' } })],
    ['no signature header', () => ({ raw: body, headers: { 'webhook-id': EVENT.id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) } })],
  ])('%s is refused with 401 and starts nothing', async (_what, make) => {
    const { raw, headers } = make();
    const { answer, response } = await deliver(raw, headers);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: { code: 'invalidSignature' } });
    expect(answer).toEqual({ noWebhookResponse: true });
  });

  test('with no subscription in the static data (never activated) every delivery is refused', async () => {
    const { answer, response } = await deliver(body, webhookHeaders([SECRET], EVENT.id, body), {});
    expect(response.status).toBe(401);
    expect(answer.workflowData).toBeUndefined();
  });
});

test('activation subscribes through the service, checkExists sees it, a change of event types makes it stale, deactivation deletes it', async () => {
  const state: IDataObject = {};
  const methods = trigger.webhookMethods!.default;
  expect(await methods.checkExists.call(hooks(state))).toBe(false);
  const { ctx, rec } = hookContext({ credentials: creds(), parameters: params(), staticData: state, webhookUrl: receiver.url });
  expect(await methods.create.call(ctx)).toBe(true);
  expect(rec.requests.map((r) => [r.method, r.path, r.status])).toEqual([['POST', `/api/store-suppliers/${s.shop.storeId}/event-subscriptions`, 201]]);
  expect(rec.requests[0].body).toMatchObject({ url: receiver.url, eventTypes: ['supplierOrder.paused'] });
  expect(state).toEqual({ subscriptionId: expect.any(String), secret: expect.stringMatching(/^whsec_/), url: receiver.url });
  const stored = await s.world.svc.call('GET', `/api/store-suppliers/${s.shop.storeId}/event-subscriptions/${state.subscriptionId}`, { key: s.shop.owner.key });
  expect(stored.status).toBe(200);
  expect(stored.body.result).toMatchObject({ id: state.subscriptionId, url: receiver.url, eventTypes: ['supplierOrder.paused'], enabled: true });
  expect(await methods.checkExists.call(hooks(state))).toBe(true);
  expect(await methods.checkExists.call(hooks(state, { eventTypes: ['supplierOrder.paused', 'supplierOrder.shipped'] }))).toBe(false);

  const id = state.subscriptionId;
  expect(await methods.delete.call(hooks(state))).toBe(true);
  expect(state).toEqual({});
  const gone = await s.world.svc.call('GET', `/api/store-suppliers/${s.shop.storeId}/event-subscriptions/${id}`, { key: s.shop.owner.key });
  expect(gone.status).toBe(404);
  expect(await methods.checkExists.call(hooks(state))).toBe(false);
  // Deleting again (n8n may call delete on a workflow whose subscription is already gone) is fine.
  expect(await methods.delete.call(hooks({ subscriptionId: id, secret: SECRET }))).toBe(true);
});

test("listening for a test event in the editor subscribes the test URL and leaves the active workflow's subscription alone", async () => {
  const methods = trigger.webhookMethods!.default;
  const state: IDataObject = {};
  await methods.create.call(hooks(state));
  const active = state.subscriptionId;
  const testUrl = `${receiver.url}-test`;
  const manual = () => hookContext({ credentials: creds(), parameters: params(), staticData: state, webhookUrl: testUrl, mode: 'manual' }).ctx;
  expect(await methods.checkExists.call(manual())).toBe(false); // it points at the production URL
  await methods.create.call(manual());
  expect(state.subscriptionId).not.toBe(active);
  const get = async (id: unknown) =>
    await s.world.svc.call('GET', `/api/store-suppliers/${s.shop.storeId}/event-subscriptions/${String(id)}`, { key: s.shop.owner.key });
  expect((await get(active)).status).toBe(200);
  expect((await get(state.subscriptionId)).body.result.url).toBe(testUrl);
  const testId = state.subscriptionId;
  await methods.delete.call(manual());
  expect((await get(testId)).status).toBe(404);
  expect((await get(active)).status).toBe(200);
  await methods.delete.call(hooks({ subscriptionId: active }));
  expect((await get(active)).status).toBe(404);
});

test('polling mode makes no subscription', async () => {
  const state: IDataObject = {};
  const { ctx, rec } = hookContext({ credentials: creds(), parameters: params({ mode: 'polling' }), staticData: state, webhookUrl: receiver.url });
  expect(await trigger.webhookMethods!.default.checkExists.call(ctx)).toBe(true);
  expect(await trigger.webhookMethods!.default.create.call(ctx)).toBe(true);
  expect(rec.requests).toEqual([]);
  expect(state).toEqual({});
});

test('a real pause, delivered and signed by the service, starts the workflow with the supplierOrder.paused event', async () => {
  const state: IDataObject = {};
  await trigger.webhookMethods!.default.create.call(hooks(state));
  const so = await pausedOrder(s.world.svc, s.shop);
  await receiver.until((all) => all.some((r) => r.json?.type === 'supplierOrder.paused' && r.json.data._id === so._id), 20000, 'the pause delivered');
  const delivery = receiver.received.find((r) => r.json?.type === 'supplierOrder.paused' && r.json.data._id === so._id)!;
  const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)]));
  const { answer } = await deliver(delivery.body, headers, state);
  const [event] = answer.workflowData![0].map((i) => i.json);
  expect(event).toMatchObject({
    type: 'supplierOrder.paused',
    storeId: s.shop.storeId,
    data: { _id: so._id, status: 'needsReview', reviewReason: 'insufficientBalance' },
  });
  // The same delivery under the secret of another subscription is refused.
  const other = await deliver(delivery.body, headers, { subscriptionId: 'x', secret: SECRET });
  expect(other.response.status).toBe(401);
  await trigger.webhookMethods!.default.delete.call(hooks(state));
});

leakScanTest(s);
