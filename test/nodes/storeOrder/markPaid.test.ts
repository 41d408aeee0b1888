/** Store Order › Mark as Paid. */
import type { IDataObject } from 'n8n-workflow';

import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode } from '../support/world';
import { storeOrderFile } from './setup';

const { s, creds, params, orders } = storeOrderFile({ order: 'pending' });

test("records a payment by hand with its amount and reference; the provider's payment status stays as it was", async () => {
  const paid = await runNode(
    creds(),
    params({ operation: 'markPaid', storeOrderId: rl(s.shop.orderId), additionalFields: { amountMinor: 1999, reference: 'transfer-1' } }),
  );
  expectSent(
    paid.rec.last(),
    { method: 'POST', path: `${orders()}/${s.shop.orderId}/mark-paid`, body: { amountMinor: 1999, reference: 'transfer-1' }, status: 200 },
    creds(),
  );
  // Recorded as manual: the provider's payment status stays as it was.
  expect(paid.json[0]).toMatchObject({ id: s.shop.orderId, paymentStatus: 'none', markedPaidAt: expect.any(String) });
  expect(paid.json[0].payments).toEqual([expect.objectContaining({ kind: 'paid', source: 'manual', reference: 'transfer-1' })]);
  expectPaired(paid.out, [0]);
});

test('without additional fields the body is empty; under Continue On Fail an unknown order is an error item paired with it', async () => {
  const { out, rec } = await runEachItem(
    creds(),
    params({ operation: 'markPaid', storeOrderId: (i: number) => rl([s.shop.orderId, MISSING_ID][i]), additionalFields: {} }),
    2,
  );
  expect(rec.requests.map((r) => r.body)).toEqual([{}, {}]);
  expect((out[0].json.payments as IDataObject[]).length).toBeGreaterThan(0);
  expect(out[0].pairedItem).toEqual({ item: 0 });
  expect(out[1]).toEqual(errorItem(1, expect.stringMatching(/\[notFound\]$/)));
});

leakScanTest(s);
