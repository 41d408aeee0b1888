/** Connection › Get Many (the service answers the list whole: no paging fields are sent, the limit is cut here). */
import { rl } from '../support/context';
import { errorItem, expectPaired, expectSent, runEachItem, MISSING_ID } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile({ testConnection: true });

test("the store's connections; Limit cuts the list and no paging fields are sent", async () => {
  const all = await runNode(creds(), params({ operation: 'getAll', returnAll: true }));
  expectSent(all.rec.last(), { method: 'GET', path: base(), query: {}, body: undefined, status: 200 }, creds());
  expect(all.json.map((c) => c.id).sort()).toEqual([s.shop.connId, s.shop.testConnId].sort());
  expectPaired(all.out, [0, 0]);
  const one = await runNode(creds(), params({ operation: 'getAll', returnAll: false, limit: 1 }));
  expect(one.rec.last().query).toEqual({});
  expect(one.json).toHaveLength(1);
});

test('Continue On Fail: an unknown store is an error item; the other item lists its connections', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'getAll', returnAll: true, store: (i: number) => rl([s.shop.storeId, MISSING_ID][i]) }), 2);
  expect(out.slice(0, 2).map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
  expect(out[2]).toEqual(errorItem(1, expect.stringMatching(/\[notFound\]$/)));
});

test('node runs name the Base URL: nothing listening, or a Base URL ending in /api', async () => {
  const run = { ...params({ operation: 'getAll', returnAll: true }) };
  const nobody = 'http://127.0.0.1:9';
  const offline = await runNodeError({ baseUrl: nobody, apiKey: s.shop.owner.key }, run);
  expect(offline.error.message).toBe(`Could not reach Store Suppliers at ${nobody}`);
  expect(offline.error.description).toContain('without /api');
  const withApi = await runNodeError({ baseUrl: `${s.world.svc.baseUrl}/api`, apiKey: s.shop.owner.key }, run);
  expect(withApi.error.message).toBe(`No Store Suppliers API answers at ${s.world.svc.baseUrl}/api`);
  expect(withApi.error.description).toContain('ends in /api');
  expect(withApi.error.description).not.toContain('Check the IDs');
});

leakScanTest(s);
