/** Supplier Order › Acknowledge Delivery Attention, and Get Many's Needs Attention filter. */
import { placeOrder, submit } from '../../support/orders';
import { errorItem, expectSent, runEachItem } from '../support/checks';
import { leakScanTest, runNode } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params } = supplierOrderFile({ rich: 24 });

test('names the reason seen; one the order does not have is an error item (attentionChanged); Get Many asks for Needs Attention', async () => {
  const rich = shop('rich');
  const order = await placeOrder(s.world.svc, rich);
  const sent = (await submit(s.world.svc, rich, order.id, { payNow: true })).body.result;
  const { out, rec } = await runEachItem(creds(rich), params(rich, { operation: 'acknowledgeAttention', supplierOrderId: sent._id, reason: 'customsHold' }), 1);
  expectSent(
    rec.last(),
    { method: 'POST', path: `${base(rich)}/orders/${sent._id}/delivery-attention/acknowledge`, body: { reason: 'customsHold' }, status: 409 },
    creds(rich),
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[attentionChanged\]$/)));
  const listed = await runNode(creds(rich), params(rich, { operation: 'getAll', returnAll: false, limit: 10, filters: { needsAttention: true } }));
  expect(listed.rec.last().query).toMatchObject({ needsAttention: 'true' });
  expect(listed.json).toEqual([]);
});

leakScanTest(s);
