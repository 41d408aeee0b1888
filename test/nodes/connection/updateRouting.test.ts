/** Connection › Update Routing. */
import { rl } from '../support/context';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile();
const read = async () => (await s.world.svc.call('GET', `${base()}/routing`, { key: s.shop.owner.key })).body.result.routing;

test("sets each rule in the service's shape; the cap only with the fastest", async () => {
  const cheapest = await runNode(
    creds(),
    params({ operation: 'updateRouting', store: rl(s.shop.storeId, 'list'), routingRule: 'lowestLandedCost', maxCostAboveCheapestPercent: 30 }),
  );
  expectSent(cheapest.rec.last(), { method: 'PUT', path: `${base()}/routing`, body: { routing: { rule: 'lowestLandedCost' } }, status: 200 }, creds());
  expect(cheapest.json[0]).toMatchObject({ routing: { rule: 'lowestLandedCost' }, updatedAt: expect.any(String) });
  expectPaired(cheapest.out, [0]);
  expect(await read()).toEqual({ rule: 'lowestLandedCost' });

  const fastest = await runNode(
    creds(),
    params({ operation: 'updateRouting', store: rl(s.shop.storeId, 'list'), routingRule: 'fastest', maxCostAboveCheapestPercent: 15 }),
  );
  expect(fastest.rec.last().body).toEqual({ routing: { rule: 'fastest', maxCostAboveCheapestPercent: 15 } });
  expect(await read()).toEqual({ rule: 'fastest', maxCostAboveCheapestPercent: 15 });

  const primary = await runNode(creds(), params({ operation: 'updateRouting', store: rl(s.shop.storeId, 'list'), routingRule: 'primary' }));
  expect(primary.rec.last().body).toEqual({ routing: { rule: 'primary' } });
  expect(await read()).toEqual({ rule: 'primary' });
});

test('Continue On Fail: a store the key does not reach is an error item of its own; the other item is set', async () => {
  const { out, rec } = await runEachItem(
    creds(),
    params({ operation: 'updateRouting', store: (i: number) => rl([MISSING_ID, s.shop.storeId][i]), routingRule: 'lowestLandedCost' }),
    2,
  );
  expect(rec.requests.map((r) => r.status)).toEqual([404, 200]);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { routing: { rule: 'lowestLandedCost' } }, pairedItem: { item: 1 } });
});

leakScanTest(s);
