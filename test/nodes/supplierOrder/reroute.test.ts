/**
 * Supplier Order › Reroute: a paused order's items go to the link's backup supplier (the sandbox in test mode). The
 * pause standing (no alternate could take them) is an error naming the alternates tried; rerouted, the order answers
 * cancelled with its `rerouted` history entry, and the backup connection holds the new order.
 */
import type { IDataObject } from 'n8n-workflow';

import { placeOrder, submit } from '../../support/orders';
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode, runNodeError, supplierOrderWhen } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params } = supplierOrderFile({ backed: 12 });

/** A supplier order stopped by the cost limit before anything was sent; the rule reroutes on nothing, so it waits. */
async function paused() {
  const backed = shop('backed');
  const order = await placeOrder(s.world.svc, backed);
  const so = (await submit(s.world.svc, backed, order.id)).body.result;
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit' });
  return so;
}

const setLevel = (level: string) =>
  s.world.svc.call('PUT', `${base(shop('backed'))}/${shop('backed').backupConnId}/automation`, { key: shop('backed').owner.key, body: { level } });

test('no alternate can take the part: the pause stands, an error naming the alternates tried (the supplier order on the error)', async () => {
  const backed = shop('backed');
  const so = await paused();
  expect((await setLevel('off')).status).toBe(200);
  try {
    const stands = await runNodeError(creds(backed), params(backed, { operation: 'reroute', supplierOrderId: rl(so._id), options: {} }));
    expectSent(stands.rec.last(), { method: 'POST', path: `${base(backed)}/orders/${so._id}/reroute`, body: {}, status: 200 }, creds(backed));
    expect(stands.error.message).toMatch(/^Supplier order paused for review: costAboveLimit: .*Alternates tried: 1\. sandbox: its automation is off/);
    expect(stands.error.context.supplierOrder).toMatchObject({ _id: so._id, status: 'needsReview', reviewReason: 'costAboveLimit' });
  } finally {
    await setLevel('manual');
  }
});

test('rerouted: the order answers cancelled with the rerouted entry (from, to, reason, cost difference); the backup connection holds the new order', async () => {
  const backed = shop('backed');
  const so = await paused();
  const { json, out, rec } = await runNode(
    creds(backed),
    params(backed, { operation: 'reroute', supplierOrderId: rl(so._id, 'list'), options: { connectionId: backed.backupConnId } }),
  );
  expectSent(
    rec.last(),
    { method: 'POST', path: `${base(backed)}/orders/${so._id}/reroute`, body: { connectionId: backed.backupConnId }, status: 200 },
    creds(backed),
  );
  expect(json).toHaveLength(1);
  expect(json[0]).toMatchObject({ _id: so._id, status: 'cancelled' });
  const entry = (json[0].events as IDataObject[]).find((e) => e.type === 'rerouted');
  expect(entry?.details).toMatchObject({
    reason: 'costAboveLimit',
    by: 'manual',
    from: { supplierOrderId: so._id, connectionId: backed.connId },
    to: { connectionId: backed.backupConnId },
    costDifferenceMinor: 0,
    currency: 'USD',
  });
  expectPaired(out, [0]);
  const toId = ((entry!.details as IDataObject).to as IDataObject).supplierOrderId as string;
  const moved = await supplierOrderWhen(s.world.svc, backed, toId, (o) => o.status !== 'queued', 'the backup order to be sent');
  expect(moved).toMatchObject({ integrationId: backed.backupConnId, orderId: so.orderId });
  expect(moved.events[0].details).toMatchObject({ trigger: 'reroute' });
});

test("Continue On Fail: an order not paused (409 invalidState) and a connection holding no alternate (422 alternateInvalid) are their items' errors", async () => {
  const backed = shop('backed');
  const cancelled = (await s.world.svc.call('GET', `${base(backed)}/orders?status=cancelled`, { key: backed.owner.key })).body.result.items[0];
  const so = await paused();
  const { out, rec } = await runEachItem(
    creds(backed),
    params(backed, {
      operation: 'reroute',
      supplierOrderId: (i: number) => [cancelled._id, so._id][i],
      options: (i: number) => [{}, { connectionId: backed.connId }][i],
    }),
    2,
  );
  expect(rec.requests.map((r) => r.status)).toEqual([409, 422]);
  expect(rec.requests[1].body).toEqual({ connectionId: backed.connId });
  expect(out).toEqual([errorItem(0, expect.stringMatching(/\[invalidState\]$/)), errorItem(1, expect.stringMatching(/\[alternateInvalid\]$/))]);
});

leakScanTest(s);
