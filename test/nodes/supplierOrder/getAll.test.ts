/** Supplier Order › Get Many: filters as query fields, and the pager. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, pausedOrder, runNode } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params } = supplierOrderFile({ poor: 19 });

test('sends the filters as query fields, pages of min(limit, 100), and stops once it has enough', async () => {
  const poor = shop('poor');
  const paused = await Promise.all([0, 1, 2].map(() => pausedOrder(s.world.svc, poor)));
  const list = params(poor, { operation: 'getAll' });

  const filtered = await runNode(creds(poor), {
    ...list,
    returnAll: true,
    filters: { needsReview: true, integrationId: poor.connId, contractModel: 'standard', status: 'needsReview', orderId: paused[1].orderId },
  });
  expect(filtered.rec.requests).toHaveLength(1);
  expectSent(
    filtered.rec.last(),
    {
      method: 'GET',
      path: `${base(poor)}/orders`,
      query: { needsReview: 'true', integrationId: poor.connId, contractModel: 'standard', status: 'needsReview', orderId: paused[1].orderId, pageSize: '100' },
      body: undefined,
      status: 200,
    },
    creds(poor),
  );
  expect(filtered.json.map((o) => o._id)).toEqual([paused[1]._id]);

  const limited = await runNode(creds(poor), { ...list, returnAll: false, limit: 2, filters: { needsReview: true } });
  expect(limited.rec.requests).toHaveLength(1);
  expect(limited.rec.last().query).toEqual({ needsReview: 'true', pageSize: '2' });
  expect(limited.json).toHaveLength(2);
  expectPaired(limited.out, [0, 0]);

  const all = await runNode(creds(poor), { ...list, returnAll: true, filters: { needsReview: true } });
  expect(all.json.length).toBeGreaterThanOrEqual(3);
  expect(all.json.every((o) => o.status === 'needsReview')).toBe(true);
  expect(all.json.map((o) => o._id)).toEqual(expect.arrayContaining(paused.map((p) => p._id)));
  for (const o of all.json) expect(o).not.toHaveProperty('events');
});

test('Continue On Fail: an unknown store is an error item paired with it', async () => {
  const poor = shop('poor');
  const { out } = await runEachItem(
    creds(poor),
    params(poor, { operation: 'getAll', returnAll: false, limit: 1, filters: {}, store: (i: number) => rl([MISSING_ID, poor.storeId][i]) }),
    2,
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { _id: expect.any(String) }, pairedItem: { item: 1 } });
});

leakScanTest(s);
