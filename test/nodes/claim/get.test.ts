/** Claim › Get. */
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { claimFile } from './setup';

const f = claimFile(20);

test("reads one claim back; an unknown one is the service's notFound", async () => {
  const { so, claim } = await f.claimed();
  const got = await runNode(f.creds(), f.params({ operation: 'get', supplierOrderId: so._id, claimId: claim._id }));
  expectSent(got.rec.last(), { method: 'GET', path: `${f.base()}/orders/${so._id}/claims/${claim._id}`, body: undefined, status: 200 }, f.creds());
  expect(got.json[0]).toMatchObject({ _id: claim._id, supplierOrderId: so._id, reason: 'damaged' });
  expectPaired(got.out, [0]);
  const { out } = await runEachItem(f.creds(), f.params({ operation: 'get', supplierOrderId: so._id, claimId: MISSING_ID }), 1);
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
});

leakScanTest(f.s);
