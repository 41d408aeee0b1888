/** Claim › Open. */
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { claimFile } from './setup';

const f = claimFile(19);

test("sends the claim's body (one item, its message and evidence) and answers the claim, sending", async () => {
  const { order, so } = await f.shippedPart();
  const opened = await runNode(
    f.creds(),
    f.params({
      operation: 'open',
      supplierOrderId: so._id,
      reason: 'damaged',
      expectation: 'refund',
      itemId: order.items[0].id,
      quantity: 1,
      options: { message: 'Cracked', evidence: 'https://example.test/a.jpg, https://example.test/b.jpg' },
    }),
  );
  expectSent(
    opened.rec.last(),
    {
      method: 'POST',
      path: `${f.base()}/orders/${so._id}/claims`,
      status: 201,
      body: {
        reason: 'damaged',
        expectation: 'refund',
        items: [{ itemId: order.items[0].id, quantity: 1 }],
        message: 'Cracked',
        evidence: ['https://example.test/a.jpg', 'https://example.test/b.jpg'],
      },
    },
    f.creds(),
  );
  expect(opened.json[0]).toMatchObject({
    via: 'api',
    reason: 'damaged',
    expectation: 'refund',
    supplierOrderId: so._id,
    items: [{ itemId: order.items[0].id, quantity: 1 }],
  });
  expectPaired(opened.out, [0]);
  // The same item again: the service's 409, an error item under Continue On Fail.
  const { out } = await runEachItem(
    f.creds(),
    f.params({ operation: 'open', supplierOrderId: so._id, reason: 'quality', expectation: 'refund', itemId: order.items[0].id, quantity: 1 }),
    1,
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[(claimExists|claimNotAllowed)\]$/)));
});

leakScanTest(f.s);
