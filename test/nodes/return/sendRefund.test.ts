/** Return › Send Refund. */
import { errorItem, expectSent, runEachItem } from '../support/checks';
import { leakScanTest } from '../support/world';
import { returnFile } from './setup';

const f = returnFile(16);

test("asks the return's refund again at its route: a return that refunds nothing is the service's 409", async () => {
  const { so, ret } = await f.returned();
  const { out, rec } = await runEachItem(f.creds(), f.params({ operation: 'sendRefund', supplierOrderId: so._id, returnId: ret._id }), 1);
  expectSent(rec.last(), { method: 'POST', path: `${f.base()}/orders/${so._id}/returns/${ret._id}/refund`, body: undefined, status: 409 }, f.creds());
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[returnWithoutRefund\]$/)));
});

leakScanTest(f.s);
