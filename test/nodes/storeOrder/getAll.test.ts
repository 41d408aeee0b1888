/** Store Order › Get Many: filters (needs attention, status, customer), Simplify, the pager. */
import type { IDataObject } from 'n8n-workflow';

import { newDeveloper } from '../../support/harness';
import { placeOrder, submit, US_ADDRESS } from '../../support/orders';
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { storeOrderFile } from './setup';

const { s, creds, params, orders } = storeOrderFile();

test('needs attention filter, "any" by default, simplified by default', async () => {
  const quiet = await placeOrder(s.world.svc, s.shop);
  const waiting = await placeOrder(s.world.svc, s.shop);
  await s.world.svc.call('POST', `${orders()}/${waiting.id}/confirm`, { key: s.shop.owner.key });
  await submit(s.world.svc, s.shop, waiting.id, { payNow: true });
  const all = await runNode(creds(), params({ operation: 'getAll', returnAll: true, filters: {}, simplify: true }));
  expectSent(all.rec.last(), { method: 'GET', path: orders(), query: { pageSize: '100' }, body: undefined, status: 200 }, creds());
  expect(all.json.map((o) => o.id)).toEqual(expect.arrayContaining([quiet.id, waiting.id]));
  for (const o of all.json) expect(o).not.toHaveProperty('destination');
  expectPaired(
    all.out,
    all.out.map(() => 0),
  );
  let attention: IDataObject[] = [];
  for (let i = 0; i < 60 && !attention.some((o) => o.id === waiting.id); i++) {
    const run = await runNode(creds(), params({ operation: 'getAll', returnAll: true, filters: { needsAttention: 'true' }, simplify: true }));
    expect(run.rec.last().query).toEqual({ needsAttention: 'true', pageSize: '100' });
    attention = run.json;
    if (!attention.some((o) => o.id === waiting.id)) await new Promise((r) => setTimeout(r, 500));
  }
  expect(attention.map((o) => o.id)).toContain(waiting.id);
  expect(attention.map((o) => o.id)).not.toContain(quiet.id);
  expect(attention.every((o) => o.needsAttention === true)).toBe(true);
});

test('customer: the orders whose delivery name or e-mail holds the text; status and a limit go along', async () => {
  const grace = await placeOrder(s.world.svc, s.shop, { destination: { ...US_ADDRESS, name: 'Grace Hopper', email: 'grace.hopper@navy.example' } });
  const ada = await placeOrder(s.world.svc, s.shop, { destination: { ...US_ADDRESS, name: 'Ada Lovelace', email: 'ada@example.test' } });
  const byName = await runNode(creds(), params({ operation: 'getAll', returnAll: true, filters: { customer: ' HOPPER ' } }));
  expectSent(byName.rec.last(), { method: 'GET', path: orders(), query: { customer: 'HOPPER', pageSize: '100' }, body: undefined, status: 200 }, creds());
  expect(byName.json.map((o) => o.id)).toEqual([grace.id]);
  const byMail = await runNode(creds(), params({ operation: 'getAll', returnAll: false, limit: 5, filters: { customer: 'navy.example', status: 'pending' } }));
  expect(byMail.rec.last().query).toEqual({ customer: 'navy.example', status: 'pending', pageSize: '5' });
  expect(byMail.json.map((o) => o.id)).toEqual([grace.id]);
  const nobody = await runNode(creds(), params({ operation: 'getAll', returnAll: true, filters: { customer: 'nobody-like-this' } }));
  expect(nobody.json).toEqual([]);
  expect(ada.id).not.toBe(grace.id);
});

test("customer without customers.view: the service's 403 permissionDenied with the hint; under Continue On Fail that item's error, the other item lists", async () => {
  const clerk = await newDeveloper(s.world.svc);
  const granted = await s.world.svc.call('PUT', `/api/stores/${s.shop.storeId}/staff`, {
    key: s.shop.owner.key,
    body: { email: clerk.email, permissions: ['orders.view'] },
  });
  expect(granted.status).toBeLessThan(300);
  const asClerk = { baseUrl: s.world.svc.baseUrl, apiKey: clerk.key };
  const { error, rec } = await runNodeError(asClerk, params({ operation: 'getAll', returnAll: true, filters: { customer: 'hopper' } }));
  expect(rec.last()).toMatchObject({ query: { customer: 'hopper', pageSize: '100' }, status: 403 });
  expect(error.name).toBe('NodeApiError');
  expect(error.message).toMatch(/\[permissionDenied\]$/);
  expect(error.httpCode).toBe('403');
  expect(error.description).toContain('needs this store permission');

  const each = await runEachItem(
    asClerk,
    params({ operation: 'getAll', returnAll: false, limit: 1, filters: (i: number) => [{ customer: 'hopper' }, { customer: '' }][i] }),
    2,
  );
  expect(each.out[0]).toEqual(errorItem(0, expect.stringMatching(/\[permissionDenied\]$/)));
  expect(each.out[1]).toMatchObject({ json: { id: expect.any(String) }, pairedItem: { item: 1 } });
  expect(each.rec.requests[1].query).toEqual({ pageSize: '1' });
});

leakScanTest(s);
