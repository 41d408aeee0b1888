/** The polling trigger: dedupe per pause, first activation, manual runs, filters, bounded state. */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { enteredAt, MAX_REMEMBERED, pausedAt, reviewKey } from '../../../nodes/StoreSuppliersTrigger/poll';
import { StoreSuppliersTrigger } from '../../../nodes/StoreSuppliersTrigger/StoreSuppliersTrigger.node';
import { openShop, placeOrder, soAction, submit } from '../../support/orders';
import { Param, pollContext, rl } from '../support/context';
import { credentialsOf, leakScanTest, pausedOrder as pausedOrderOf, setUp, supplierOrderWhen } from '../support/world';

// Sandbox balance 0: every payNow submit pauses with insufficientBalance.
const s = setUp('trigger', (w) => openShop(w.svc, w.sandbox, { balanceMinor: 0, page: 4 }));

const trigger = new StoreSuppliersTrigger();

async function poll(staticData: IDataObject, parameters: Record<string, Param> = {}, mode: 'trigger' | 'manual' = 'trigger') {
  const p = pollContext({
    credentials: credentialsOf(s.world.svc, s.shop.owner.key),
    parameters: { store: rl(s.shop.storeId, 'list'), firstActivation: 'emitWaiting', filters: {}, ...parameters },
    staticData,
    mode,
  });
  const before = JSON.stringify(staticData);
  const out = (await trigger.poll!.call(p.ctx)) as INodeExecutionData[][] | null;
  const emitted = out ? out[0].map((i) => i.json) : [];
  return { emitted, rec: p.rec, changed: JSON.stringify(staticData) !== before, staticDataReads: p.staticDataReads() };
}

async function pausedOrder(): Promise<IDataObject> {
  const so = await pausedOrderOf(s.world.svc, s.shop);
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'insufficientBalance' });
  return so;
}

test('emits each paused order once; a poll with nothing new emits nothing and leaves the state alone', async () => {
  const first = await pausedOrder();
  const state: IDataObject = {};

  const p1 = await poll(state);
  expect(p1.emitted.map((o) => o._id)).toEqual([first._id]);
  expect(p1.changed).toBe(true);
  expect(state.keys).toEqual([reviewKey(first)]);
  // Every page of the orders waiting for review, at the largest page size.
  expect(p1.rec.requests).toHaveLength(1);
  expect(p1.rec.last()).toMatchObject({
    method: 'GET',
    path: `/api/store-suppliers/${s.shop.storeId}/orders`,
    query: { needsReview: 'true', pageSize: '100' },
  });

  const p2 = await poll(state);
  expect(p2.emitted).toEqual([]);
  expect(p2.changed).toBe(false);

  const second = await pausedOrder();
  const p3 = await poll(state);
  expect(p3.emitted.map((o) => o._id)).toEqual([second._id]);
  expect(state.keys).toEqual(expect.arrayContaining([reviewKey(first), reviewKey(second)]));

  const p4 = await poll(state);
  expect(p4.emitted).toEqual([]);
  expect(p4.changed).toBe(false);
});

test('an order that pauses again after a retry (same attempt, same reason) is emitted again; one that leaves review is forgotten at the next emit', async () => {
  const so = await pausedOrder();
  const state: IDataObject = {};
  expect((await poll(state)).emitted.map((o) => o._id)).toContain(so._id);
  expect((await poll(state)).emitted).toEqual([]);

  await soAction(s.world.svc, s.shop, so._id as string, 'retry');
  const retried = await supplierOrderWhen(
    s.world.svc,
    s.shop,
    so._id as string,
    (o) => o.status === 'needsReview' && pausedAt(o) > pausedAt(so),
    'the order to pause again',
  );
  expect(retried).toMatchObject({ reviewReason: 'insufficientBalance', attempt: so.attempt });
  const again = await poll(state);
  expect(again.emitted.map((o) => o._id)).toEqual([so._id]);
  expect(reviewKey(again.emitted[0])).not.toBe(reviewKey(so));
  expect((await poll(state)).emitted).toEqual([]);

  // Top up and retry: it leaves needsReview. Nothing is emitted, nothing changes...
  await s.world.sandbox.control('POST', `/accounts/${s.shop.account.accountId}/balance`, { balanceMinor: 1_000_000 });
  try {
    await soAction(s.world.svc, s.shop, so._id as string, 'retry');
    await supplierOrderWhen(s.world.svc, s.shop, so._id as string, (o) => o.status === 'confirmed', 'the order to be paid');
  } finally {
    await s.world.sandbox.control('POST', `/accounts/${s.shop.account.accountId}/balance`, { balanceMinor: 0 });
  }
  const quiet = await poll(state);
  expect(quiet.emitted).toEqual([]);
  expect(quiet.changed).toBe(false);
  // ...until the next emit, which keeps only the keys of orders still waiting.
  const next = await pausedOrder();
  const emit = await poll(state);
  expect(emit.emitted.map((o) => o._id)).toEqual([next._id]);
  expect(state.keys as string[]).not.toContain(reviewKey(again.emitted[0]));
  const waiting = await s.world.svc.call('GET', `/api/store-suppliers/${s.shop.storeId}/orders?needsReview=true&pageSize=100`, { key: s.shop.owner.key });
  expect((state.keys as string[]).sort()).toEqual(waiting.body.result.items.map((o: IDataObject) => reviewKey(o)).sort());
  expect((state.keys as string[]).length).toBeLessThanOrEqual(MAX_REMEMBERED);
});

test('first activation "only note": the first poll remembers what waits without emitting; later pauses are emitted', async () => {
  await pausedOrder();
  const state: IDataObject = {};
  const first = await poll(state, { firstActivation: 'baseline' });
  expect(first.emitted).toEqual([]);
  expect(first.changed).toBe(true);
  expect((state.keys as string[]).length).toBeGreaterThan(0);
  const second = await poll(state, { firstActivation: 'baseline' });
  expect(second.emitted).toEqual([]);
  expect(second.changed).toBe(false);
  const fresh = await pausedOrder();
  expect((await poll(state, { firstActivation: 'baseline' })).emitted.map((o) => o._id)).toEqual([fresh._id]);
});

test('first activation "emit": everything already waiting is emitted, oldest pause first', async () => {
  const state: IDataObject = {};
  const { emitted } = await poll(state);
  const waiting = await s.world.svc.call('GET', `/api/store-suppliers/${s.shop.storeId}/orders?needsReview=true&pageSize=100`, { key: s.shop.owner.key });
  expect(emitted.map((o) => o._id).sort()).toEqual(waiting.body.result.items.map((o: IDataObject) => o._id).sort());
  expect(emitted.length).toBeGreaterThan(1);
  const times = emitted.map((o) => (o.events as IDataObject[]).filter((e) => e.to === 'needsReview').pop()!.at as string);
  expect([...times].sort()).toEqual(times);
});

test('a manual run answers the newest paused order and neither reads nor changes the state', async () => {
  const newest = await pausedOrder();
  const state: IDataObject = { keys: ['kept'] };
  const run = await poll(state, {}, 'manual');
  expect(run.emitted.map((o) => o._id)).toEqual([newest._id]);
  expect(run.changed).toBe(false);
  expect(run.staticDataReads).toBe(0);
  expect(state).toEqual({ keys: ['kept'] });
});

test('several events: each order is emitted once per event it reaches, named in `event`; each event keeps its own keys', async () => {
  const rich = await openShop(s.world.svc, s.world.sandbox, { balanceMinor: 100_000_000, page: 5 });
  const events = ['confirmed', 'needsReview', 'cancelled'];
  const pollRich = (state: IDataObject, mode: 'trigger' | 'manual' = 'trigger') => {
    const p = pollContext({
      credentials: credentialsOf(s.world.svc, rich.owner.key),
      parameters: { store: rl(rich.storeId, 'list'), firstActivation: 'emitWaiting', filters: {}, events },
      staticData: state,
      mode,
    });
    return (trigger.poll!.call(p.ctx) as Promise<INodeExecutionData[][] | null>).then((out) => ({ emitted: out ? out[0].map((i) => i.json) : [], rec: p.rec }));
  };
  const confirmedOrder = async () => {
    const order = await placeOrder(s.world.svc, rich);
    const res = await submit(s.world.svc, rich, order.id, { payNow: true });
    return await supplierOrderWhen(s.world.svc, rich, res.body.result._id, (so) => so.status === 'confirmed', 'the supplier order to be confirmed');
  };
  const first = await confirmedOrder();
  const state: IDataObject = {};
  const p1 = await pollRich(state);
  expect(p1.emitted.map((o) => [o._id, o.event])).toEqual([[first._id, 'confirmed']]);
  expect(p1.rec.requests.map((r) => r.query.status ?? (r.query.needsReview ? 'needsReview' : '?')).sort()).toEqual(['cancelled', 'confirmed', 'needsReview']);
  expect((state.byEvent as IDataObject).confirmed).toEqual([`${first._id}|${enteredAt(first, 'confirmed')}`]);
  expect((await pollRich(state)).emitted).toEqual([]);
  const second = await confirmedOrder();
  expect((await pollRich(state)).emitted.map((o) => [o._id, o.event])).toEqual([[second._id, 'confirmed']]);
  // Cancelled: the same order again, now for its new event.
  const cancel = await soAction(s.world.svc, rich, second._id, 'cancel');
  expect(cancel.status).toBeLessThan(300);
  await supplierOrderWhen(s.world.svc, rich, second._id, (so) => so.status === 'cancelled', 'the supplier order to be cancelled');
  expect((await pollRich(state)).emitted.map((o) => [o._id, o.event])).toEqual([[second._id, 'cancelled']]);
  expect((await pollRich(state)).emitted).toEqual([]);
  const manual = await pollRich({ keys: [] }, 'manual');
  expect(manual.emitted.map((o) => o.event)).toEqual(['confirmed']);
});

test('filters: connection and contract model go to the list as query fields', async () => {
  const state: IDataObject = {};
  const run = await poll(state, { filters: { integrationId: s.shop.connId, contractModel: 'promiseToSell' } });
  expect(run.rec.last().query).toEqual({ needsReview: 'true', integrationId: s.shop.connId, contractModel: 'promiseToSell', pageSize: '100' });
  expect(run.emitted).toEqual([]);
  expect(run.changed).toBe(false);
  const standard = await poll(state, { filters: { integrationId: s.shop.connId, contractModel: 'standard' } });
  expect(standard.emitted.length).toBeGreaterThan(0);
  expect(standard.emitted.every((o) => o.integrationId === s.shop.connId && o.contractModel === 'standard')).toBe(true);
});

leakScanTest(s);
