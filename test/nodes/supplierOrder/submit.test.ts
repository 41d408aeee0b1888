/** Supplier Order › Submit: a part sent now; a paused answer is an error (and, under the error output, an item). */
import { createStore, newDeveloper } from '../../support/harness';
import { partKeyOf, placeOrder, Shop } from '../../support/orders';
import { errorItem, expectPaired, expectSent } from '../support/checks';
import { rl } from '../support/context';
import { credentialsOf, leakScanTest, pausedOrder, runNode, runNodeError, supplierOrderWhen } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params } = supplierOrderFile({ poor: 2, limited: 13, ruled: 10 });
const submitParams = (on: Shop, orderId: unknown, options: unknown) =>
  params(on, { operation: 'submit', store: rl(on.storeId, 'list'), orderId, connection: rl(on.connId), options });
const partPath = (on: Shop, orderId: string) => `${base(on)}/orders/${orderId}/groups/${encodeURIComponent(partKeyOf(on))}/submit`;

test('sends the part with payNow; a paused answer is a NodeOperationError naming reviewReason and reviewMessage', async () => {
  const limited = shop('limited');
  const order = await placeOrder(s.world.svc, limited);
  const { error, rec } = await runNodeError(creds(limited), submitParams(limited, order.id, { payNow: true }));
  expect(rec.requests).toHaveLength(1);
  expectSent(rec.last(), { method: 'POST', path: partPath(limited, order.id), query: {}, body: { payNow: true }, status: 200 }, creds(limited));
  expect(error.name).toBe('NodeOperationError');
  const so = error.context.supplierOrder;
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit', retryable: false, orderId: order.id });
  expect(so.reviewMessage).toEqual(expect.any(String));
  expect(error.message).toBe(`Supplier order paused for review: costAboveLimit: ${so.reviewMessage}`);
  expect(error.description).toContain('reviewReason: costAboveLimit');
  expect(error.description).toContain(`reviewMessage: ${so.reviewMessage}`);
  expect(error.description).toContain('Accept Cost');
  expect(error.context.itemIndex).toBe(0);
});

test("a pause the connection's rule sends to a backup supplier is no error: Submit answers the order (rerouted by the rule once the job acted), not a pause", async () => {
  const ruled = shop('ruled');
  const order = await placeOrder(s.world.svc, ruled);
  const { json, out } = await runNode(creds(ruled), submitParams(ruled, order.id, {}));
  expectPaired(out, [0]);
  expect(json[0]).toMatchObject({ orderId: order.id, integrationId: ruled.connId });
  expect(['needsReview', 'cancelled']).toContain(json[0].status);
  const done = await supplierOrderWhen(s.world.svc, ruled, json[0]._id as string, (so) => so.status === 'cancelled', 'the rule to reroute the part');
  expect(done.events.find((e: { type: string }) => e.type === 'rerouted').details).toMatchObject({
    by: 'rule',
    reason: 'costAboveLimit',
    to: { connectionId: ruled.backupConnId },
  });
});

test('submit of a part whose order already paused with insufficientBalance answers that order: the same error', async () => {
  const poor = shop('poor');
  const paused = await pausedOrder(s.world.svc, poor);
  const { error, rec } = await runNodeError(creds(poor), submitParams(poor, paused.orderId, { payNow: true }));
  expect(rec.last().body).toEqual({ payNow: true });
  expect(error.name).toBe('NodeOperationError');
  expect(error.message).toContain('insufficientBalance');
  expect(error.message).toContain(paused.reviewMessage);
  expect(error.context.supplierOrder).toMatchObject({ _id: paused._id, reviewReason: 'insufficientBalance' });
  expect(error.description).toContain('Top up the balance');
});

test('with Continue On Fail, a paused order gives { error: message, reviewReason, retryable, supplierOrder } paired with its item, and the other items go on', async () => {
  const poor = shop('poor');
  // a: a part already paused for insufficientBalance; b: a new order, sent without payNow; c: a bad id.
  const [a, b] = await Promise.all([pausedOrder(s.world.svc, poor), placeOrder(s.world.svc, poor)]);
  const { out, rec } = await runNode(
    creds(poor),
    submitParams(
      poor,
      (i: number) => [a.orderId, b.id, 'not-a-uuid'][i],
      (i: number) => ({ payNow: i !== 1 }),
    ),
    {
      items: [{ json: {} }, { json: {} }, { json: {} }],
      continueOnFail: true,
    },
  );
  expect(rec.requests.map((r) => r.body)).toEqual([{ payNow: true }, { payNow: false }, { payNow: true }]);
  expect(out).toHaveLength(3);
  expectPaired(out, [0, 1, 2]);
  // n8n's convention: `error` is the message string; the pause's reason, retryable and order beside it.
  expect(out[0].json).toEqual({
    error: expect.stringContaining('insufficientBalance'),
    reviewReason: 'insufficientBalance',
    retryable: a.retryable,
    supplierOrder: expect.objectContaining({ _id: a._id, status: 'needsReview', reviewReason: 'insufficientBalance' }),
  });
  // With payNow off (and no automatic payment) the order is created at the supplier and waits to be paid.
  expect(out[1].json).toMatchObject({ orderId: b.id, status: 'submitted', payment: { status: 'unpaid' } });
  // A bad id is the service's validation error, code and message, and no supplier order.
  expect(out[2]).toEqual(errorItem(2, expect.stringContaining('[validationFailed]')));
  expect(rec.requests[2].status).toBe(400);
});

test('a paused submit under "Continue (using error output)" reaches n8n\'s error output as { error: message, message: { reviewReason, retryable, supplierOrder } } (the one shape n8n 1.x and 2.x both route with its data); under regular output { error, reviewReason, retryable, supplierOrder }', async () => {
  const limited = shop('limited');
  const a = await placeOrder(s.world.svc, limited);
  const toErrorOutput = await runNode(creds(limited), submitParams(limited, a.id, {}), { onError: 'continueErrorOutput' });
  // Routed by n8n's engine: nothing on the success output, the pause on the error output.
  expect(toErrorOutput.out).toEqual([]);
  expect(toErrorOutput.errorOutput).toHaveLength(1);
  const [item] = toErrorOutput.errorOutput;
  expect(item.json).toEqual({
    error: expect.stringContaining('costAboveLimit'),
    message: {
      reviewReason: 'costAboveLimit',
      retryable: expect.any(Boolean),
      supplierOrder: expect.objectContaining({ orderId: a.id, reviewReason: 'costAboveLimit' }),
    },
  });
  expect(typeof item.json.error).toBe('string');
  expect(item.pairedItem).toEqual({ item: 0 });
  const b = await placeOrder(s.world.svc, limited);
  const regular = await runNode(creds(limited), submitParams(limited, b.id, {}), { onError: 'continueRegularOutput' });
  expect(regular.rec.last().body).toEqual({});
  expect(regular.errorOutput).toEqual([]);
  expect(regular.out[0].json).toEqual({
    error: expect.stringContaining('costAboveLimit'),
    reviewReason: 'costAboveLimit',
    retryable: expect.any(Boolean),
    supplierOrder: expect.objectContaining({ orderId: b.id, status: 'needsReview' }),
  });
});

test("a store whose owner plan lacks dropshipping: the service's planRequired code and message surface", async () => {
  const owner = await newDeveloper(s.world.svc, { plan: 'free' });
  const storeId = await createStore(s.world.svc, owner.key);
  const { error, rec } = await runNodeError(credentialsOf(s.world.svc, owner.key), {
    resource: 'supplierOrder',
    operation: 'submit',
    store: rl(storeId),
    orderId: '00000000-0000-4000-8000-000000000000',
    connection: rl('00000000-0000-4000-8000-000000000001'),
    options: {},
  });
  expect(rec.last().status).toBe(403);
  expect(error.name).toBe('NodeApiError');
  expect(error.message).toMatch(/\[planRequired\]$/);
  expect(error.httpCode).toBe('403');
  expect(error.description).toContain('Pro or higher');
});

leakScanTest(s);
