/** Store Order › Get, with the store order locator's three modes. */
import { US_ADDRESS } from '../../support/orders';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { storeOrderFile } from './setup';

const { s, creds, params, orders } = storeOrderFile({ order: 'paid' });

test('the whole order with its items; Simplify leaves out the items, supplier orders and address', async () => {
  const full = await runNode(creds(), params({ operation: 'get', storeOrderId: rl(s.shop.orderId) }));
  expectSent(full.rec.last(), { method: 'GET', path: `${orders()}/${s.shop.orderId}`, body: undefined, status: 200 }, creds());
  expect(full.json[0]).toMatchObject({ id: s.shop.orderId, destination: expect.objectContaining({ city: US_ADDRESS.city }) });
  expect(full.json[0].items).toHaveLength(1);
  expectPaired(full.out, [0]);
  const simple = await runNode(creds(), params({ operation: 'get', storeOrderId: rl(s.shop.orderId), simplify: true }));
  for (const field of ['items', 'supplierOrders', 'destination']) expect(simple.json[0]).not.toHaveProperty(field);
  expect(simple.json[0]).toMatchObject({ id: s.shop.orderId, markedPaidAt: expect.any(String) });
});

test("the order may be named by the console's address of it (By URL); the ID is taken from it", async () => {
  const url = `${s.world.svc.baseUrl}/console#orders/${s.shop.orderId}`;
  const got = await runNode(creds(), params({ operation: 'get', storeOrderId: rl(url, 'url') }));
  expect(got.rec.last().path).toBe(`${orders()}/${s.shop.orderId}`);
  expect(got.json[0]).toMatchObject({ id: s.shop.orderId, number: s.shop.orderNumber });
  // Another address is refused by n8n itself before the run (the mode's validation), with the mode's message.
  await expect(runNode(creds(), params({ operation: 'get', storeOrderId: rl(`${s.world.svc.baseUrl}/console#review`, 'url') }))).rejects.toThrow(
    'Not a console address of a store order',
  );
});

test('Continue On Fail: an unknown order is an error item paired with it', async () => {
  const { out } = await runEachItem(creds(), params({ operation: 'get', storeOrderId: (i: number) => rl([s.shop.orderId, MISSING_ID][i]) }), 2);
  expect(out[0]).toMatchObject({ json: { id: s.shop.orderId }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, expect.stringMatching(/\[notFound\]$/)));
});

leakScanTest(s);
