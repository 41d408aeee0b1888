/**
 * Payment events in the provider's order (issue 40; docs/decisions.md, "Payment events in the provider's order"):
 * each event carries the provider's sequence in its signed body (when it happened there, and the payment's version);
 * an event that arrives after a later one was applied is recorded as stale and moves nothing. A payment taken back
 * after the supplier was paid, or a capture refused after the supplier shipped, needs a person (paymentAttention), who
 * acknowledges it with a note. A capture takes the authorisation the order was confirmed on, under one key per payment.
 * Notifications come from the sandbox payment provider (held and released out of order), or are signed by the test
 * exactly as the provider signs them; what the provider charged is read from its own records.
 */
import crypto from 'node:crypto';
import { signedHeaders } from '../../server/sandboxes/payment-provider';
import { eventually, leakScanTest, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox, StorePayments } from '../support/payments';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS } from '../events/support';

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
  svc = await startService({
    label: 'pay-order',
    sandbox,
    payments: provider,
    privateTargets: true,
    env: { ...FAST_EVENTS, DISPATCH_SWEEP_SECONDS: '1', DISPATCH_SWEEP_STALE_SECONDS: '3', SUPPLIER_READBACK_INTERVAL_SECONDS: '4' },
  });
  // Promise to sell: sent on the authorisation, the supplier paid at once, then the capture is due.
  shop = await openShop(svc, sandbox, { page: 5, automation: { level: 'manual', automaticPayment: true } });
  payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
  const subscribed = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/event-subscriptions`, {
    key: shop.owner.key,
    body: { url: receiver.url, eventTypes: ['storeOrder.paymentChanged'] },
  });
  if (subscribed.status !== 201) throw new Error(subscribed.text);
  seen.secrets.add(subscribed.body.result.secret);
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
const supplierOrdersOf = async (orderId: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key })).body.result.items;
const providerRows = async (orderId: string) =>
  (await svc.db.query(`SELECT kind, reference, applied, stale FROM payment_events WHERE order_id = $1 AND source = 'provider' ORDER BY id`, [orderId])).rows;
const v1 = (method: string, path: string, body?: unknown) => provider.v1(payments.apiKey, method, path, body);
const paymentChanges = (orderId: string) => receiver.received.filter((x) => x.json?.data?.orderId === orderId).map((x) => x.json.data);

/** A notification signed with the store's secret exactly as the provider signs it, with the provider's sequence in its body. */
function signed(order: { id: string; totalMinor: number; currency: string }, type: string, seq: { at: Date; paymentId: string; version?: number }) {
  const eventId = `evt_${crypto.randomBytes(8).toString('hex')}`;
  const data = {
    orderId: order.id,
    paymentId: seq.paymentId,
    amountMinor: order.totalMinor,
    currency: order.currency,
    ...(seq.version ? { version: seq.version } : {}),
  };
  const rawBody = JSON.stringify({ type, timestamp: seq.at.toISOString(), data });
  return svc.call('POST', `/api/payment-notifications/${shop.storeId}`, {
    rawBody,
    headers: { 'Content-Type': 'application/json', ...signedHeaders(payments.signingSecret, eventId, rawBody) },
  });
}

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

/** A promise-to-sell order whose payment the provider authorised; its capture is then asked once the supplier is paid. */
async function authorisedPromise() {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', contractModel: 'promiseToSell' });
  const { paymentId } = await payments.pay(order.id, 'authorised');
  return { order, paymentId };
}

test('a capture held at the provider and delivered after its later failure is recorded as stale: the failed payment never turns back into paid', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const { paymentId } = await payments.pay(order.id, 'authorised');
  await provider.control('POST', '/deliveries', { held: true, types: ['payment.captured'] });
  const captured = await v1('POST', `/payments/${paymentId}/capture`);
  expect(captured.status).toBe(200);
  // The provider reverses the capture; its failure reaches the store first.
  const failed = await v1('POST', `/payments/${paymentId}/fail`);
  await provider.delivered(payments.apiKey, failed.body.eventId);
  expect((await storeOrder(order.id)).paymentStatus).toBe('failed');
  await provider.control('POST', '/deliveries', { held: false });
  await provider.delivered(payments.apiKey, captured.body.eventId);
  const after = await storeOrder(order.id);
  expect(after).toMatchObject({ paymentStatus: 'failed', status: 'pending' });
  expect(after.payments.map((p: { kind: string; stale?: boolean }) => [p.kind, p.stale ?? false])).toEqual([
    ['authorised', false],
    ['failed', false],
    ['captured', true],
  ]);
  expect(await providerRows(order.id)).toEqual([
    { kind: 'authorised', reference: paymentId, applied: true, stale: false },
    { kind: 'failed', reference: paymentId, applied: true, stale: false },
    { kind: 'captured', reference: paymentId, applied: false, stale: true },
  ]);
});

test("events signed like the provider's and delivered in reverse order: the later one stands within one payment, by version", async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const t0 = Date.now() - 60_000;
  expect((await signed(order, 'payment.authorised', { at: new Date(t0), paymentId: 'pay_one', version: 1 })).status).toBe(200);
  expect((await signed(order, 'payment.failed', { at: new Date(t0 + 2000), paymentId: 'pay_one', version: 3 })).status).toBe(200);
  // Earlier at the provider, delivered later: a paid that would undo the failure.
  expect((await signed(order, 'payment.captured', { at: new Date(t0 + 1000), paymentId: 'pay_one', version: 2 })).status).toBe(200);
  expect(await storeOrder(order.id)).toMatchObject({ paymentStatus: 'failed', status: 'pending' });
  // Another payment's events have their own sequence (issue 53): paid on its own, it pays the order, whatever its time.
  expect((await signed(order, 'payment.paid', { at: new Date(t0 + 1500), paymentId: 'pay_two' })).status).toBe(200);
  expect(await storeOrder(order.id)).toMatchObject({ paymentStatus: 'paid', status: 'confirmed' });
  // The same instant: the payment's version decides.
  const same = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const at = new Date(Date.now() - 30_000);
  expect((await signed(same, 'payment.authorised', { at, paymentId: 'pay_three', version: 1 })).status).toBe(200);
  expect((await signed(same, 'payment.failed', { at, paymentId: 'pay_three', version: 3 })).status).toBe(200);
  expect((await signed(same, 'payment.captured', { at, paymentId: 'pay_three', version: 2 })).status).toBe(200);
  expect((await storeOrder(same.id)).paymentStatus).toBe('failed');
  expect((await providerRows(same.id)).map((r: { kind: string; stale: boolean }) => [r.kind, r.stale])).toEqual([
    ['authorised', false],
    ['failed', false],
    ['captured', true],
  ]);
  // A body without the provider's time is not one of its events.
  const rawBody = JSON.stringify({
    type: 'payment.paid',
    data: { orderId: same.id, paymentId: 'pay_three', amountMinor: same.totalMinor, currency: same.currency },
  });
  const untimed = await svc.call('POST', `/api/payment-notifications/${shop.storeId}`, {
    rawBody,
    headers: { 'Content-Type': 'application/json', ...signedHeaders(payments.signingSecret, 'evt_untimed', rawBody) },
  });
  expect([untimed.status, untimed.body.error.code]).toEqual([400, 'notificationRefused']);
});

test.each(['refund', 'fail'] as const)(
  'promise to sell: the provider takes the payment back (%s) once the supplier was paid on its authorisation: paymentAttention, an event, the supplier order paused',
  async (action) => {
    await provider.control('POST', '/deliveries', { held: true, types: ['payment.captured'] });
    const { order, paymentId } = await authorisedPromise();
    // The supplier was paid and the capture asked: the provider charged, its signed word still on the way.
    await until(
      () => provider.paymentsOf(order.id),
      (p) => p[0]?.captures.length === 1,
      'the capture at the provider',
    );
    await until(
      () => storeOrder(order.id),
      (o) => o.payments.some((p: { kind: string }) => p.kind === 'captureRequested'),
      'the capture request recorded',
    );
    const taken = await v1('POST', `/payments/${paymentId}/${action}`);
    expect(taken.status).toBe(200);
    await provider.delivered(payments.apiKey, taken.body.eventId);
    const reason = action === 'refund' ? 'refundedAfterSupplierPaid' : 'paymentFailedAfterSupplierPaid';
    const after = await storeOrder(order.id);
    expect(after).toMatchObject({
      paymentStatus: action === 'refund' ? 'refunded' : 'failed',
      needsAttention: true,
      paymentAttention: { reason, since: expect.any(String) },
    });
    const [so] = await until(
      () => supplierOrdersOf(order.id),
      (s) => s[0]?.status === 'needsReview',
      'the supplier order paused',
    );
    expect(so.reviewReason).toBe('customerCaptureFailed');
    await receiver.until(() => paymentChanges(order.id).some((d) => d.paymentAttention?.reason === reason), 30000, 'the paymentChanged event');
    // The capture the provider made before arrives last: stale, it changes nothing.
    await provider.control('POST', '/deliveries', { held: false });
    const capturedEvent = (await provider.control('GET', `/payments?orderId=${order.id}`)).items[0];
    expect(capturedEvent.captures).toHaveLength(1);
    await until(
      () => providerRows(order.id),
      (r) => r.some((x: { kind: string }) => x.kind === 'captured'),
      'the held capture delivered',
      30000,
    );
    expect(await storeOrder(order.id)).toMatchObject({ paymentStatus: action === 'refund' ? 'refunded' : 'failed', paymentAttention: { reason } });
  },
);

test('a capture refused after the supplier shipped raises paymentAttention (the goods are gone), not only a pause', async () => {
  await provider.control('POST', '/faults', { unavailable: { count: 1000 } });
  await provider.control('POST', '/deliveries', { held: true, types: ['payment.captureFailed'] });
  const { order } = await authorisedPromise();
  const [so] = await until(
    () => supplierOrdersOf(order.id),
    (s) => !!s[0]?.supplierOrderId && s[0].payment?.status === 'paid',
    'the supplier paid',
    90000,
  );
  await until(
    () => provider.paymentsOf(order.id),
    (p) => p[0]?.captureRequests.some((r) => r.status === 503),
    'a capture asked while the provider is away',
  );
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'SandboxPost', trackingNumber: 'SBX-GONE' });
  // Read back by the safety net (a short interval here): the capture keeps being asked meanwhile.
  await until(
    () => storeOrder(order.id),
    (o) => o.fulfilmentGroups[0].status === 'shipped',
    'the part shipped',
    90000,
  );
  await provider.control('POST', '/faults', { unavailable: { count: 0 }, refuseCapture: { count: 1, message: 'The card expired', mode: 'answer' } });
  const after = await until(
    () => storeOrder(order.id),
    (o) => o.paymentAttention !== null,
    'paymentAttention',
    120000,
  );
  expect(after).toMatchObject({ paymentStatus: 'authorised', needsAttention: true, paymentAttention: { reason: 'captureRefusedAfterShipped' } });
  expect((await provider.paymentsOf(order.id))[0].captures).toEqual([]);
  await receiver.until(
    () => paymentChanges(order.id).some((d) => d.paymentAttention?.reason === 'captureRefusedAfterShipped'),
    30000,
    'the paymentChanged event',
  );
});

test('a shopper disputes the charge after it was paid: the status stays paid, the order needs a person, an event says so; an earlier dispute delivered late is stale', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const { paymentId } = await payments.pay(order.id, 'paid');
  const disputed = await v1('POST', `/payments/${paymentId}/dispute`);
  expect(disputed.status).toBe(200);
  await provider.delivered(payments.apiKey, disputed.body.eventId);
  expect(await storeOrder(order.id)).toMatchObject({ paymentStatus: 'paid', needsAttention: true, paymentAttention: { reason: 'paymentDisputed' } });
  await receiver.until(
    () => paymentChanges(order.id).some((d) => d.reportedAs === 'disputed' && d.paymentAttention?.reason === 'paymentDisputed'),
    30000,
    'the paymentChanged event',
  );
  // A dispute the provider saw before the payment was paid, delivered now: kept, changes nothing.
  const other = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const at = Date.now() - 60_000;
  expect((await signed(other, 'payment.paid', { at: new Date(at + 1000), paymentId: 'pay_late', version: 2 })).status).toBe(200);
  expect((await signed(other, 'payment.refunded', { at: new Date(at + 3000), paymentId: 'pay_late', version: 4 })).status).toBe(200);
  await svc.call('POST', `/api/store-orders/${shop.storeId}/${other.id}/payment-attention/acknowledge`, {
    key: shop.owner.key,
    body: { reason: 'refundedAfterPaid', note: 'refund seen' },
  });
  expect((await signed(other, 'payment.disputed', { at: new Date(at + 2000), paymentId: 'pay_late', version: 3 })).status).toBe(200);
  expect(await storeOrder(other.id)).toMatchObject({ paymentStatus: 'refunded', paymentAttention: null, needsAttention: false });
  expect((await providerRows(other.id)).map((r: { kind: string; stale: boolean }) => [r.kind, r.stale])).toEqual([
    ['paid', false],
    ['refunded', false],
    ['disputed', true],
  ]);
});

test("a person acknowledges the payment's attention with a note: it clears, the note and who stay in the history; nothing to acknowledge is 409", async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const ack = (body: unknown) => svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/payment-attention/acknowledge`, { key: shop.owner.key, body });
  const none = await ack({ reason: 'refundedAfterPaid', note: 'nothing yet' });
  expect([none.status, none.body.error?.code]).toEqual([409, 'noPaymentAttention']);
  await payments.pay(order.id, 'paid');
  await payments.pay(order.id, 'refunded');
  expect((await storeOrder(order.id)).paymentAttention).toMatchObject({ reason: 'refundedAfterPaid' });
  for (const body of [
    {},
    { note: 'no reason' },
    { reason: 'refundedAfterPaid', note: '' },
    { reason: 'refundedAfterPaid', note: '   ' },
    { reason: 'refundedAfterPaid', note: 'x'.repeat(1001) },
  ]) {
    const bad = await ack(body);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'validationFailed']);
  }
  expect((await storeOrder(order.id)).paymentAttention).not.toBeNull();
  const done = await ack({ reason: 'refundedAfterPaid', note: 'Refund confirmed with the shopper; supplier order cancelled by hand.' });
  expect(done.status).toBe(200);
  expect(done.body.result).toMatchObject({ paymentStatus: 'refunded', paymentAttention: null, needsAttention: false });
  expect(done.body.result.payments.at(-1)).toEqual({
    kind: 'attentionAcknowledged',
    source: 'manual',
    amountMinor: null,
    reference: null,
    actor: expect.objectContaining({ kind: expect.any(String) }),
    at: expect.any(String),
    note: 'Refund confirmed with the shopper; supplier order cancelled by hand.',
    attentionReason: 'refundedAfterPaid',
  });
  const listed = await svc.call('GET', `/api/store-orders/${shop.storeId}?needsAttention=true&pageSize=100`, { key: shop.owner.key });
  expect(listed.body.result.items.map((o: { id: string }) => o.id)).not.toContain(order.id);
  const twice = await ack({ reason: 'refundedAfterPaid', note: 'again' });
  expect([twice.status, twice.body.error.code]).toEqual([409, 'noPaymentAttention']);
});

test('two authorisations of one order and two parts: both captures take the authorisation the order was confirmed on, under its key; the provider charges once', async () => {
  // A second part: a test-mode connection of the same supplier that never sends by itself (sent by hand below). Last
  // in this file: the supplier account's notifications go to the newest connection from now on.
  const conn = await svc.call('POST', `/api/store-suppliers/${shop.storeId}`, {
    key: shop.owner.key,
    body: { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: shop.account.testKey } },
  });
  expect(conn.status).toBe(201);
  const conn2 = conn.body.result.id;
  expect((await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${conn2}/automation`, { key: shop.owner.key, body: { level: 'off' } })).status).toBe(200);
  const [product] = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=50&page=7')).body.items.filter(
    (p: any) => p.shipsTo.includes('US') && p.variants[0].available && p.variants[0].stock >= 50,
  );
  const imported = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/${conn2}/import`, {
    key: shop.owner.key,
    body: { products: [{ supplierProductId: product.id, variantIds: [product.variants[0].id] }] },
  });
  expect(imported.status).toBe(201);
  const second = imported.body.result.products[0];
  const order = await placeOrder(svc, shop, {
    paymentMethod: 'online',
    contractModel: 'promiseToSell',
    ownItem: { productId: second.id, variantId: second.variants[0].id },
  });
  expect(order.fulfilmentGroups.map((g: { groupKey: string }) => g.groupKey).sort()).toEqual([`supplier:${conn2}`, `supplier:${shop.connId}`].sort());
  // The captures' signed events wait at the provider: the order stays authorised while both parts are captured.
  await provider.control('POST', '/deliveries', { held: true, types: ['payment.captured'] });
  const first = await v1('POST', '/payments', { orderId: order.id, amountMinor: order.totalMinor, currency: order.currency, capture: false });
  await provider.delivered(payments.apiKey, first.body.eventId);
  await until(
    () => provider.paymentsOf(order.id),
    (p) => p.find((x) => x.id === first.body.id)?.captures.length === 1,
    "the first part's capture",
  );
  // The shopper authorises again (a second tab): the order is already authorised on the first.
  const again = await v1('POST', '/payments', { orderId: order.id, amountMinor: order.totalMinor, currency: order.currency, capture: false });
  await provider.delivered(payments.apiKey, again.body.eventId);
  const sent = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${order.id}/groups/${encodeURIComponent(`supplier:${conn2}`)}/submit`, {
    key: shop.owner.key,
    body: { payNow: true },
  });
  expect([200, 202]).toContain(sent.status);
  const records = await until(
    () => provider.paymentsOf(order.id),
    (p) => p.reduce((n, x) => n + x.captureRequests.length, 0) >= 2,
    "the second part's capture request",
    90000,
  );
  const byId = new Map(records.map((p) => [p.id, p]));
  expect(byId.get(first.body.id)!.captures).toHaveLength(1);
  expect(byId.get(again.body.id)).toMatchObject({ status: 'authorised', captures: [], captureRequests: [] });
  expect(records.flatMap((p) => p.captureRequests.map((r) => r.idempotencyKey))).toEqual([`capture:${first.body.id}`, `capture:${first.body.id}`]);
  expect(records.reduce((n, p) => n + p.captures.length, 0)).toBe(1);
});

leakScanTest();
