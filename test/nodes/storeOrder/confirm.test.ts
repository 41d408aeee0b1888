/** Store Order › Confirm. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { storeOrderFile } from './setup';

const { s, creds, params, orders } = storeOrderFile({ order: 'pending' });

test('confirms the order', async () => {
  const confirmed = await runNode(creds(), params({ operation: 'confirm', storeOrderId: rl(s.shop.orderId) }));
  expectSent(confirmed.rec.last(), { method: 'POST', path: `${orders()}/${s.shop.orderId}/confirm`, body: undefined, status: 200 }, creds());
  expect(confirmed.json[0]).toMatchObject({ id: s.shop.orderId, status: 'confirmed' });
  expectPaired(confirmed.out, [0]);
});

test('Continue On Fail: an unknown order is an error item paired with it', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'confirm', storeOrderId: (i: number) => rl([MISSING_ID, s.shop.orderId][i]) }), 2);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { id: s.shop.orderId }, pairedItem: { item: 1 } });
});

leakScanTest(s);
