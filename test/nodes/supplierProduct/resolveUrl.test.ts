/** Supplier Product › Resolve URL. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { supplierProductFile } from './setup';

const { s, creds, onConnection, products } = supplierProductFile();

test('turns a product page link into the supplier product; other links are refused without a fetch', async () => {
  const id = s.shop.products[0].supplierProductId;
  const url = `https://shop.sandbox-supplier.test/p/${id}`;
  const { json, out, rec } = await runNode(creds(), onConnection({ operation: 'resolveUrl', url }));
  expectSent(rec.last(), { method: 'POST', path: `${products()}/resolve-url`, body: { url }, status: 200 }, creds());
  expect(json[0]).toMatchObject({ supplierProductId: id, product: { id } });
  expectPaired(out, [0]);
  const { error } = await runNodeError(creds(), onConnection({ operation: 'resolveUrl', url: 'https://example.com/p/1' }));
  expect(error.message).toMatch(/\[unsupportedUrl\]$/);
});

test('Continue On Fail: a link of another shop is an error item paired with it', async () => {
  const id = s.shop.products[0].supplierProductId;
  const { out } = await runEachItem(
    creds(),
    onConnection({ operation: 'resolveUrl', url: (i: number) => ['https://example.com/p/1', `https://shop.sandbox-supplier.test/p/${id}`][i] }),
    2,
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[unsupportedUrl\]$/)));
  expect(out[1]).toMatchObject({ json: { supplierProductId: id }, pairedItem: { item: 1 } });
});

leakScanTest(s);
