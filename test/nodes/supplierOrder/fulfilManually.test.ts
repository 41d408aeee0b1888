/** Supplier Order › Fulfil Manually. */
import { partKeyOf, placeOrder } from '../../support/orders';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params } = supplierOrderFile({ rich: 18 });

test('hands the part (the one the connection serves) to the store and answers { supplierOrder, part }', async () => {
  const rich = shop('rich');
  const order = await placeOrder(s.world.svc, rich);
  const { json, out, rec } = await runNode(creds(rich), params(rich, { operation: 'fulfilManually', orderId: order.id, connection: rl(rich.connId) }));
  expectSent(
    rec.last(),
    { method: 'POST', path: `${base(rich)}/orders/${order.id}/groups/${encodeURIComponent(partKeyOf(rich))}/fulfil-manually`, body: undefined, status: 200 },
    creds(rich),
  );
  expect(json[0]).toMatchObject({ part: { groupKey: partKeyOf(rich), fulfilledByStore: true } });
  expectPaired(out, [0]);
});

test('Continue On Fail: an unknown store order is an error item paired with it', async () => {
  const rich = shop('rich');
  const order = await placeOrder(s.world.svc, rich);
  const { out } = await runEachItem(
    creds(rich),
    params(rich, { operation: 'fulfilManually', orderId: (i: number) => [order.id, MISSING_ID][i], connection: rl(rich.connId) }),
    2,
  );
  expect(out[0]).toMatchObject({ json: { part: { fulfilledByStore: true } }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, expect.stringMatching(/\[notFound\]$/)));
});

leakScanTest(s);
