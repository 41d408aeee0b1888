/** Return › Get Many. */
import { expectPaired, expectSent } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { returnFile } from './setup';

const f = returnFile(15);

test("a supplier order's returns, one item each", async () => {
  const { so, ret } = await f.returned();
  const many = await runNode(f.creds(), f.params({ operation: 'getAll', supplierOrderId: so._id }));
  expectSent(many.rec.last(), { method: 'GET', path: `${f.base()}/orders/${so._id}/returns`, body: undefined, status: 200 }, f.creds());
  expect(many.json.map((r: any) => r._id)).toEqual([ret._id]);
  expectPaired(many.out, [0]);
});

leakScanTest(f.s);
