/** Supplier Order › Pay: a pause (no balance) is an error, an item under the error output; with balance it is paid. */
import { placeOrder, submit } from '../../support/orders';
import { expectPaired, expectSent } from '../support/checks';
import { leakScanTest, runNode, runNodeError } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params, topUp } = supplierOrderFile({ poor: 15, rich: 3 });

test('with no balance the order pauses (an error); after a top-up a retry finds it at the supplier and pay pays it', async () => {
  const poor = shop('poor');
  const order = await placeOrder(s.world.svc, poor);
  const created = (await submit(s.world.svc, poor, order.id)).body.result;
  expect(created.status).toBe('submitted');
  const pay = params(poor, { supplierOrderId: created._id });

  const paid = await runNodeError(creds(poor), { ...pay, operation: 'pay' });
  expectSent(paid.rec.last(), { method: 'POST', path: `${base(poor)}/orders/${created._id}/pay`, body: undefined, status: 200 }, creds(poor));
  expect(paid.error.name).toBe('NodeOperationError');
  expect(paid.error.message).toContain('insufficientBalance');
  expect(paid.error.context.supplierOrder).toMatchObject({ _id: created._id, status: 'needsReview' });

  await topUp(poor, 1_000_000);
  try {
    const retried = await runNode(creds(poor), { ...pay, operation: 'retry', options: {} });
    expect(retried.json[0]).toMatchObject({ _id: created._id, status: 'submitted', reviewReason: null, attempt: created.attempt });
    const done = await runNode(creds(poor), { ...pay, operation: 'pay' });
    expect(done.json[0]).toMatchObject({ _id: created._id, status: 'confirmed', payment: { status: 'paid' } });
    expectPaired(done.out, [0]);
  } finally {
    await topUp(poor, 0);
  }
});

test('a created order with balance is paid at once: confirmed', async () => {
  const rich = shop('rich');
  const order = await placeOrder(s.world.svc, rich);
  const created = (await submit(s.world.svc, rich, order.id)).body.result;
  const paid = await runNode(creds(rich), params(rich, { operation: 'pay', supplierOrderId: created._id }));
  expectSent(paid.rec.last(), { method: 'POST', path: `${base(rich)}/orders/${created._id}/pay`, body: undefined, status: 200 }, creds(rich));
  expect(paid.json[0]).toMatchObject({ status: 'confirmed', payment: { status: 'paid' } });
  expectPaired(paid.out, [0]);
});

test('under the error output a pause is an item of its own, with the order', async () => {
  const poor = shop('poor');
  const order = await placeOrder(s.world.svc, poor);
  const created = (await submit(s.world.svc, poor, order.id)).body.result;
  const routed = await runNode(creds(poor), params(poor, { operation: 'pay', supplierOrderId: created._id }), { onError: 'continueErrorOutput' });
  expect(routed.out).toEqual([]);
  expect(routed.errorOutput).toEqual([
    {
      json: {
        error: expect.stringContaining('insufficientBalance'),
        message: {
          reviewReason: 'insufficientBalance',
          retryable: expect.any(Boolean),
          supplierOrder: expect.objectContaining({ _id: created._id, status: 'needsReview' }),
        },
      },
      pairedItem: { item: 0 },
    },
  ]);
});

leakScanTest(s);
