/**
 * The payment provider's notification address (docs/decisions.md, "Shopper payments"): only signed events from the
 * store's own provider move an order's payment status; every refusal is one answer; a repeated event is recorded
 * once; an error while deciding is 503 and the provider sends again.
 */
import crypto from 'node:crypto';
import { signedHeaders } from '../../server/sandboxes/payment-provider';
import { leakScanTest, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox, StorePayments } from '../support/payments';

let sandbox: Sandbox;
let provider: PaymentSandbox;
let svc: Service;
let shop: Shop;
let payments: StorePayments;

beforeAll(async () => {
  sandbox = await startSandbox();
  // Retries a second apart and more: the 503 test below mends the service between two attempts.
  provider = await startPaymentSandbox({ retryDelaysMs: [1000, 2000, 4000, 8000] });
  svc = await startService({ label: 'payment-notes', sandbox });
  shop = await openShop(svc, sandbox, { page: 2 });
  payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
  await provider.close();
});

const getOrder = (id: string) => svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const eventRows = async (orderId: string) =>
  (await svc.db.query('SELECT kind, source, provider_event_id FROM payment_events WHERE order_id = $1 ORDER BY id', [orderId])).rows;

/** A notification as the provider would send it, signed with `secret` (the store's unless said). */
function notification(
  order: { id: string; totalMinor: number; currency: string },
  opts: { type?: string; secret?: string; id?: string; at?: number; amountMinor?: number; body?: string; paymentId?: string } = {},
) {
  const eventId = opts.id ?? `evt_${crypto.randomBytes(8).toString('hex')}`;
  const body =
    opts.body ??
    JSON.stringify({
      type: opts.type ?? 'payment.paid',
      timestamp: new Date().toISOString(),
      data: { orderId: order.id, paymentId: opts.paymentId ?? 'pay_test', amountMinor: opts.amountMinor ?? order.totalMinor, currency: order.currency },
    });
  return {
    eventId,
    rawBody: body,
    headers: { 'Content-Type': 'application/json', ...signedHeaders(opts.secret ?? payments.signingSecret, eventId, body, opts.at) },
  };
}
const send = (storeId: string, n: { rawBody: string; headers: Record<string, string> }) =>
  svc.call('POST', `/api/payment-notifications/${storeId}`, { rawBody: n.rawBody, headers: n.headers });

test("the store's provider settings: the address to enter at the provider, a secret that is checked and never answered", async () => {
  const view = await svc.call('GET', `/api/stores/${shop.storeId}/payment-provider`, { key: shop.owner.key });
  expect(view.body.result).toEqual({
    provider: 'sandbox',
    notificationUrl: `${svc.baseUrl}/api/payment-notifications/${shop.storeId}`,
    configured: true,
    checkoutUrl: `${provider.baseUrl}/checkout?merchant=${payments.merchantId}`,
    hasApiKey: true,
    updatedAt: expect.any(String),
  });
  expect(view.text).not.toContain(payments.signingSecret);
  expect(view.text).not.toContain(payments.apiKey);
  const bad = await svc.call('PUT', `/api/stores/${shop.storeId}/payment-provider`, {
    key: shop.owner.key,
    body: { provider: 'sandbox', signingSecret: 'not-a-secret' },
  });
  expect([bad.status, bad.body.error.code, bad.body.error.details[0].field]).toEqual([400, 'validationFailed', 'body/signingSecret']);
  // The console opens the checkout address: only an http(s) address is taken.
  const script = await svc.call('PUT', `/api/stores/${shop.storeId}/payment-provider`, {
    key: shop.owner.key,
    body: { provider: 'sandbox', signingSecret: payments.signingSecret, checkoutUrl: 'javascript:alert(1)' },
  });
  expect([script.status, script.body.error.code, script.body.error.details[0].field]).toEqual([400, 'validationFailed', 'body/checkoutUrl']);
  // The stored secret is sealed, not kept as text.
  const row = (await svc.db.query('SELECT signing_secret_sealed FROM payment_providers WHERE store_id = $1', [shop.storeId])).rows[0];
  expect(row.signing_secret_sealed).toMatch(/^v1\./);
  expect(row.signing_secret_sealed).not.toContain(payments.signingSecret.slice(6));
});

test("a shopper pays at the provider: the signed event marks the order paid, confirms it, and shows in its history as the provider's", async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  expect(order).toMatchObject({ paymentStatus: 'none', status: 'pending', markedPaidAt: null });
  const { eventId, paymentId } = await payments.pay(order.id, 'paid');
  const paid = await getOrder(order.id);
  expect(paid).toMatchObject({ paymentStatus: 'paid', status: 'confirmed', markedPaidAt: null });
  // The sandbox provider reports its fee (2.9% + 30 minor units) with the charge; it is kept with the event.
  const fee = { amountMinor: Math.floor((order.totalMinor * 29 + 500) / 1000) + 30, currency: order.currency };
  expect(paid.payments).toEqual([
    { kind: 'paid', source: 'provider', amountMinor: order.totalMinor, reference: paymentId, actor: null, at: expect.any(String), fee },
  ]);
  expect(await eventRows(order.id)).toEqual([{ kind: 'paid', source: 'provider', provider_event_id: eventId }]);
});

test('every refusal answers the same 400 body, and moves nothing', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const other = await openShop(svc, sandbox, { page: 3 });
  const othersOrder = await placeOrder(svc, other, { paymentMethod: 'online' });
  const good = notification(order);
  const tampered = { ...good, rawBody: good.rawBody.replace(String(order.totalMinor), String(order.totalMinor + 1)) };
  const wrongSecret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
  seen.secrets.add(wrongSecret);
  const refusals: Record<string, Promise<{ status: number; text: string }>> = {
    'no signature': svc.call('POST', `/api/payment-notifications/${shop.storeId}`, { rawBody: good.rawBody, headers: { 'Content-Type': 'application/json' } }),
    'signed with another secret': send(shop.storeId, notification(order, { secret: wrongSecret })),
    'body changed after signing': send(shop.storeId, tampered),
    'timestamp six minutes old': send(shop.storeId, notification(order, { at: Math.floor(Date.now() / 1000) - 360 })),
    'timestamp six minutes ahead': send(shop.storeId, notification(order, { at: Math.floor(Date.now() / 1000) + 360 })),
    "another store's order": send(shop.storeId, notification(othersOrder)),
    'an order that does not exist': send(shop.storeId, notification({ ...order, id: crypto.randomUUID() })),
    "an amount that is not the order's": send(shop.storeId, notification(order, { amountMinor: 1 })),
    'an event type it does not know': send(shop.storeId, notification(order, { type: 'payment.teleported' })),
    'a body that is not JSON': send(shop.storeId, notification(order, { body: 'paid=yes' })),
    'a store with no provider': send(other.storeId, notification(othersOrder)),
    'a store id that is not one': send('not-a-store', notification(order)),
    'a path under the address that matches nothing': svc.call('POST', `/api/payment-notifications/${shop.storeId}/extra`, {
      rawBody: good.rawBody,
      headers: good.headers,
    }),
    'an oversized body': send(shop.storeId, notification(order, { body: JSON.stringify({ pad: 'x'.repeat(300_000) }) })),
  };
  const answers = Object.fromEntries(await Promise.all(Object.entries(refusals).map(async ([why, p]) => [why, await p] as const)));
  const reference = answers['no signature'].text;
  expect(JSON.parse(reference)).toEqual({ error: { code: 'notificationRefused', message: 'The notification was not accepted.' } });
  for (const [why, res] of Object.entries(answers)) expect([why, res.status, res.text]).toEqual([why, 400, reference]);
  expect(await getOrder(order.id)).toMatchObject({ paymentStatus: 'none', status: 'pending', payments: [] });
  expect(await eventRows(othersOrder.id)).toEqual([]);
  // The untouched original is still good: what was refused above was the change, not the event.
  expect((await send(shop.storeId, good)).status).toBe(200);
  expect((await getOrder(order.id)).paymentStatus).toBe('paid');
});

test("an event sent again (the provider's retry, or a replay inside the tolerance) is acknowledged and recorded once", async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const { eventId } = await payments.pay(order.id, 'authorised');
  const resend = await provider.v1(payments.apiKey, 'POST', `/events/${eventId}/resend`);
  expect(resend.status).toBe(202);
  const log = await provider.delivered(payments.apiKey, eventId);
  await expectEventually(async () => (await provider.v1(payments.apiKey, 'GET', `/events/${eventId}`)).body.attempts.length === 2);
  expect(log.attempts.every((a) => a.status === 200)).toBe(true);
  const replay = notification(order, { type: 'payment.authorised', id: eventId });
  expect((await send(shop.storeId, replay)).status).toBe(200);
  expect((await send(shop.storeId, replay)).status).toBe(200);
  expect(await eventRows(order.id)).toEqual([{ kind: 'authorised', source: 'provider', provider_event_id: eventId }]);
  expect((await getOrder(order.id)).paymentStatus).toBe('authorised');
});

async function expectEventually(check: () => Promise<boolean>) {
  const deadline = Date.now() + 20000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in 20 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('events out of order never move a payment back: an authorisation after the capture changes nothing, a refund is final', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payments.pay(order.id, 'paid');
  expect((await send(shop.storeId, notification(order, { type: 'payment.authorised' }))).status).toBe(200);
  expect((await send(shop.storeId, notification(order, { type: 'payment.captured' }))).status).toBe(200);
  expect(await getOrder(order.id)).toMatchObject({ paymentStatus: 'paid', needsAttention: false, paymentAttention: null });
  await payments.pay(order.id, 'refunded');
  expect((await send(shop.storeId, notification(order, { type: 'payment.paid' }))).status).toBe(200);
  expect((await send(shop.storeId, notification(order, { type: 'payment.failed' }))).status).toBe(200);
  const after = await getOrder(order.id);
  expect(after.paymentStatus).toBe('refunded');
  // Every event is in the history, as the provider sent them.
  expect(after.payments.map((p: { kind: string }) => p.kind)).toEqual(['paid', 'authorised', 'captured', 'refunded', 'paid', 'failed']);
});

test('a failure the provider reports after the payment was paid is not ignored: the payment fails and the order needs attention', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  // The failure of the payment the order was paid on (another payment's would not move it: issue 53).
  const { paymentId } = await payments.pay(order.id, 'paid');
  expect((await send(shop.storeId, notification(order, { type: 'payment.failed', paymentId }))).status).toBe(200);
  expect(await getOrder(order.id)).toMatchObject({
    paymentStatus: 'failed',
    needsAttention: true,
    paymentAttention: { reason: 'paymentFailedAfterPaid', since: expect.any(String) },
  });
});

test('a new secret takes over at once: events signed with the old one are refused', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const old = payments.signingSecret;
  const rotated = (await provider.v1(payments.apiKey, 'PUT', '/notification-address', { url: `${svc.baseUrl}/api/payment-notifications/${shop.storeId}` })).body
    .signingSecret;
  seen.secrets.add(rotated);
  expect(
    (await svc.call('PUT', `/api/stores/${shop.storeId}/payment-provider`, { key: shop.owner.key, body: { provider: 'sandbox', signingSecret: rotated } }))
      .status,
  ).toBe(200);
  expect((await send(shop.storeId, notification(order, { secret: old }))).status).toBe(400);
  expect((await send(shop.storeId, notification(order, { secret: rotated }))).status).toBe(200);
  payments.signingSecret = rotated;
});

test("when the service cannot decide it answers 503, and the provider's next attempt is accepted", async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const sealed = (await svc.db.query('SELECT signing_secret_sealed FROM payment_providers WHERE store_id = $1', [shop.storeId])).rows[0].signing_secret_sealed;
  // A secret the service cannot unseal: it cannot tell a good event from a bad one.
  await svc.db.query(`UPDATE payment_providers SET signing_secret_sealed = 'v1.broken.broken.broken' WHERE store_id = $1`, [shop.storeId]);
  const direct = await send(shop.storeId, notification(order));
  expect([direct.status, direct.body.error.code]).toEqual([503, 'serviceUnavailable']);
  const charge = await provider.v1(payments.apiKey, 'POST', '/payments', { orderId: order.id, amountMinor: order.totalMinor, currency: order.currency });
  await expectEventually(async () =>
    (await provider.v1(payments.apiKey, 'GET', `/events/${charge.body.eventId}`)).body.attempts.some((a: { status: number }) => a.status === 503),
  );
  expect((await getOrder(order.id)).paymentStatus).toBe('none');
  await svc.db.query('UPDATE payment_providers SET signing_secret_sealed = $2 WHERE store_id = $1', [shop.storeId, sealed]);
  const log = await provider.delivered(payments.apiKey, charge.body.eventId);
  expect(log.attempts[0].status).toBe(503);
  expect(log.attempts.at(-1)!.status).toBe(200);
  expect((await getOrder(order.id)).paymentStatus).toBe('paid');
});

leakScanTest();
