/** Supplier Order › Retry: paused again is an error (an item under the error output); Accept Cost goes on. */
import { placeOrder, submit } from '../../support/orders';
import { errorItem, expectPaired, expectSent, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { leakScanTest, runNode, runNodeError, supplierOrderWhen } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params } = supplierOrderFile({ limited: 14 });

/** A supplier order stopped by the cost limit (before anything was sent). */
async function stopped() {
  const limited = shop('limited');
  const order = await placeOrder(s.world.svc, limited);
  const so = (await submit(s.world.svc, limited, order.id, { payNow: true })).body.result;
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit' });
  return so;
}

test('paused again is an error; with Accept Cost the order goes on (acceptCost sent and recorded)', async () => {
  const limited = shop('limited');
  const so = await stopped();
  const retry = params(limited, { operation: 'retry', supplierOrderId: so._id });

  const again = await runNodeError(creds(limited), { ...retry, options: {} });
  expectSent(again.rec.last(), { method: 'POST', path: `${base(limited)}/orders/${so._id}/retry`, body: {}, status: 200 }, creds(limited));
  expect(again.error.name).toBe('NodeOperationError');
  expect(again.error.context.supplierOrder).toMatchObject({ _id: so._id, status: 'needsReview', reviewReason: 'costAboveLimit' });

  const accepted = await runNode(creds(limited), { ...retry, options: { acceptCost: true } });
  expect(accepted.rec.last().body).toEqual({ acceptCost: true });
  expect(accepted.json).toHaveLength(1);
  expect(accepted.json[0]).toMatchObject({ _id: so._id, reviewReason: null });
  expect(['submitted', 'confirmed']).toContain(accepted.json[0].status);
  expectPaired(accepted.out, [0]);
  const settled = await supplierOrderWhen(s.world.svc, limited, so._id, (o) => o.status === 'confirmed', 'the order to be paid');
  expect(settled.events.some((e: { type: string; details: { acceptCost?: boolean } }) => e.type === 'retry' && e.details.acceptCost === true)).toBe(true);
});

test("paused again under the error output: { error, message: { reviewReason, retryable, supplierOrder } } paired with its item; under Continue On Fail an unknown order is its item's error", async () => {
  const limited = shop('limited');
  const so = await stopped();
  const toErrorOutput = await runNode(creds(limited), params(limited, { operation: 'retry', supplierOrderId: rl(so._id, 'list'), options: {} }), {
    onError: 'continueErrorOutput',
  });
  expect(toErrorOutput.out).toEqual([]);
  expect(toErrorOutput.errorOutput).toEqual([
    {
      json: {
        error: expect.stringContaining('costAboveLimit'),
        message: { reviewReason: 'costAboveLimit', retryable: false, supplierOrder: expect.objectContaining({ _id: so._id }) },
      },
      pairedItem: { item: 0 },
    },
  ]);

  const { out } = await runEachItem(
    creds(limited),
    params(limited, { operation: 'retry', supplierOrderId: (i: number) => ['00000000-0000-4000-8000-000000000000', so._id][i], options: { acceptCost: true } }),
    2,
  );
  expect(out[0]).toEqual(errorItem(0, expect.stringMatching(/\[notFound\]$/)));
  expect(out[1]).toMatchObject({ json: { _id: so._id, reviewReason: null }, pairedItem: { item: 1 } });
});

leakScanTest(s);
