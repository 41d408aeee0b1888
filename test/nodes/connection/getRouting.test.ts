/** Connection › Get Routing. */
import { rl } from '../support/context';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile();

test("the store's rule, primary until set, paired with the input item", async () => {
  const { json, out, rec } = await runNode(creds(), params({ operation: 'getRouting', store: rl(s.shop.storeId, 'list') }));
  expectSent(rec.last(), { method: 'GET', path: `${base()}/routing`, body: undefined, status: 200 }, creds());
  expect(json).toEqual([{ routing: { rule: 'primary' }, updatedAt: null }]);
  expectPaired(out, [0]);
});

test("Continue On Fail: a store the key does not reach is an error item of its own; the other item's rule comes out", async () => {
  const { out, rec } = await runEachItem(creds(), params({ operation: 'getRouting', store: (i: number) => rl([MISSING_ID, s.shop.storeId][i]) }), 2);
  expect(rec.requests.map((r) => r.status)).toEqual([404, 200]);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { routing: { rule: 'primary' } }, pairedItem: { item: 1 } });
});

leakScanTest(s);
