/** Claim › Record Outcome. */
import { errorItem, expectSent, runEachItem } from '../support/checks';
import { leakScanTest } from '../support/world';
import { claimFile } from './setup';

const f = claimFile(23);

test("sends the outcome and the refund's amount; a claim the service follows itself is the service's invalidState", async () => {
  const { so, claim } = await f.claimed();
  const { out, rec } = await runEachItem(
    f.creds(),
    f.params({ operation: 'recordOutcome', supplierOrderId: so._id, claimId: claim._id, outcome: 'refunded', amountMinor: 950, currency: 'usd' }),
    1,
  );
  expectSent(
    rec.last(),
    {
      method: 'POST',
      path: `${f.base()}/orders/${so._id}/claims/${claim._id}/outcome`,
      body: { outcome: 'refunded', amount: { amountMinor: 950, currency: 'USD' } },
      status: 409,
    },
    f.creds(),
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[invalidState\]$/)));
});

leakScanTest(f.s);
