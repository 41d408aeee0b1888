/** Claim › Cancel. */
import { expectPaired, expectSent } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { claimFile } from './setup';

const f = claimFile(22);

test('asks the claim withdrawn at the supplier and answers it', async () => {
  const { so, claim } = await f.claimed();
  const cancelled = await runNode(f.creds(), f.params({ operation: 'cancel', supplierOrderId: so._id, claimId: claim._id }));
  expectSent(
    cancelled.rec.last(),
    { method: 'POST', path: `${f.base()}/orders/${so._id}/claims/${claim._id}/cancel`, body: undefined, status: 200 },
    f.creds(),
  );
  expect(cancelled.json[0]).toMatchObject({ _id: claim._id, cancelRequested: true });
  expectPaired(cancelled.out, [0]);
});

leakScanTest(f.s);
