/**
 * Payments as records of their own (issue 53, item 1; docs/decisions.md, "Payments as records (issue 53)"), over real
 * HTTP against the sandbox payment provider (or notifications signed exactly as it signs them): each event applies
 * to its own payment by reference and version, the order's status is derived from its payments by one rule, a
 * dispute never makes a refund stale, a second authorisation is captured under its own key, an acknowledgement names
 * the reason it clears, and the capture request is in the history before the provider's word.
 */
import crypto from 'node:crypto';
import { signedHeaders } from '../../server/sandboxes/payment-provider';
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop, soAction } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox, StorePayments } from '../support/payments';
import { FAST_EVENTS } from '../events/support';

let sandbox: Sandbox;
let provider: PaymentSandbox;
let svc: Service;
let shop: Shop;
let payments: StorePayments;

beforeAll(async () => {
  sandbox = await startSandbox();
  provider = await startPaymentSandbox();
  svc = await startService({
    label: 'pay-records',
    sandbox,
    payments: provider,
    privateTargets: true,
    env: { ...FAST_EVENTS, DISPATCH_SWEEP_SECONDS: '1', DISPATCH_SWEEP_STALE_SECONDS: '3' },
  });
  shop = await openShop(svc, sandbox, { page: 6, automation: { level: 'manual', automaticPayment: true } });
  payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
});
afterEach(async () => {
  await provider.control('DELETE', '/faults');
  await provider.control('POST', '/deliveries', { held: false });
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
  await provider?.close();
});

const storeOrder = async (id: string) => (await svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key })).body.result;
const supplierOrderOf = async (orderId: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key })).body.result.items[0];
const v1 = (method: string, path: string, body?: unknown) => provider.v1(payments.apiKey, method, path, body);
const ack = (orderId: string, body: unknown) =>
  svc.call('POST', `/api/store-orders/${shop.storeId}/${orderId}/payment-attention/acknowledge`, { key: shop.owner.key, body });

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 60000): Promise<T> {
  return eventually(
    async () => {
      const v = await read();
      return ok(v) ? v : undefined;
    },
    ms,
    what,
  );
}

/** A notification signed with the store's secret exactly as the provider signs it. */
function signed(order: { id: string; totalMinor: number; currency: string }, type: string, seq: { at: Date; paymentId: string; version: number }) {
  const eventId = `evt_${crypto.randomBytes(8).toString('hex')}`;
  const rawBody = JSON.stringify({
    type,
    timestamp: seq.at.toISOString(),
    data: { orderId: order.id, paymentId: seq.paymentId, amountMinor: order.totalMinor, currency: order.currency, version: seq.version },
  });
  return svc.call('POST', `/api/payment-notifications/${shop.storeId}`, {
    rawBody,
    headers: { 'Content-Type': 'application/json', ...signedHeaders(payments.signingSecret, eventId, rawBody) },
  });
}

/** A new payment of the order at the provider (paid, authorised or declined), once the service accepted its event. */
async function newPayment(order: { id: string; totalMinor: number; currency: string }, how: { capture?: boolean; decline?: boolean }) {
  const res = await v1('POST', '/payments', {
    orderId: order.id,
    amountMinor: order.totalMinor,
    currency: order.currency,
    capture: how.capture ?? true,
    decline: how.decline ?? false,
  });
  expect(res.status).toBe(201);
  await provider.delivered(payments.apiKey, res.body.eventId);
  return res.body.id as string;
}

test('attack 1: a declined second attempt and a refunded duplicate charge leave the order paid on its first payment', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const p1 = await newPayment(order, {});
  expect((await storeOrder(order.id)).paymentStatus).toBe('paid');
  // The shopper tries again in a second tab: declined at the provider.
  const p2 = await newPayment(order, { decline: true });
  // And a duplicate charge, refunded by the merchant at the provider.
  const p3 = await newPayment(order, {});
  const refunded = await v1('POST', `/payments/${p3}/refund`);
  expect(refunded.status).toBe(200);
  await provider.delivered(payments.apiKey, refunded.body.eventId);
  const after = await storeOrder(order.id);
  expect(after).toMatchObject({ paymentStatus: 'paid', paymentAttention: null, needsAttention: false, amountRefundedMinor: 0 });
  expect(after.providerPayments.map((p: any) => [p.reference, p.status, p.refundedMinor])).toEqual([
    [p1, 'paid', 0],
    [p2, 'failed', 0],
    [p3, 'refunded', order.totalMinor],
  ]);
});

test('attack 2: a refund the provider made before a dispute, delivered after it, is applied: the order is refunded', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const at = Date.now() - 60_000;
  expect((await signed(order, 'payment.paid', { at: new Date(at), paymentId: 'pay_disputed', version: 2 })).status).toBe(200);
  expect((await signed(order, 'payment.disputed', { at: new Date(at + 2000), paymentId: 'pay_disputed', version: 4 })).status).toBe(200);
  expect((await signed(order, 'payment.refunded', { at: new Date(at + 1000), paymentId: 'pay_disputed', version: 3 })).status).toBe(200);
  const after = await storeOrder(order.id);
  expect(after).toMatchObject({ paymentStatus: 'refunded', amountRefundedMinor: order.totalMinor });
  expect(after.payments.filter((e: any) => e.source === 'provider').map((e: any) => [e.kind, e.stale ?? false])).toEqual([
    ['paid', false],
    ['disputed', false],
    ['refunded', false],
  ]);
});

test("attack 4: after the first authorisation's capture was declined, a second authorisation is captured under its own key", async () => {
  await provider.control('POST', '/faults', { refuseCapture: { count: 1, message: 'The card was declined', mode: 'answer' } });
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', contractModel: 'promiseToSell' });
  const p1 = await newPayment(order, { capture: false });
  const paused = await until(
    () => supplierOrderOf(order.id),
    (so) => so?.status === 'needsReview',
    'the part paused on the declined capture',
    90000,
  );
  expect(paused.reviewReason).toBe('customerCaptureFailed');
  await until(
    () => storeOrder(order.id),
    (o) => o.paymentStatus === 'failed',
    'the signed capture failure',
  );
  // The shopper authorises again; a person retries the part.
  const p2 = await newPayment(order, { capture: false });
  expect((await storeOrder(order.id)).paymentStatus).toBe('authorised');
  expect((await soAction(svc, shop, paused._id, 'retry')).status).toBeLessThan(300);
  const records = await until(
    () => provider.paymentsOf(order.id),
    (ps) => ps.some((p) => p.id === p2 && p.captures.length === 1),
    'the second authorisation captured',
    90000,
  );
  const byId = new Map(records.map((p) => [p.id, p]));
  expect(byId.get(p1)!.captures).toEqual([]);
  expect(byId.get(p2)!.captures.map((c) => c.idempotencyKey)).toEqual([`capture:${p2}`]);
  await until(
    () => storeOrder(order.id),
    (o) => o.paymentStatus === 'paid',
    'the order paid on the second payment',
  );
});

test('attack 5: an acknowledgement names the reason it clears; a reason that arrived meanwhile answers 409 attentionChanged and stays', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const p1 = await newPayment(order, {});
  const disputed = await v1('POST', `/payments/${p1}/dispute`);
  await provider.delivered(payments.apiKey, disputed.body.eventId);
  expect((await storeOrder(order.id)).paymentAttention).toMatchObject({ reason: 'paymentDisputed' });
  // A person reads the dispute; meanwhile the provider refunds the payment.
  const refunded = await v1('POST', `/payments/${p1}/refund`);
  await provider.delivered(payments.apiKey, refunded.body.eventId);
  const stale = await ack(order.id, { reason: 'paymentDisputed', note: 'Dispute answered with the tracking number' });
  expect([stale.status, stale.body.error?.code]).toEqual([409, 'attentionChanged']);
  expect((await storeOrder(order.id)).paymentAttention).toMatchObject({ reason: 'refundedAfterPaid' });
  const missing = await ack(order.id, { note: 'no reason named' });
  expect([missing.status, missing.body.error?.code]).toEqual([400, 'validationFailed']);
  const done = await ack(order.id, { reason: 'refundedAfterPaid', note: 'Refund seen; nothing left to send' });
  expect(done.status).toBe(200);
  expect(done.body.result).toMatchObject({ paymentAttention: null, paymentStatus: 'refunded' });
  expect(done.body.result.payments.at(-1)).toMatchObject({ kind: 'attentionAcknowledged', attentionReason: 'refundedAfterPaid' });
});

test("the capture request is in the history before the provider's word, even when its answer is lost", async () => {
  await provider.control('POST', '/faults', { loseAnswer: { count: 1 } });
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', contractModel: 'promiseToSell' });
  await newPayment(order, { capture: false });
  const after = await until(
    () => storeOrder(order.id),
    (o) => o.paymentStatus === 'paid',
    "the capture's signed event",
    90000,
  );
  const kinds = after.payments.map((e: any) => e.kind);
  expect(kinds.indexOf('captureRequested')).toBeGreaterThanOrEqual(0);
  expect(kinds.indexOf('captureRequested')).toBeLessThan(kinds.indexOf('captured'));
});

leakScanTest();
