/**
 * Returns on the store's side (issue 54, item 3), over real HTTP against the sandbox supplier and the sandbox payment
 * provider: a part's items returned with why, the shopper refunded in part through the provider under the return's own
 * key (counted at the provider: asked twice, at once, or after a lost answer, it refunds once), the order's profit
 * lowered by the refund, a claim's credit shown beside it, and a cancel after shipping naming the return as its next
 * action. The attacks: another store's part, more than was sent, twice across returns, a key without the permissions.
 */
import { createKey, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop, soAction, submit } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox, StorePayments } from '../support/payments';
import { ApiError, clientFor, rejectionOf } from '../client/support';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sandbox: Sandbox;
let provider: PaymentSandbox;
let svc: Service;
beforeAll(async () => {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  sandbox = await startSandbox();
  provider = await startPaymentSandbox();
  svc = await startService({
    label: 'returns',
    sandbox,
    payments: provider,
    publicBaseUrl: true,
    env: { CLAIM_CHECK_SECONDS: '2', DISPATCH_SWEEP_SECONDS: '1', DISPATCH_SWEEP_STALE_SECONDS: '2' },
  });
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
  await provider?.close();
});

const api = (shop: Shop) => `/api/store-suppliers/${shop.storeId}`;
const getSo = (shop: Shop, id: string) => svc.call('GET', `${api(shop)}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const getOrder = (shop: Shop, id: string) => svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const until = <T>(what: string, check: () => Promise<T | undefined | false>, ms = 30000) =>
  eventually(async () => (await check()) || undefined, ms, what) as Promise<T>;
const returnOf = (shop: Shop, soId: string, body: unknown, key = shop.owner.key) => svc.call('POST', `${api(shop)}/orders/${soId}/returns`, { key, body });
/** What the provider itself refunded on the order's payments. */
const refundsAt = async (orderId: string) => (await provider.paymentsOf(orderId)).flatMap((p: any) => p.refunds);
const rowsOf = async (storeId: string) =>
  (await svc.db.query('SELECT id, refund_status FROM part_returns WHERE store_id = $1 ORDER BY created_at', [storeId])).rows;

/** A shop whose shopper pays online through the sandbox provider. */
async function payingShop(page: number) {
  const shop = await openShop(svc, sandbox, { page });
  const payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
  return { shop, payments };
}

/** An order of `quantity` paid by the shopper, its part sent, paid and shipped at the sandbox, the shipment read back. */
async function shippedPart(shop: Shop, payments: StorePayments, quantity = 2) {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', quantity });
  await payments.pay(order.id, 'paid');
  const sent = await submit(svc, shop, order.id, { payNow: true });
  expect(sent.body.result.status).toBe('confirmed');
  await sandbox.control('POST', `/orders/${sent.body.result.supplierOrderId}/ship`, { carrier: 'SandboxPost' });
  const so = await until('shipped', async () => {
    const now = await getSo(shop, sent.body.result._id);
    return now.status === 'shipped' ? now : undefined;
  });
  return { order, so };
}

test("a return refunds the shopper in part, once, under the return's key: the provider's own record, the history, the events, the order's profit", async () => {
  const { shop, payments } = await payingShop(2);
  const { order, so } = await shippedPart(shop, payments, 3);
  const itemId = order.items[0].id;
  const before = (await getOrder(shop, order.id)).profit;
  const part = Math.floor(order.totalMinor / 3);
  const made = await returnOf(shop, so._id, { reason: 'damaged', note: 'Box crushed', items: [{ itemId, quantity: 1 }], refund: { amountMinor: part } });
  expect(made.status).toBe(201);
  const r = made.body.result;
  expect(r).toMatchObject({
    supplierOrderId: so._id,
    orderId: order.id,
    reason: 'damaged',
    note: 'Box crushed',
    items: [{ itemId, sku: order.items[0].sku, quantity: 1 }],
    claimId: null,
    refund: { amountMinor: part, currency: order.currency, status: 'requested', idempotencyKey: `refund:return:${r._id}`, message: null },
    money: { currency: order.currency, refundMinor: part, supplierCreditMinor: null, netMinor: -part },
  });
  // The provider refunded exactly that, once, under the return's key.
  expect(await refundsAt(order.id)).toEqual([expect.objectContaining({ amountMinor: part, idempotencyKey: `refund:return:${r._id}` })]);
  // The order's profit falls by the refund once the provider's signed event arrives.
  const after = await until('the refund in the profit', async () => {
    const o = await getOrder(shop, order.id);
    return o.amountRefundedMinor === part ? o : undefined;
  });
  expect(after.profit.resultMinor).toBe(before.resultMinor - part);
  expect(after.payments.filter((e: any) => e.kind === 'refundRequested')).toEqual([
    expect.objectContaining({ amountMinor: part, note: `Return ${r._id}: It arrived damaged` }),
  ]);
  const history = (await getSo(shop, so._id)).events.filter((e: any) => e.type.startsWith('return'));
  expect(history.map((e: any) => [e.type, e.details.return._id, e.details.return.refund?.status])).toEqual([
    ['returnRecorded', r._id, 'sending'],
    ['returnUpdated', r._id, 'requested'],
  ]);
  const outbox = (await svc.db.query('SELECT type FROM event_outbox WHERE resource_key = $1 ORDER BY seq', [`supplierOrder:${so._id}`])).rows.map(
    (x) => x.type,
  );
  expect(outbox.filter((t: string) => t.includes('return'))).toEqual(['supplierOrder.returnRecorded', 'supplierOrder.returnUpdated']);
  const listed = await svc.call('GET', `${api(shop)}/orders/${so._id}/returns`, { key: shop.owner.key });
  expect(listed.body.result.items.map((x: any) => x._id)).toEqual([r._id]);

  // More than was sent, twice across returns, more than is left to refund: refused, nothing recorded, nothing refunded.
  const tooMany = await returnOf(shop, so._id, { reason: 'damaged', items: [{ itemId, quantity: 4 }] });
  expect([tooMany.status, tooMany.body.error.code, tooMany.body.error.details[0].field]).toEqual([422, 'returnInvalid', 'body/items/0/quantity']);
  expect((await returnOf(shop, so._id, { reason: 'damaged', items: [{ itemId, quantity: 2 }] })).status).toBe(201);
  const again = await returnOf(shop, so._id, { reason: 'damaged', items: [{ itemId, quantity: 1 }] });
  expect([again.status, again.body.error.code]).toEqual([409, 'alreadyReturned']);
  const { shop: other, payments: otherPay } = await payingShop(3);
  const two = await shippedPart(other, otherPay, 2);
  const over = await returnOf(other, two.so._id, {
    reason: 'wrongItem',
    items: [{ itemId: two.order.items[0].id, quantity: 1 }],
    refund: { amountMinor: two.order.totalMinor + 1 },
  });
  expect([over.status, over.body.error.code]).toEqual([409, 'refundExceedsPayment']);
  expect(await rowsOf(other.storeId)).toEqual([]);
  expect(await refundsAt(two.order.id)).toEqual([]);
  expect((await rowsOf(shop.storeId)).length).toBe(2);
  expect(await refundsAt(order.id)).toHaveLength(1);
});

test('refunded once: two returns of the same item at once, and an answer lost then asked again twice at once (counted at the provider)', async () => {
  const { shop, payments } = await payingShop(4);
  const { order, so } = await shippedPart(shop, payments, 1);
  const itemId = order.items[0].id;
  const body = { reason: 'noLongerWanted', items: [{ itemId, quantity: 1 }], refund: { amountMinor: 100 } };
  const both = await Promise.all([returnOf(shop, so._id, body), returnOf(shop, so._id, body)]);
  expect(both.map((x) => x.status).sort()).toEqual([201, 409]);
  expect(both.find((x) => x.status === 409)!.body.error.code).toBe('alreadyReturned');
  expect(await refundsAt(order.id)).toEqual([expect.objectContaining({ amountMinor: 100 })]);

  // The provider refunds but its answer is lost: the return stays `sending`, then asked again (twice at once) refunds nothing more.
  const { order: second, so: so2 } = await shippedPart(shop, payments, 1);
  await provider.control('POST', '/faults', { loseRefundAnswer: { count: 1 } });
  const lost = await returnOf(shop, so2._id, { ...body, items: [{ itemId: second.items[0].id, quantity: 1 }], refund: { amountMinor: 250 } });
  expect(lost.status).toBe(201);
  expect(lost.body.result.refund).toMatchObject({ status: 'sending', message: expect.stringContaining('could not be reached') });
  expect(await refundsAt(second.id)).toEqual([expect.objectContaining({ amountMinor: 250, idempotencyKey: `refund:return:${lost.body.result._id}` })]);
  const path = `${api(shop)}/orders/${so2._id}/returns/${lost.body.result._id}/refund`;
  const asked = await Promise.all([svc.call('POST', path, { key: shop.owner.key }), svc.call('POST', path, { key: shop.owner.key })]);
  expect(asked.map((x) => [x.status, x.body.result.refund.status])).toEqual([
    [200, 'requested'],
    [200, 'requested'],
  ]);
  expect(await refundsAt(second.id)).toHaveLength(1);
  const history = (await getSo(shop, so2._id)).events.filter((e: any) => e.type === 'returnUpdated');
  expect(history).toHaveLength(1);
  // Requested: asked again, answered as it is, nothing sent.
  expect((await svc.call('POST', path, { key: shop.owner.key })).body.result.refund.status).toBe('requested');
  expect(await refundsAt(second.id)).toHaveLength(1);
});

test("with the supplier's claim: linked (one of this part only), the claim's credit and the refund in the return's money and the order's profit", async () => {
  const { shop, payments } = await payingShop(5);
  const { order, so } = await shippedPart(shop, payments, 1);
  const itemId = order.items[0].id;
  const opened = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: { reason: 'damaged', expectation: 'refund', items: [{ itemId, quantity: 1 }] },
  });
  expect(opened.status).toBe(201);
  const claim = await until('sent', async () => {
    const c = (await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${opened.body.result._id}`, { key: shop.owner.key })).body.result;
    return c.status === 'open' ? c : undefined;
  });
  await sandbox.control('POST', `/claims/${claim.supplierClaimId}/decide`, { outcome: 'refund', amountMinor: 500 });
  await until('credited', async () => (await getSo(shop, so._id)).supplierCredits.length > 0);
  const before = (await getOrder(shop, order.id)).profit;
  expect(before.supplierCreditMinor).toBe(500);

  // A claim of another store's part (or of no part here) is not this part's.
  const { shop: other, payments: otherPay } = await payingShop(6);
  const foreign = await shippedPart(other, otherPay, 1);
  const wrong = await returnOf(other, foreign.so._id, { reason: 'damaged', items: [{ itemId: foreign.order.items[0].id, quantity: 1 }], claimId: claim._id });
  expect([wrong.status, wrong.body.error.code, wrong.body.error.details[0].field]).toEqual([422, 'returnInvalid', 'body/claimId']);

  const made = await returnOf(shop, so._id, { reason: 'damaged', items: [{ itemId, quantity: 1 }], claimId: claim._id, refund: { amountMinor: 700 } });
  expect(made.status).toBe(201);
  expect(made.body.result).toMatchObject({
    claimId: claim._id,
    refund: { status: 'requested', amountMinor: 700 },
    money: { currency: order.currency, refundMinor: 700, supplierCreditMinor: 500, netMinor: -200 },
  });
  const after = await until('the refund in the profit', async () => {
    const o = await getOrder(shop, order.id);
    return o.amountRefundedMinor === 700 ? o : undefined;
  });
  expect(after.profit).toMatchObject({ supplierCreditMinor: 500, resultMinor: before.resultMinor - 700 });
});

test('a cancel after the supplier shipped names the return as its next action, and the return route takes that paused part', async () => {
  const { shop, payments } = await payingShop(7);
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payments.pay(order.id, 'paid');
  const so = (await submit(svc, shop, order.id, { payNow: true })).body.result;
  expect(so.nextAction).toBeNull();
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'LatePost', trackingNumber: 'LP-RET' });
  await until('shipped', async () => (await getSo(shop, so._id)).status === 'shipped');
  const cancel = await soAction(svc, shop, so._id, 'cancel');
  expect(cancel.body.result).toMatchObject({
    status: 'needsReview',
    reviewReason: 'supplierAlreadyShipped',
    nextAction: { action: 'return', operationId: 'recordSupplierOrderReturn', method: 'POST', path: `${api(shop)}/orders/${so._id}/returns` },
  });
  const made = await svc.call('POST', cancel.body.result.nextAction.path, {
    key: shop.owner.key,
    body: { reason: 'cancelledAfterShipping', items: [{ itemId: order.items[0].id, quantity: 1 }], refund: { amountMinor: order.totalMinor } },
  });
  expect(made.status).toBe(201);
  expect(made.body.result.refund).toMatchObject({ status: 'requested', amountMinor: order.totalMinor });
  expect(await refundsAt(order.id)).toEqual([expect.objectContaining({ amountMinor: order.totalMinor })]);
  // A part not shipped has no return.
  const open = (await submit(svc, shop, (await placeOrder(svc, shop)).id)).body.result;
  const early = await returnOf(shop, open._id, { reason: 'noLongerWanted', items: [{ itemId: order.items[0].id, quantity: 1 }] });
  expect([early.status, early.body.error.code]).toEqual([409, 'invalidState']);
});

test("the attacks: another store's part is 404; a key without returns.manage, or refunding without payments.manage, is 403 with nothing recorded or refunded", async () => {
  const { shop, payments } = await payingShop(8);
  const { order, so } = await shippedPart(shop, payments, 1);
  const body = { reason: 'damaged', items: [{ itemId: order.items[0].id, quantity: 1 }], refund: { amountMinor: 100 } };
  // Another store's owner, naming this part under their own store, or under this one.
  const { shop: stranger } = await payingShop(9);
  const underOwn = await returnOf(stranger, so._id, body, stranger.owner.key);
  expect([underOwn.status, underOwn.body.error.code]).toEqual([404, 'notFound']);
  const underThis = await svc.call('POST', `${api(shop)}/orders/${so._id}/returns`, { key: stranger.owner.key, body });
  expect([underThis.status, underThis.body.error.code]).toEqual([404, 'notFound']);

  const staff = await newDeveloper(svc);
  const staffKey = (await createKey(svc, staff.session, 'returns', 'account')).key;
  const grant = (permissions: string[]) =>
    svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: staff.email, permissions } });
  expect((await grant(['suppliers.view', 'payments.manage'])).status).toBe(200);
  const noReturns = await returnOf(shop, so._id, body, staffKey);
  expect([noReturns.status, noReturns.body.error.code, noReturns.body.error.details[0].permission]).toEqual([403, 'permissionDenied', 'returns.manage']);
  expect((await grant(['suppliers.view', 'returns.manage'])).status).toBe(200);
  const noPayments = await returnOf(shop, so._id, body, staffKey);
  expect([noPayments.status, noPayments.body.error.code, noPayments.body.error.details[0].permission]).toEqual([403, 'permissionDenied', 'payments.manage']);
  expect(await rowsOf(shop.storeId)).toEqual([]);
  expect(await refundsAt(order.id)).toEqual([]);
  // Without a refund, returns.manage is enough.
  expect((await returnOf(shop, so._id, { reason: body.reason, items: body.items }, staffKey)).status).toBe(201);
  expect(await refundsAt(order.id)).toEqual([]);
});

test('the JS client: returns.create with a refund, list, get and sendRefund; an item returned twice is an ApiError of 409', async () => {
  const { shop, payments } = await payingShop(10);
  const { order, so } = await shippedPart(shop, payments, 1);
  const { store, sent } = clientFor(svc, shop.owner.key);
  const returns = store.suppliers.returns;
  const items = [{ itemId: order.items[0].id, quantity: 1 }];
  const made = await returns.create(shop.storeId, so._id, { reason: 'wrongItem', items, refund: { amountMinor: 123 } });
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 201 });
  expect(made.refund).toMatchObject({ status: 'requested', amountMinor: 123 });
  expect((await returns.list(shop.storeId, so._id)).map((r) => r._id)).toEqual([made._id]);
  expect((await returns.get(shop.storeId, so._id, made._id)).money).toMatchObject({ refundMinor: 123, netMinor: -123 });
  expect((await returns.sendRefund(shop.storeId, so._id, made._id)).refund?.status).toBe('requested');
  const twice = await rejectionOf<ApiError>(returns.create(shop.storeId, so._id, { reason: 'wrongItem', items }));
  expect(twice).toBeInstanceOf(ApiError);
  expect([twice.status, twice.code]).toEqual([409, 'alreadyReturned']);
  expect(await refundsAt(order.id)).toHaveLength(1);
});

leakScanTest();
