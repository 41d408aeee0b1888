/** Store Order › Create. */
import type { IDataObject } from 'n8n-workflow';

import { US_ADDRESS } from '../../support/orders';
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { storeOrderFile } from './setup';

const { s, creds, params, orders } = storeOrderFile();
const itemsOf = () => ({ item: [{ productId: s.shop.products[0].productId, variantId: s.shop.products[0].variantId, quantity: 2 }] });

test('creates a store order from store products, split into parts (one per supplier connection)', async () => {
  const [p] = s.shop.products;
  const created = await runNode(
    creds(),
    params({ operation: 'create', items: itemsOf(), destination: JSON.stringify(US_ADDRESS), paymentMethod: 'manual', contractModel: 'standard' }),
  );
  expectSent(
    created.rec.last(),
    {
      method: 'POST',
      path: orders(),
      body: {
        items: [{ productId: p.productId, variantId: p.variantId, quantity: 2 }],
        destination: US_ADDRESS,
        paymentMethod: 'manual',
        contractModel: 'standard',
      },
      status: 201,
    },
    creds(),
  );
  const order = created.json[0];
  expect(order).toMatchObject({ status: 'pending', paymentMethod: 'manual' });
  expect((order.fulfilmentGroups as IDataObject[]).map((g) => g.groupKey)).toEqual([`supplier:${s.shop.connId}`]);
  expectPaired(created.out, [0]);
});

test('no item is refused before any request', async () => {
  const bad = await runNodeError(creds(), params({ operation: 'create', items: { item: [] }, destination: '{}' }));
  expect(bad.error.message).toBe('Add at least one item');
  expect(bad.rec.requests).toHaveLength(0);
});

test('Continue On Fail: a destination the service refuses is an error item paired with it; the other item is created', async () => {
  const destination = (i: number) => JSON.stringify([{ ...US_ADDRESS, country: 'USA' }, US_ADDRESS][i]);
  const { out, rec } = await runEachItem(
    creds(),
    params({ operation: 'create', items: itemsOf(), destination, paymentMethod: 'manual', contractModel: 'standard' }),
    2,
  );
  expect(rec.requests.map((r) => r.status)).toEqual([400, 201]);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[validationFailed\]$/)));
  expect(out[1]).toMatchObject({ json: { status: 'pending' }, pairedItem: { item: 1 } });
});

// Retry On Fail (issue 56, item 5): the node's Idempotency-Key is made from the execution, its run and the item, so
// when a create's answer is lost and n8n runs the node again, the service answers the first result: one order.
const create = () =>
  params({ operation: 'create', items: itemsOf(), destination: JSON.stringify(US_ADDRESS), paymentMethod: 'manual', contractModel: 'standard' });
const orderIds = async (): Promise<string[]> =>
  (await s.world.svc.call('GET', `${orders()}?pageSize=100`, { key: s.shop.owner.key })).body.result.items.map((o: { id: string }) => o.id);

test('a create whose answer was lost is sent again by Retry On Fail with the same key: one order', async () => {
  const before = await orderIds();
  const run = await runNode(creds(), create(), { retryOnFail: { maxTries: 2 }, lose: { path: /^POST \/api\/store-orders\/[^/]+$/, count: 1 } });
  const posts = run.rec.requests.filter((r) => r.method === 'POST');
  expect(posts.map((r) => r.status)).toEqual([201, 201]);
  const keys = posts.map((r) => r.headers['Idempotency-Key']);
  expect(keys[0]).toMatch(/^n8n-/);
  expect(keys[1]).toBe(keys[0]);
  const after = await orderIds();
  const made = after.filter((id) => !before.includes(id));
  expect(made).toEqual([run.json[0].id]);
});

test('another execution is another key: the same order twice is made twice, as asked', async () => {
  const first = await runNode(creds(), create());
  const second = await runNode(creds(), create());
  expect(first.rec.last().headers['Idempotency-Key']).not.toBe(second.rec.last().headers['Idempotency-Key']);
  expect(first.json[0].id).not.toBe(second.json[0].id);
});

leakScanTest(s);
