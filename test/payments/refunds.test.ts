/**
 * Refunds to the shopper, whole or in part, through the sandbox payment provider (issue 53, item 2): asked over HTTP
 * (`POST /api/store-orders/:storeId/:orderId/refunds`), recorded before the provider is asked, and shown on the order,
 * in its history and in `storeOrder.paymentChanged` once the provider's signed event arrives. What the provider
 * refunded is read from its own records.
 */
import { eventually, leakScanTest, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox, StorePayments } from '../support/payments';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS } from '../events/support';
import { ApiError, clientFor, rejectionOf } from '../client/support';

let sandbox: Sandbox;
let provider: PaymentSandbox;
let svc: Service;
let shop: Shop;
let payments: StorePayments;
let receiver: Receiver & { url: string };

beforeAll(async () => {
  sandbox = await startSandbox();
  provider = await startPaymentSandbox();
  receiver = await Receiver.start();
  svc = await startService({ label: 'refunds', sandbox, payments: provider, privateTargets: true, env: { ...FAST_EVENTS } });
  shop = await openShop(svc, sandbox, { page: 8, automation: { level: 'manual' } });
  payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
  const subscribed = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/event-subscriptions`, {
    key: shop.owner.key,
    body: { url: receiver.url, eventTypes: ['storeOrder.paymentChanged'] },
  });
  if (subscribed.status !== 201) throw new Error(subscribed.text);
  seen.secrets.add(subscribed.body.result.secret);
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
  await provider?.close();
  await receiver?.down();
});

const storeOrder = async (id: string) => (await svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key })).body.result;
const refund = (orderId: string, body: unknown) => svc.call('POST', `/api/store-orders/${shop.storeId}/${orderId}/refunds`, { key: shop.owner.key, body });
const changes = (orderId: string) => receiver.received.filter((x) => x.json?.data?.orderId === orderId).map((x) => x.json.data);

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 30000): Promise<T> {
  return eventually(
    async () => {
      const v = await read();
      return ok(v) ? v : undefined;
    },
    ms,
    what,
  );
}

test('a refund in part through the provider: recorded before it is asked, then on the order, in its history and its event; the rest refunds it whole', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', quantity: 3 });
  const { paymentId } = await payments.pay(order.id, 'paid');
  const part = Math.floor(order.totalMinor / 3);
  const asked = await refund(order.id, { amountMinor: part, currency: order.currency, reason: 'One of three returned, SKU A-1234 on 2026-12-01' });
  expect(asked.status).toBe(202);
  expect(asked.body.result).toMatchObject({ orderId: order.id, paymentReference: paymentId, amountMinor: part, currency: order.currency, status: 'requested' });
  // The provider's own record: one refund of that amount.
  const [atProvider] = await provider.paymentsOf(order.id);
  expect(atProvider).toMatchObject({ status: 'paid', refundedMinor: part, refunds: [expect.objectContaining({ amountMinor: part })] });
  const after = await until(
    () => storeOrder(order.id),
    (o) => o.amountRefundedMinor === part,
    'the partial refund applied',
  );
  expect(after).toMatchObject({ paymentStatus: 'partiallyRefunded', paymentAttention: null, needsAttention: false });
  expect(after.providerPayments).toEqual([
    expect.objectContaining({ reference: paymentId, status: 'partiallyRefunded', amountMinor: order.totalMinor, refundedMinor: part }),
  ]);
  const history = after.payments.map((e: any) => [e.kind, e.source, e.amountMinor]);
  expect(history.slice(-2)).toEqual([
    ['refundRequested', 'manual', part],
    ['refunded', 'provider', part],
  ]);
  expect(after.payments.at(-2)).toMatchObject({ note: 'One of three returned, SKU A-1234 on 2026-12-01', actor: expect.any(Object) });
  await receiver.until(() => changes(order.id).some((d) => d.paymentStatus === 'partiallyRefunded'), 30000, 'the paymentChanged event');
  expect(changes(order.id).find((d) => d.paymentStatus === 'partiallyRefunded')).toMatchObject({
    previousPaymentStatus: 'paid',
    reportedAs: 'partiallyRefunded',
    amountRefundedMinor: part,
    paymentReference: paymentId,
  });

  // More than is left, or another currency: refused, nothing asked of the provider.
  const tooMuch = await refund(order.id, { amountMinor: order.totalMinor });
  expect([tooMuch.status, tooMuch.body.error.code]).toEqual([409, 'refundExceedsPayment']);
  const otherCurrency = await refund(order.id, { amountMinor: 1, currency: order.currency === 'EUR' ? 'USD' : 'EUR' });
  expect([otherCurrency.status, otherCurrency.body.error.code, otherCurrency.body.error.details[0].field]).toEqual([400, 'validationFailed', 'body/currency']);
  expect((await provider.paymentsOf(order.id))[0].refunds).toHaveLength(1);

  // The rest: refunded whole (a refund after paid: a person looks, as before).
  expect((await refund(order.id, { amountMinor: order.totalMinor - part })).status).toBe(202);
  const whole = await until(
    () => storeOrder(order.id),
    (o) => o.paymentStatus === 'refunded',
    'the whole refund applied',
  );
  expect(whole).toMatchObject({ amountRefundedMinor: order.totalMinor, paymentAttention: { reason: 'refundedAfterPaid' } });
  expect(whole.providerPayments[0]).toMatchObject({ status: 'refunded', refundedMinor: order.totalMinor });
});

test('nothing paid, nothing to refund; bad amounts are 400 naming the field', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const none = await refund(order.id, { amountMinor: 100 });
  expect([none.status, none.body.error.code]).toEqual([409, 'nothingToRefund']);
  for (const body of [{}, { amountMinor: 0 }, { amountMinor: 1.5 }, { amountMinor: '100' }]) {
    const bad = await refund(order.id, body);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'validationFailed']);
  }
  const history = (await storeOrder(order.id)).payments;
  expect(history.filter((e: any) => e.kind === 'refundRequested')).toEqual([]);
});

test("the JS client: orders.refund in part, then the order's payments as the provider reported them; more than is left is an ApiError of 409", async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', quantity: 2 });
  const { paymentId } = await payments.pay(order.id, 'paid');
  const { store } = clientFor(svc, shop.owner.key);
  const asked = await store.orders.refund(shop.storeId, order.id, { amountMinor: 150, reason: 'Late delivery' });
  expect(asked).toMatchObject({ paymentReference: paymentId, amountMinor: 150, status: 'requested' });
  const after = await until(
    () => store.orders.get(shop.storeId, order.id),
    (o) => o.amountRefundedMinor === 150,
    'the refund through the client',
  );
  expect(after.paymentStatus).toBe('partiallyRefunded');
  expect(after.providerPayments).toEqual([expect.objectContaining({ reference: paymentId, refundedMinor: 150 })]);
  const tooMuch = await rejectionOf<ApiError>(store.orders.refund(shop.storeId, order.id, { amountMinor: order.totalMinor }));
  expect([tooMuch.status, tooMuch.code]).toEqual([409, 'refundExceedsPayment']);
});

test('a refund sent again with its Idempotency-Key (its answer lost) refunds once, at the provider too', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', quantity: 2 });
  await payments.pay(order.id, 'paid');
  const body = { amountMinor: 100, currency: order.currency, reason: 'sent twice' };
  const send = () =>
    svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/refunds`, {
      key: shop.owner.key,
      body,
      headers: { 'Idempotency-Key': `refund-${order.id}` },
    });
  const first = await send();
  const again = await send();
  expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([202, 202, 'true']);
  expect(again.body).toEqual(first.body);
  const [atProvider] = await provider.paymentsOf(order.id);
  expect(atProvider.refunds).toHaveLength(1);
});

leakScanTest();
