/** Supplier Product › Get. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { supplierProductFile } from './setup';

const { s, creds, onConnection, products } = supplierProductFile();

test("answers one supplier product; an unknown one is the service's error", async () => {
  const id = s.shop.products[0].supplierProductId;
  const { json, out, rec } = await runNode(creds(), onConnection({ operation: 'get', supplierProductId: id }));
  expectSent(rec.last(), { method: 'GET', path: `${products()}/${id}`, body: undefined, status: 200 }, creds());
  expect(json[0]).toMatchObject({ id, variants: expect.any(Array) });
  expectPaired(out, [0]);
  const { error } = await runNodeError(creds(), onConnection({ operation: 'get', supplierProductId: 'SBX-NOPE' }));
  expect(error.name).toBe('NodeApiError');
  expect(error.message).toMatch(/\[\w+\]$/);
  expect(error.httpCode).toMatch(/^4/);
});

test('Continue On Fail: an unknown product is an error item paired with it', async () => {
  const id = s.shop.products[0].supplierProductId;
  const { out } = await runEachItem(creds(), onConnection({ operation: 'get', supplierProductId: (i: number) => [id, 'SBX-NOPE'][i] }), 2);
  expect(out[0]).toMatchObject({ json: { id }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, expect.stringMatching(/\[\w+\]$/)));
});

leakScanTest(s);
