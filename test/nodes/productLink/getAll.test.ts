/** Product Link › Get Many. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { linkFile } from './setup';

const { s, creds, params, links } = linkFile();

test('a limit asks for pages of min(limit, 100) and stops once it has enough; filters go as query fields; Return All reads all', async () => {
  const two = await runNode(creds(), params({ operation: 'getAll', returnAll: false, limit: 2, filters: {} }));
  expect(two.rec.requests).toHaveLength(1);
  expectSent(two.rec.last(), { method: 'GET', path: links(), query: { pageSize: '2' }, body: undefined, status: 200 }, creds());
  expect(two.json).toHaveLength(2);
  expectPaired(two.out, [0, 0]);

  const all = await runNode(creds(), params({ operation: 'getAll', returnAll: true, filters: {} }));
  expect(all.rec.last().query).toEqual({ pageSize: '100' });
  expect(all.json.map((l) => l.productId).sort()).toEqual(s.shop.products.map((p) => p.productId).sort());

  const one = await runNode(
    creds(),
    params({ operation: 'getAll', returnAll: true, filters: { connectionId: s.shop.connId, productId: s.shop.products[1].productId } }),
  );
  expect(one.rec.last().query).toEqual({ pageSize: '100', connectionId: s.shop.connId, productId: s.shop.products[1].productId });
  expect(one.json.map((l) => l.productId)).toEqual([s.shop.products[1].productId]);
});

test('Continue On Fail: an unknown store is an error item paired with it', async () => {
  const { out } = await runEachItem(
    creds(),
    params({ operation: 'getAll', returnAll: false, limit: 1, filters: {}, store: (i: number) => rl([s.shop.storeId, MISSING_ID][i]) }),
    2,
  );
  expect(out[0]).toMatchObject({ json: { connectionId: s.shop.connId }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, expect.stringMatching(/\[notFound\]$/)));
});

leakScanTest(s);
