/** Store Order › Refund, and the order's payments as Get shows them. */
import { errorItem, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { storeOrderFile } from './setup';

const { s, creds, params, orders } = storeOrderFile({ order: 'paid' });

test('sends the amount, the reason and the currency; an order the provider never reported paid has nothing to refund (409 paired)', async () => {
  const { out, rec } = await runEachItem(
    creds(),
    params({
      operation: 'refund',
      storeOrderId: (i: number) => rl([s.shop.orderId, MISSING_ID][i]),
      amountMinor: 250,
      additionalFields: { reason: 'One item returned', currency: 'usd' },
    }),
    2,
  );
  expectSent(
    rec.requests[0],
    { method: 'POST', path: `${orders()}/${s.shop.orderId}/refunds`, body: { amountMinor: 250, reason: 'One item returned', currency: 'USD' }, status: 409 },
    creds(),
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[nothingToRefund\]$/)));
  expect(out[1]).toEqual(errorItem(1, expect.stringMatching(/\[notFound\]$/)));
});

test("Get shows the order's payments as the provider reported them and what was refunded (none here: paid by hand)", async () => {
  const got = await runNode(creds(), params({ operation: 'get', storeOrderId: rl(s.shop.orderId) }));
  expect(got.json[0]).toMatchObject({ id: s.shop.orderId, paymentStatus: 'none', amountRefundedMinor: 0, providerPayments: [] });
});

leakScanTest(s);
