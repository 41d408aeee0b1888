/** Product Link › Create. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { linkFile, ownProduct } from './setup';

const { s, creds, params, links } = linkFile({ backup: true });

test('links a product the store already has, every store variant to one supplier variant, with the options given', async () => {
  const { product, supplierProduct } = await ownProduct(s.world.svc, s.world.sandbox, s.shop);
  const created = await runNode(
    creds(),
    params({
      operation: 'create',
      connection: rl(s.shop.connId, 'list'),
      productId: product.id,
      supplierProductId: supplierProduct.id,
      variants: { variant: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }] },
      options: { priceRule: { multiplier: '2' }, sync: { stock: false }, routingRule: 'fastest', maxCostAboveCheapestPercent: 20 },
    }),
  );
  expectSent(
    created.rec.last(),
    {
      method: 'POST',
      path: links(),
      status: 201,
      body: {
        productId: product.id,
        connectionId: s.shop.connId,
        supplierProductId: supplierProduct.id,
        variants: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }],
        priceRule: { multiplier: '2' },
        sync: { stock: false },
        routing: { rule: 'fastest', maxCostAboveCheapestPercent: 20 },
      },
    },
    creds(),
  );
  expect(created.json[0]).toMatchObject({
    productId: product.id,
    supplierProductId: supplierProduct.id,
    sync: { stock: false },
    routing: { rule: 'fastest', maxCostAboveCheapestPercent: 20 },
  });
  expectPaired(created.out, [0]);

  // Linked already: the service's answer, as that item's error under Continue On Fail.
  const again = await runEachItem(
    creds(),
    params({
      operation: 'create',
      connection: rl(s.shop.connId),
      productId: product.id,
      supplierProductId: supplierProduct.id,
      variants: { variant: [{ storeVariantId: product.variants[0].id, supplierVariantId: supplierProduct.variants[0].id }] },
      options: {},
    }),
    1,
  );
  expect(again.rec.last().status).toBeGreaterThanOrEqual(400);
  expect(again.out).toEqual([errorItem(0, expect.stringMatching(/\[\w+\]$/))]);
});

test('no variant mapped is refused before any request', async () => {
  const { error, rec } = await runNodeError(
    creds(),
    params({
      operation: 'create',
      connection: rl(s.shop.connId),
      productId: s.shop.products[0].productId,
      supplierProductId: 'SBX-P00001',
      variants: {},
      options: {},
    }),
  );
  expect(error.message).toBe('Map at least one variant');
  expect(rec.requests).toHaveLength(0);
});

test("with alternates: each store variant's backups in the order given, shown on the link with cost and stock; a bad one is the service's 422", async () => {
  const { product, supplierProduct } = await ownProduct(s.world.svc, s.world.sandbox, s.shop, 'OWN-2');
  const sv = supplierProduct.variants;
  const alternate = (supplierVariantId: string, connectionId = s.shop.backupConnId) => ({
    storeVariantId: product.variants[0].id,
    connectionId,
    supplierProductId: supplierProduct.id,
    supplierVariantId,
  });
  const create = (alternates: Array<Record<string, string>>) =>
    params({
      operation: 'create',
      connection: rl(s.shop.connId),
      productId: product.id,
      supplierProductId: supplierProduct.id,
      variants: { variant: [{ storeVariantId: product.variants[0].id, supplierVariantId: sv[0].id }] },
      alternates: { alternate: alternates },
      options: {},
    });

  // The link's own connection cannot hold its backup: 422 alternateInvalid, that item's error; nothing linked.
  const refused = await runEachItem(creds(), create([alternate(sv[0].id, s.shop.connId)]), 1);
  expect(refused.rec.last().status).toBe(422);
  expect(refused.out).toEqual([errorItem(0, expect.stringMatching(/\[alternateInvalid\]$/))]);

  const backups = [alternate(sv[1].id), { ...alternate(` ${sv[0].id} `), storeVariantId: ` ${product.variants[0].id}` }];
  const created = await runNode(creds(), create(backups));
  expect(created.rec.last()).toMatchObject({ method: 'POST', path: links(), status: 201 });
  expect(created.rec.last().body.alternates).toEqual([alternate(sv[1].id), alternate(sv[0].id)]);
  expect((created.json[0].variants as Array<{ alternates: unknown[] }>)[0].alternates).toEqual([
    {
      connectionId: s.shop.backupConnId,
      supplierProductId: supplierProduct.id,
      supplierVariantId: sv[1].id,
      costMinor: sv[1].costMinor,
      currency: 'USD',
      stock: expect.any(Number),
      available: sv[1].available,
    },
    {
      connectionId: s.shop.backupConnId,
      supplierProductId: supplierProduct.id,
      supplierVariantId: sv[0].id,
      costMinor: sv[0].costMinor,
      currency: 'USD',
      stock: expect.any(Number),
      available: sv[0].available,
    },
  ]);
  const listed = await s.world.svc.call('GET', `${links()}?productId=${product.id}`, { key: s.shop.owner.key });
  expect(listed.body.result.items[0].variants[0].alternates.map((a: { supplierVariantId: string }) => a.supplierVariantId)).toEqual([sv[1].id, sv[0].id]);
});

leakScanTest(s);
