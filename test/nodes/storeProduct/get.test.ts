/** Store Product › Get. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { storeProductFile } from './setup';

const { s, creds, params, products } = storeProductFile();

test('the whole product with its variants (their IDs are what Create of a store order takes)', async () => {
  const [p] = s.shop.products;
  const got = await runNode(creds(), params({ operation: 'get', productId: rl(p.productId) }));
  expectSent(got.rec.last(), { method: 'GET', path: `${products()}/${p.productId}`, body: undefined, status: 200 }, creds());
  expect(got.json[0]).toMatchObject({ id: p.productId, variants: expect.arrayContaining([expect.objectContaining({ id: p.variantId })]) });
  expect(got.json[0]).toHaveProperty('description');
  expectPaired(got.out, [0]);
  const simple = await runNode(creds(), params({ operation: 'get', productId: rl(p.productId), simplify: true }));
  expect(simple.json[0]).not.toHaveProperty('description');
});

test('Continue On Fail: an unknown product is an error item paired with it', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'get', productId: (i: number) => rl([s.shop.products[0].productId, MISSING_ID][i]) }), 2);
  expect(out[0]).toMatchObject({ json: { id: s.shop.products[0].productId }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, expect.stringMatching(/\[notFound\]$/)));
});

leakScanTest(s);
