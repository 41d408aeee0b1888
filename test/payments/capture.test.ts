/**
 * Promise to sell through the payment provider (docs/decisions.md, "Shopper payments"): when the supplier accepts,
 * the service asks the provider to capture the shopper's authorised payment, once, and the order is paid only on the
 * provider's signed word. What the provider did is read from its own records (its control API), never from ours.
 * A failure or refund after the payment was taken is never ignored: the order needs attention and an event says so.
 */
import { leakScanTest, Sandbox, seen, Service, startSandbox, startService, eventually } from '../support/harness';
import { openShop, placeOrder, Shop } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox, StorePayments } from '../support/payments';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS } from '../events/support';

let sandbox: Sandbox;
let provider: PaymentSandbox;
let svc: Service;
let shop: Shop;
let payments: StorePayments;
let keyGiven: { status: number; text: string };
let receiver: Receiver & { url: string };
let subscribed: { status: number; body: any };

beforeAll(async () => {
  sandbox = await startSandbox();
  provider = await startPaymentSandbox();
  receiver = await Receiver.start();
  svc = await startService({
    label: 'capture',
    sandbox,
    payments: provider,
    privateTargets: true,
    env: { ...FAST_EVENTS, DISPATCH_SWEEP_SECONDS: '1', DISPATCH_SWEEP_STALE_SECONDS: '3' },
  });
  // Sent on the authorisation, and the supplier paid at once: the capture is then due.
  shop = await openShop(svc, sandbox, { page: 4, automation: { level: 'manual', automaticPayment: true } });
  payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key, { apiKey: false });
  keyGiven = await svc.call('PUT', `/api/stores/${shop.storeId}/payment-provider`, {
    key: shop.owner.key,
    body: { provider: 'sandbox', signingSecret: payments.signingSecret, apiKey: payments.apiKey },
  });
  subscribed = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/event-subscriptions`, {
    key: shop.owner.key,
    body: { url: receiver.url, eventTypes: ['storeOrder.paymentChanged'] },
  });
  if (subscribed.status === 201) seen.secrets.add(subscribed.body.result.secret);
});
afterEach(async () => {
  await provider.control('DELETE', '/faults');
  await provider.control('POST', '/deliveries', { held: false });
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
  await provider?.close();
  await receiver?.down();
});

const storeOrder = async (id: string) => (await svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key })).body.result;
const supplierOrderOf = async (orderId: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key })).body.result.items[0];
const captureRows = async (orderId: string) =>
  (await svc.db.query(`SELECT kind, source FROM payment_events WHERE order_id = $1 AND source = 'service' ORDER BY id`, [orderId])).rows;

/** A promise-to-sell order whose shopper's payment the provider authorised (the signed event arrived). */
async function authorisedOrder() {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', contractModel: 'promiseToSell' });
  const { paymentId } = await payments.pay(order.id, 'authorised');
  return { order, paymentId };
}

async function pausedFor(orderId: string) {
  return eventually(
    async () => {
      const so = await supplierOrderOf(orderId);
      return so?.status === 'needsReview' ? so : undefined;
    },
    60000,
    'the supplier order paused',
  );
}

test("the store gives the provider's API key: taken, sealed, and never answered", async () => {
  expect(keyGiven.status).toBe(200);
  expect(keyGiven.text).not.toContain(payments.apiKey);
  const view = await svc.call('GET', `/api/stores/${shop.storeId}/payment-provider`, { key: shop.owner.key });
  expect(view.body.result).toMatchObject({ provider: 'sandbox', configured: true, hasApiKey: true });
  expect(view.text).not.toContain(payments.apiKey);
  const row = (await svc.db.query('SELECT api_key_sealed FROM payment_providers WHERE store_id = $1', [shop.storeId])).rows[0];
  expect(row.api_key_sealed).toMatch(/^v1\./);
  expect(row.api_key_sealed).not.toContain(payments.apiKey);
});

test("the supplier accepts: the provider captures the shopper's payment (its own record), and the order is paid only on its signed event", async () => {
  // The provider's capture events wait at the provider: the service learns of the capture only from its answer.
  await provider.control('POST', '/deliveries', { held: true, types: ['payment.captured'] });
  const { order, paymentId } = await authorisedOrder();
  const [payment] = await eventually(
    async () => {
      const found = await provider.paymentsOf(order.id);
      return found[0]?.captures.length ? found : undefined;
    },
    60000,
    'a capture at the provider',
  );
  expect(payment).toMatchObject({ id: paymentId, status: 'paid', captures: [{ amountMinor: order.totalMinor, idempotencyKey: expect.any(String) }] });
  const so = await eventually(
    async () => {
      const s = await supplierOrderOf(order.id);
      return s?.events.some((e: { type: string }) => e.type === 'captureRequested') ? s : undefined;
    },
    30000,
    'the capture request recorded',
  );
  expect(so).toMatchObject({ status: 'confirmed', payment: { status: 'paid' }, reviewReason: null });
  // Asked and answered, but the provider's signed word has not arrived: not paid yet.
  const asked = await storeOrder(order.id);
  expect(asked.paymentStatus).toBe('authorised');
  expect(asked.payments.map((p: { kind: string; source: string }) => `${p.source} ${p.kind}`)).toEqual(['provider authorised', 'service captureRequested']);

  await provider.control('POST', '/deliveries', { held: false });
  const paid = await eventually(
    async () => {
      const o = await storeOrder(order.id);
      return o.paymentStatus === 'paid' ? o : undefined;
    },
    30000,
    'the signed capture event',
  );
  expect(paid.payments.map((p: { kind: string; source: string }) => `${p.source} ${p.kind}`)).toEqual([
    'provider authorised',
    'service captureRequested',
    'provider captured',
  ]);
  expect(paid.needsAttention).toBe(false);
  // Charged once, whatever else happened.
  const [after] = await provider.paymentsOf(order.id);
  expect(after.captures).toHaveLength(1);
  expect(after.captureRequests.every((r) => r.idempotencyKey === payment.captures[0].idempotencyKey)).toBe(true);
});

test('a capture the provider declines in its answer pauses the supplier order with customerCaptureFailed; the shopper is not charged', async () => {
  await provider.control('POST', '/faults', { refuseCapture: { count: 1, message: 'Insufficient funds on the card', mode: 'answer' } });
  const { order } = await authorisedOrder();
  const so = await pausedFor(order.id);
  expect(so).toMatchObject({ reviewReason: 'customerCaptureFailed', retryable: false, payment: { status: 'paid' } });
  // The provider answers 402 and also sends its signed failure: whichever the service hears first pauses the part,
  // in the provider's words or in its own (a loaded CI run heard the notification first).
  expect(so.reviewMessage).toMatch(/Insufficient funds on the card|The payment provider reported that the shopper's payment failed/);
  const [payment] = await provider.paymentsOf(order.id);
  expect(payment.captures).toEqual([]);
  expect(payment.captureRequests.map((r) => r.status)).toEqual([402]);
  // The provider's signed capture failure moves the payment; the order needs a person.
  const failed = await eventually(
    async () => {
      const o = await storeOrder(order.id);
      return o.paymentStatus === 'failed' ? o : undefined;
    },
    30000,
    'the signed capture failure',
  );
  expect(failed.needsAttention).toBe(true);
  // The request is recorded before the provider is asked, its refusal after.
  expect(await captureRows(order.id)).toEqual([
    { kind: 'captureRequested', source: 'service' },
    { kind: 'captureFailed', source: 'service' },
  ]);
  const listed = await svc.call('GET', `/api/store-orders/${shop.storeId}?needsAttention=true&pageSize=100`, { key: shop.owner.key });
  expect(listed.body.result.items.map((o: { id: string }) => o.id)).toContain(order.id);
});

test('a capture the provider takes and then fails in its signed event pauses the supplier order with customerCaptureFailed', async () => {
  await provider.control('POST', '/faults', { refuseCapture: { count: 1, mode: 'event' } });
  const { order } = await authorisedOrder();
  const so = await pausedFor(order.id);
  expect(so).toMatchObject({ reviewReason: 'customerCaptureFailed', retryable: false });
  expect((await provider.paymentsOf(order.id))[0].captures).toEqual([]);
  expect((await storeOrder(order.id)).paymentStatus).toBe('failed');
});

test('a provider that cannot be reached is asked again with backoff, never recorded as captured meanwhile; then it captures once', async () => {
  await provider.control('POST', '/faults', { unavailable: { count: 2 } });
  await provider.control('POST', '/deliveries', { held: true, types: ['payment.captured'] });
  const { order } = await authorisedOrder();
  const [payment] = await eventually(
    async () => {
      const found = await provider.paymentsOf(order.id);
      return found[0]?.captures.length ? found : undefined;
    },
    90000,
    'the capture once the provider answers',
  );
  const requests = payment.captureRequests;
  expect(requests.map((r) => r.status)).toEqual([503, 503, 200]);
  expect(new Set(requests.map((r) => r.idempotencyKey)).size).toBe(1);
  // Backoff: the service did not hammer a provider that was down.
  expect(Date.parse(requests[1].at) - Date.parse(requests[0].at)).toBeGreaterThanOrEqual(1000);
  await eventually(async () => ((await captureRows(order.id)).length ? true : undefined), 30000, 'the request recorded');
  expect(await captureRows(order.id)).toEqual([{ kind: 'captureRequested', source: 'service' }]);
  expect((await storeOrder(order.id)).paymentStatus).toBe('authorised');
});

test('the provider captured but its answer was lost: asked again with the same key, it answers from its record; charged once', async () => {
  await provider.control('POST', '/faults', { loseAnswer: { count: 1 } });
  // Its capture event waits too, so the service learns nothing until it asks again.
  await provider.control('POST', '/deliveries', { held: true, types: ['payment.captured'] });
  const { order } = await authorisedOrder();
  const [payment] = await eventually(
    async () => {
      const found = await provider.paymentsOf(order.id);
      return found[0]?.captureRequests.length >= 2 ? found : undefined;
    },
    90000,
    'the capture asked again',
  );
  expect(payment.captures).toHaveLength(1);
  expect(payment.captureRequests.map((r) => [r.status, r.replayed])).toEqual([
    [200, false],
    [200, true],
  ]);
  await provider.control('POST', '/deliveries', { held: false });
  const paid = await eventually(
    async () => {
      const o = await storeOrder(order.id);
      return o.paymentStatus === 'paid' ? o : undefined;
    },
    30000,
    'the order paid',
  );
  expect(paid.payments.map((p: { kind: string; source: string }) => `${p.source} ${p.kind}`)).toEqual([
    'provider authorised',
    'service captureRequested',
    'provider captured',
  ]);
  expect((await provider.paymentsOf(order.id))[0].captures).toHaveLength(1);
});

test('a failure the provider reports after the order was paid changes its payment, puts it under needsAttention and sends an event', async () => {
  expect(subscribed.status).toBe(201);
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payments.pay(order.id, 'paid');
  expect((await storeOrder(order.id)).paymentStatus).toBe('paid');
  await payments.pay(order.id, 'failed');
  const after = await storeOrder(order.id);
  expect(after).toMatchObject({ paymentStatus: 'failed', needsAttention: true, paymentAttention: { reason: 'paymentFailedAfterPaid' } });
  const listed = await svc.call('GET', `/api/store-orders/${shop.storeId}?needsAttention=true&pageSize=100`, { key: shop.owner.key });
  expect(listed.body.result.items.find((o: { id: string }) => o.id === order.id)).toMatchObject({ paymentStatus: 'failed', needsAttention: true });
  await receiver.until((r) => r.some((x) => x.json?.data?.orderId === order.id && x.json.data.paymentStatus === 'failed'), 30000, 'the paymentChanged event');
  const events = receiver.received.filter((x) => x.json?.data?.orderId === order.id).map((x) => x.json);
  expect(events.map((e) => [e.type, e.data.paymentStatus, e.data.previousPaymentStatus, e.data.needsAttention])).toEqual([
    ['storeOrder.paymentChanged', 'paid', 'none', false],
    ['storeOrder.paymentChanged', 'failed', 'paid', true],
  ]);
});

test('a refund after the order was paid changes its payment and puts it under needsAttention', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payments.pay(order.id, 'paid');
  await payments.pay(order.id, 'refunded');
  expect(await storeOrder(order.id)).toMatchObject({ paymentStatus: 'refunded', needsAttention: true, paymentAttention: { reason: 'refundedAfterPaid' } });
  await receiver.until((r) => r.some((x) => x.json?.data?.orderId === order.id && x.json.data.paymentStatus === 'refunded'), 30000, 'the refund event');
});

leakScanTest();
