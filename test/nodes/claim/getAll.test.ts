/** Claim › Get Many. */
import { expectPaired, expectSent } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { claimFile } from './setup';

const f = claimFile(21);

test("a supplier order's claims, one item each", async () => {
  const { so, claim } = await f.claimed();
  const many = await runNode(f.creds(), f.params({ operation: 'getAll', supplierOrderId: so._id }));
  expectSent(many.rec.last(), { method: 'GET', path: `${f.base()}/orders/${so._id}/claims`, body: undefined, status: 200 }, f.creds());
  expect(many.json.map((c: any) => c._id)).toEqual([claim._id]);
  expectPaired(many.out, [0]);
});

leakScanTest(f.s);
