/** Store Product › Get Many. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { storeProductFile } from './setup';

const { s, creds, params, products } = storeProductFile();

test('simplified by default (no description); a status filter and a limit go as query fields', async () => {
  const many = await runNode(creds(), params({ operation: 'getAll', returnAll: true, filters: {}, simplify: true }));
  expectSent(many.rec.last(), { method: 'GET', path: products(), query: { pageSize: '100' }, body: undefined, status: 200 }, creds());
  expect(many.json.map((p) => p.id).sort()).toEqual(s.shop.products.map((p) => p.productId).sort());
  for (const p of many.json) expect(p).not.toHaveProperty('description');
  expectPaired(many.out, [0, 0]);
  const one = await runNode(creds(), params({ operation: 'getAll', returnAll: false, limit: 1, filters: { status: 'draft' } }));
  expect(one.rec.last().query).toEqual({ status: 'draft', pageSize: '1' });
});

test('Continue On Fail: an unknown store is an error item paired with it', async () => {
  const { out } = await runEachItem(
    creds(),
    params({ operation: 'getAll', returnAll: false, limit: 1, filters: {}, store: (i: number) => rl([MISSING_ID, s.shop.storeId][i]) }),
    2,
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { id: expect.any(String) }, pairedItem: { item: 1 } });
});

leakScanTest(s);
