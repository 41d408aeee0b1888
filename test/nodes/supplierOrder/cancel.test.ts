/** Supplier Order › Cancel. */
import { placeOrder, submit } from '../../support/orders';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params } = supplierOrderFile({ rich: 16 });

test('withdraws the order at the supplier and answers it cancelled', async () => {
  const rich = shop('rich');
  const order = await placeOrder(s.world.svc, rich);
  const created = (await submit(s.world.svc, rich, order.id)).body.result;
  const cancelled = await runNode(creds(rich), params(rich, { operation: 'cancel', supplierOrderId: created._id }));
  expectSent(cancelled.rec.last(), { method: 'POST', path: `${base(rich)}/orders/${created._id}/cancel`, body: undefined, status: 200 }, creds(rich));
  expect(cancelled.json[0]).toMatchObject({ _id: created._id, status: 'cancelled' });
  expectPaired(cancelled.out, [0]);
});

test('Continue On Fail: an unknown order is an error item paired with it', async () => {
  const rich = shop('rich');
  const order = await placeOrder(s.world.svc, rich);
  const created = (await submit(s.world.svc, rich, order.id)).body.result;
  const { out } = await runEachItem(creds(rich), params(rich, { operation: 'cancel', supplierOrderId: (i: number) => [MISSING_ID, created._id][i] }), 2);
  expect(out[0]).toEqual(errorItem(0, 'The supplier order was not found. [notFound]'));
  expect(out[1]).toMatchObject({ json: { _id: created._id, status: 'cancelled' }, pairedItem: { item: 1 } });
});

leakScanTest(s);
