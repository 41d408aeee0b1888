/** Product Link › Update. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { linkFile } from './setup';

const { s, creds, params, links } = linkFile({ link: true, backup: true });

test('changes the price rule and sync switches given; the others keep their values', async () => {
  const updated = await runNode(
    creds(),
    params({ operation: 'update', linkId: s.shop.linkId, updateFields: { priceRule: { multiplier: '3', endingMinor: 99 }, sync: { title: true } } }),
  );
  expectSent(
    updated.rec.last(),
    { method: 'PUT', path: `${links()}/${s.shop.linkId}`, body: { priceRule: { multiplier: '3', endingMinor: 99 }, sync: { title: true } }, status: 200 },
    creds(),
  );
  expect(updated.json[0]).toMatchObject({ id: s.shop.linkId, sync: { title: true, stock: false } });
  expectPaired(updated.out, [0]);

  const nothing = await runNodeError(creds(), params({ operation: 'update', linkId: s.shop.linkId, updateFields: {} }));
  expect(nothing.error.message).toBe('Add at least one field to update');
  expect(nothing.rec.requests).toHaveLength(0);
});

test("the link's own routing rule: set, the fastest with its cap, and back to the store's rule (null)", async () => {
  const update = (updateFields: Record<string, unknown>) => params({ operation: 'update', linkId: s.shop.linkId, updateFields });
  const cheapest = await runNode(creds(), update({ routingRule: 'lowestLandedCost' }));
  expectSent(
    cheapest.rec.last(),
    { method: 'PUT', path: `${links()}/${s.shop.linkId}`, body: { routing: { rule: 'lowestLandedCost' } }, status: 200 },
    creds(),
  );
  expect(cheapest.json[0].routing).toEqual({ rule: 'lowestLandedCost' });
  const fastest = await runNode(creds(), update({ routingRule: 'fastest', maxCostAboveCheapestPercent: 5 }));
  expect(fastest.rec.last().body).toEqual({ routing: { rule: 'fastest', maxCostAboveCheapestPercent: 5 } });
  expect(fastest.json[0].routing).toEqual({ rule: 'fastest', maxCostAboveCheapestPercent: 5 });
  const store = await runNode(creds(), update({ routingRule: 'store' }));
  expect(store.rec.last().body).toEqual({ routing: null });
  expect(store.json[0].routing).toBeNull();
});

test('Continue On Fail: an unknown link is an error item paired with it', async () => {
  const { out } = await runEachItem(
    creds(),
    params({ operation: 'update', linkId: (i: number) => [MISSING_ID, s.shop.linkId][i], updateFields: { sync: { price: false } } }),
    2,
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { id: s.shop.linkId, sync: { price: false } }, pairedItem: { item: 1 } });
});

test("alternates replace the link's backups in the order given; Remove All Alternates empties them; both at once is refused before any request", async () => {
  const link = (await s.world.svc.call('GET', `${links()}?connectionId=${s.shop.connId}`, { key: s.shop.owner.key })).body.result.items.find(
    (l: { id: string }) => l.id === s.shop.linkId,
  );
  const storeVariantId = link.variants[0].storeVariantId;
  const product = (await s.world.sandbox.v1('sbx_live_demo', 'GET', `/products/${link.supplierProductId}`)).body;
  const [first, second] = product.variants.map((v: { id: string }) => v.id);
  const alternate = (supplierVariantId: string) => ({
    storeVariantId,
    connectionId: s.shop.backupConnId,
    supplierProductId: link.supplierProductId,
    supplierVariantId,
  });
  const update = (updateFields: Record<string, unknown>) => params({ operation: 'update', linkId: s.shop.linkId, updateFields });

  const set = await runNode(creds(), update({ alternates: { alternate: [alternate(second), alternate(first)] } }));
  expectSent(
    set.rec.last(),
    { method: 'PUT', path: `${links()}/${s.shop.linkId}`, body: { alternates: [alternate(second), alternate(first)] }, status: 200 },
    creds(),
  );
  expect((set.json[0].variants as Array<{ alternates: Array<{ supplierVariantId: string }> }>)[0].alternates.map((a) => a.supplierVariantId)).toEqual([
    second,
    first,
  ]);

  const reordered = await runNode(creds(), update({ alternates: { alternate: [alternate(first)] } }));
  expect((reordered.json[0].variants as Array<{ alternates: Array<{ supplierVariantId: string }> }>)[0].alternates.map((a) => a.supplierVariantId)).toEqual([
    first,
  ]);

  const both = await runNodeError(creds(), update({ alternates: { alternate: [alternate(first)] }, removeAlternates: true }));
  expect(both.error.message).toBe('Give Alternates or Remove All Alternates, not both');
  expect(both.rec.requests).toHaveLength(0);

  const removed = await runNode(creds(), update({ removeAlternates: true }));
  expectSent(removed.rec.last(), { method: 'PUT', path: `${links()}/${s.shop.linkId}`, body: { alternates: [] }, status: 200 }, creds());
  expect((removed.json[0].variants as Array<{ alternates: unknown[] }>)[0].alternates).toEqual([]);
  expectPaired(removed.out, [0]);
});

leakScanTest(s);
