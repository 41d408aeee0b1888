/** Import › Import Products. */
import type { IDataObject } from 'n8n-workflow';

import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { catalogue, importFile } from './setup';

const { s, creds, onConnection, base } = importFile();

test('creates store products with links, with the sync switches and status asked for', async () => {
  const [, p] = await catalogue(s.world.sandbox, 8);
  const { json, out, rec } = await runNode(
    creds(),
    onConnection({
      operation: 'importProducts',
      products: { product: [{ supplierProductId: p.id }] },
      priceRule: { multiplier: '1.5', markupMinor: 100 },
      sync: { title: true },
      status: 'draft',
    }),
  );
  expectSent(
    rec.last(),
    {
      method: 'POST',
      path: `${base()}/${s.shop.connId}/import`,
      body: { products: [{ supplierProductId: p.id }], priceRule: { multiplier: '1.5', markupMinor: 100 }, sync: { title: true }, status: 'draft' },
      status: 201,
    },
    creds(),
  );
  expect(json[0]).toMatchObject({
    errors: [],
    products: [expect.objectContaining({ status: 'draft' })],
    links: [expect.objectContaining({ supplierProductId: p.id })],
  });
  expect((json[0].links as IDataObject[])[0].sync).toMatchObject({ title: true, cost: true });
  expectPaired(out, [0]);
});

test('more than 50 products answer a background job (202), as it is', async () => {
  const page = await catalogue(s.world.sandbox, 9);
  const { json, rec } = await runNode(
    creds(),
    onConnection({ operation: 'importProducts', products: { product: page.slice(0, 51).map((p) => ({ supplierProductId: p.id })) }, status: 'active' }),
  );
  expect(rec.last().status).toBe(202);
  expect(rec.last().body).toMatchObject({ status: 'active', products: expect.arrayContaining([{ supplierProductId: page[50].id }]) });
  expect(json[0]).toMatchObject({ id: expect.any(String), status: expect.stringMatching(/queued|running|completed/), total: 51 });
});

test('Continue On Fail: an unknown connection is an error item paired with it; the other item imports', async () => {
  const [, , p] = await catalogue(s.world.sandbox, 8);
  const { out } = await runEachItem(
    creds(),
    onConnection({
      operation: 'importProducts',
      connection: (i: number) => rl([MISSING_ID, s.shop.connId][i]),
      products: { product: [{ supplierProductId: p.id }] },
      status: 'active',
    }),
    2,
  );
  expect(out[0]).toEqual(errorItem(0, 'The connection was not found. [notFound]'));
  expect(out[1]).toMatchObject({ json: { errors: [], links: [expect.objectContaining({ supplierProductId: p.id })] }, pairedItem: { item: 1 } });
});

leakScanTest(s);
