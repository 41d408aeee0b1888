/** Import › Preview. */
import type { IDataObject } from 'n8n-workflow';

import { StoreSuppliers } from '../../../nodes/StoreSuppliers/StoreSuppliers.node';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { catalogue, importFile } from './setup';

const { s, creds, onConnection, base } = importFile();
const itemsOf = (json: IDataObject) => json.items as IDataObject[];
const variantsOf = (item: IDataObject) => item.variants as IDataObject[];

test('prices the chosen products with the price rule and names duplicates; nothing is created', async () => {
  const [p] = await catalogue(s.world.sandbox, 8);
  const { json, out, rec } = await runNode(
    creds(),
    onConnection({
      operation: 'preview',
      products: {
        product: [
          { supplierProductId: p.id, variantIds: ` ${p.variants[0].id} ` },
          { supplierProductId: s.shop.products[0].supplierProductId, variantIds: '' },
        ],
      },
      priceRule: { multiplier: '2', endingMinor: 99, compareAtMultiplier: '' },
    }),
  );
  expectSent(
    rec.last(),
    {
      method: 'POST',
      path: `${base()}/${s.shop.connId}/import/preview`,
      body: {
        products: [{ supplierProductId: p.id, variantIds: [p.variants[0].id] }, { supplierProductId: s.shop.products[0].supplierProductId }],
        priceRule: { multiplier: '2', endingMinor: 99 },
      },
      status: 200,
    },
    creds(),
  );
  expect(json).toHaveLength(1);
  expectPaired(out, [0]);
  const items = itemsOf(json[0]);
  expect(items.map((i) => i.supplierProductId)).toEqual([p.id, s.shop.products[0].supplierProductId]);
  expect(items[1].duplicateOf).toEqual([s.shop.products[0].productId]);
  expect(Number(variantsOf(items[0])[0].priceMinor) % 100).toBe(99);
  // The rate the import would convert at (issue 53): none, the supplier sells in the store's currency; each variant's cost in it too.
  expect(items[0].rate).toBeNull();
  expect(variantsOf(items[0])[0]).toMatchObject({ storeCurrency: 'USD', storeCostMinor: variantsOf(items[0])[0].costMinor });
});

test("no product given is refused before any request; under Continue On Fail an unknown connection is its item's error", async () => {
  const { error, rec } = await runNodeError(creds(), onConnection({ operation: 'preview', products: { product: [{ supplierProductId: ' ' }] } }));
  expect(error.message).toBe('Add at least one supplier product');
  expect(rec.requests).toHaveLength(0);

  const product = { product: [{ supplierProductId: s.shop.products[0].supplierProductId }] };
  const each = await runEachItem(
    creds(),
    onConnection({ operation: 'preview', products: product, connection: (i: number) => rl([s.shop.connId, MISSING_ID][i]) }),
    2,
  );
  expect(each.out[0]).toMatchObject({
    json: { items: [expect.objectContaining({ supplierProductId: s.shop.products[0].supplierProductId })] },
    pairedItem: { item: 0 },
  });
  expect(each.out[1]).toEqual(errorItem(1, 'The connection was not found. [notFound]'));
});

test('the price rule is on purpose: the editor starts at twice the cost to x.99, a run without a rule gets the same, and preview shows each margin', async () => {
  const fields = new StoreSuppliers().description.properties.filter((p) => p.name === 'priceRule');
  expect(fields.length).toBeGreaterThan(0);
  for (const f of fields) expect(f.default).toEqual({ multiplier: '2', endingMinor: 99 });

  const [p] = await catalogue(s.world.sandbox, 9);
  const product = { product: [{ supplierProductId: p.id, variantIds: '' }] };
  const withDefault = await runNode(creds(), onConnection({ operation: 'preview', products: product, priceRule: { multiplier: '2', endingMinor: 99 } }));
  const withoutRule = await runNode(creds(), onConnection({ operation: 'preview', products: product, priceRule: {} }));
  expect(withoutRule.rec.last().body).toEqual({ products: [{ supplierProductId: p.id }] });
  const variants = variantsOf(itemsOf(withoutRule.json[0])[0]).map((v) => v as Record<string, number>);
  expect(variants.length).toBeGreaterThan(0);
  expect(variants.map((v) => v.priceMinor)).toEqual(variantsOf(itemsOf(withDefault.json[0])[0]).map((v) => v.priceMinor));
  for (const v of variants) {
    // Twice the cost, rounded up to the next x.99: never at cost.
    const twice = v.costMinor * 2;
    expect(v.priceMinor % 100).toBe(99);
    expect(v.priceMinor).toBeGreaterThanOrEqual(twice);
    expect(v.priceMinor - twice).toBeLessThan(100);
    expect(v.profitMinor).toBe(v.priceMinor - v.costMinor);
    expect(v.marginPercent).toBe(Math.round((v.profitMinor / v.priceMinor) * 1000) / 10);
    expect(v.marginPercent).toBeGreaterThan(45);
  }
});

leakScanTest(s);
