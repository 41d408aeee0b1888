/** Return › Get. */
import { expectPaired, expectSent } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { returnFile } from './setup';

const f = returnFile(14);

test('one return, with its money', async () => {
  const { so, ret } = await f.returned();
  const got = await runNode(f.creds(), f.params({ operation: 'get', supplierOrderId: so._id, returnId: ret._id }));
  expectSent(got.rec.last(), { method: 'GET', path: `${f.base()}/orders/${so._id}/returns/${ret._id}`, body: undefined, status: 200 }, f.creds());
  expect(got.json[0]).toMatchObject({ _id: ret._id, money: { refundMinor: 0, supplierCreditMinor: null, netMinor: 0 } });
  expectPaired(got.out, [0]);
});

leakScanTest(f.s);
