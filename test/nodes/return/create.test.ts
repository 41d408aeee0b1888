/** Return › Create. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { returnFile } from './setup';

const f = returnFile(24);

test("sends the return's body (one item, its note) to the route a late cancel names, and answers the return", async () => {
  const { order, so } = await f.shippedPart();
  expect(so.nextAction).toMatchObject({ action: 'return', path: `${f.base()}/orders/${so._id}/returns` });
  const made = await runNode(
    f.creds(),
    f.params({
      operation: 'create',
      supplierOrderId: so._id,
      reason: 'cancelledAfterShipping',
      itemId: order.items[0].id,
      quantity: 1,
      options: { note: 'Too late' },
    }),
  );
  expectSent(
    made.rec.last(),
    {
      method: 'POST',
      path: `${f.base()}/orders/${so._id}/returns`,
      status: 201,
      body: { reason: 'cancelledAfterShipping', items: [{ itemId: order.items[0].id, quantity: 1 }], note: 'Too late' },
    },
    f.creds(),
  );
  expect(made.json[0]).toMatchObject({ reason: 'cancelledAfterShipping', note: 'Too late', supplierOrderId: so._id, refund: null });
  expectPaired(made.out, [0]);
  // The same item again: the service's 409, an error item under Continue On Fail.
  const { out } = await runEachItem(
    f.creds(),
    f.params({ operation: 'create', supplierOrderId: so._id, reason: 'damaged', itemId: order.items[0].id, quantity: 1 }),
    1,
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[alreadyReturned\]$/)));
});

test("a refund is sent as the return's refund: an order paid by hand has nothing to refund (409, nothing recorded)", async () => {
  const { order, so } = await f.shippedPart();
  const { out, rec } = await runEachItem(
    f.creds(),
    f.params({ operation: 'create', supplierOrderId: so._id, reason: 'damaged', itemId: order.items[0].id, quantity: 1, options: { refundMinor: 250 } }),
    1,
  );
  expect(rec.last().body).toMatchObject({ refund: { amountMinor: 250 } });
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[nothingToRefund\]$/)));
  const listed = await f.s.world.svc.call('GET', `${f.base()}/orders/${so._id}/returns`, { key: f.s.shop.owner.key });
  expect(listed.body.result.items).toEqual([]);
});

leakScanTest(f.s);
