/** Supplier Order › Get. */
import { placeOrder, submit } from '../../support/orders';
import { errorItem, expectPaired, expectSent, MISSING_ID, runEachItem } from '../support/checks';
import { rl } from '../support/context';
import { credentialsOf, leakScanTest, runNode, runNodeError, supplierOrderWhen } from '../support/world';
import { supplierOrderFile } from './setup';

const { s, shop, creds, base, params } = supplierOrderFile({ rich: 17 });

test("answers the supplier order with its history; Simplify leaves the history out; an unknown one is the service's notFound", async () => {
  const rich = shop('rich');
  const order = await placeOrder(s.world.svc, rich);
  const created = (await submit(s.world.svc, rich, order.id, { payNow: true })).body.result;
  await supplierOrderWhen(s.world.svc, rich, created._id, (so) => so.status === 'confirmed', 'the order to be paid');
  const got = await runNode(creds(rich), params(rich, { operation: 'get', supplierOrderId: created._id }));
  expectSent(got.rec.last(), { method: 'GET', path: `${base(rich)}/orders/${created._id}`, query: {}, body: undefined, status: 200 }, creds(rich));
  expect(got.json[0]).toMatchObject({ _id: created._id, status: 'confirmed', orderNumber: order.number });
  expect(got.json[0].events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'paid' })]));
  expectPaired(got.out, [0]);
  const simple = await runNode(creds(rich), params(rich, { operation: 'get', supplierOrderId: rl(created._id, 'list'), simplify: true }));
  expect(simple.json[0]).not.toHaveProperty('events');

  const unknown = await runNodeError(creds(rich), params(rich, { operation: 'get', supplierOrderId: MISSING_ID }));
  expect(unknown.error.name).toBe('NodeApiError');
  expect(unknown.error.message).toBe('The supplier order was not found. [notFound]');
  expect(unknown.error.httpCode).toBe('404');
  expect(unknown.error.description).toContain('error code notFound');

  const { out } = await runEachItem(creds(rich), params(rich, { operation: 'get', supplierOrderId: (i: number) => [created._id, MISSING_ID][i] }), 2);
  expect(out[0]).toMatchObject({ json: { _id: created._id }, pairedItem: { item: 0 } });
  expect(out[1]).toEqual(errorItem(1, 'The supplier order was not found. [notFound]'));
});

test("a revoked or unknown key is the service's 401 with a hint to check the credential", async () => {
  const rich = shop('rich');
  const { error } = await runNodeError(credentialsOf(s.world.svc, 'ssk_unknown'), params(rich, { operation: 'get', supplierOrderId: MISSING_ID }));
  expect(error.message).toBe('A valid API key or session is required. [unauthenticated]');
  expect(error.description).toContain('Store Suppliers API credential');
});

leakScanTest(s);
