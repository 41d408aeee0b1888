/** Connection › Get Disconnect Impact. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { connectionFile } from './setup';

const { s, creds, params, base } = connectionFile();

test('the linked products and open supplier orders a disconnect would affect', async () => {
  const { json, out, rec } = await runNode(creds(), params({ operation: 'getImpact', connection: rl(s.shop.connId) }));
  expectSent(rec.last(), { method: 'GET', path: `${base()}/${s.shop.connId}/impact`, body: undefined, status: 200 }, creds());
  expect(json[0]).toEqual({ linkedProducts: 1, openSupplierOrders: 0 });
  expectPaired(out, [0]);
});

test('Continue On Fail: an unknown connection is an error item paired with it', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'getImpact', connection: (i: number) => rl([MISSING_ID, s.shop.connId][i]) }), 2);
  expect(out).toEqual([
    errorItem(0, 'The connection was not found. [notFound]'),
    { json: { linkedProducts: 1, openSupplierOrders: 0 }, pairedItem: { item: 1 } },
  ]);
});

leakScanTest(s);
