/** Every review reason of the spec is reachable, each with the spec's retryable value. */
import { call, eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { sandboxApproval, signInInBrowser } from '../support/sign-in-browser';
import { partKeyOf, openShop, placeOrder, received, soAction, submit } from '../support/orders';
import { PaymentKind, PaymentSandbox, shopperPayments, startPaymentSandbox } from '../support/payments';

let sandbox: Sandbox;
let paymentProvider: PaymentSandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  paymentProvider = await startPaymentSandbox();
  // No public address: nothing is read back by notification here, so the service's view stays as the tests leave it.
  svc = await startService({
    label: 'reasons',
    sandbox,
    publicBaseUrl: true,
    payments: paymentProvider,
    env: { DISPATCH_RETRY_LIMIT: '1', DISPATCH_RETRY_BASE_SECONDS: '1', JOB_SUPERVISE_SECONDS: '1' },
  });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
  await paymentProvider.close();
});

const RETRYABLE: Record<string, boolean> = {
  insufficientBalance: false,
  variantUnavailable: false,
  destinationUnsupported: false,
  costAboveLimit: false,
  costChanged: false,
  customerPaymentPending: false,
  customerPaymentNotSettled: false,
  connectionUnhealthy: true,
  supplierRefused: true,
  connectionMissing: false,
  supplierAlreadyShipped: false,
  testMode: false,
  customerCaptureFailed: false,
};
const reached = new Set<string>();

function expectPaused(so: any, reason: string) {
  expect({ status: so.status, reviewReason: so.reviewReason, retryable: so.retryable }).toEqual({
    status: 'needsReview',
    reviewReason: reason,
    retryable: RETRYABLE[reason],
  });
  expect(typeof so.reviewMessage).toBe('string');
  reached.add(reason);
}

/** Review messages say money as a person reads it, with its currency, never bare minor units. */
const usd = (minor: number) => `$${(minor / 100).toFixed(2)}`;

// The shopper's payment, as the payment provider reports it (signed notifications).
let shopperPays: ReturnType<typeof shopperPayments>;
const payment = (shop: any, orderId: string, kind: PaymentKind) => (shopperPays ??= shopperPayments(svc, paymentProvider))(shop, orderId, kind);

test('insufficientBalance: created but not paid; after a top-up a retry pays the same order', async () => {
  const shop = await openShop(svc, sandbox, { page: 2, balanceMinor: 0 });
  const order = await placeOrder(svc, shop);
  const res = await submit(svc, shop, order.id, { payNow: true });
  expect(res.status).toBe(200);
  expectPaused(res.body.result, 'insufficientBalance');
  expect(res.body.result.supplierOrderId).toMatch(/^SBX-O/);
  expect(res.body.result.reviewMessage).toContain(`Balance $0.00 is below the order total ${usd(res.body.result.costs.totalMinor)}`);
  expect(res.body.result.events.find((e: any) => e.type === 'created').details).toMatchObject({ payNow: true });
  await sandbox.control('POST', `/accounts/${shop.account.accountId}/balance`, { balanceMinor: 1_000_000 });
  const retried = await soAction(svc, shop, res.body.result._id, 'retry');
  expect(retried.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' }, reviewReason: null });
  const r = await received(sandbox);
  expect(r.count(res.body.result.supplierOrderNumber)).toBe(1);
  expect(r.all.payments.filter((p: any) => p.orderNumber === res.body.result.supplierOrderNumber)).toHaveLength(1);
});

test('variantUnavailable: the supplier stopped offering the variant; nothing is ordered', async () => {
  const shop = await openShop(svc, sandbox, { page: 3 });
  const order = await placeOrder(svc, shop);
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { available: false });
  const res = await submit(svc, shop, order.id);
  expectPaused(res.body.result, 'variantUnavailable');
  expect((await received(sandbox)).count(res.body.result.supplierOrderNumber)).toBe(0);
});

test('destinationUnsupported: a country the store excluded, and one the supplier does not serve', async () => {
  const shop = await openShop(svc, sandbox, { page: 4, automation: { excludedCountries: ['CA'] } });
  const excluded = await submit(
    svc,
    shop,
    (await placeOrder(svc, shop, { destination: { name: 'A', line1: '1 Rue', city: 'Montreal', postalCode: 'H2X', country: 'CA' } })).id,
  );
  expectPaused(excluded.body.result, 'destinationUnsupported');
  const unserved = await submit(
    svc,
    shop,
    (await placeOrder(svc, shop, { destination: { name: 'A', line1: '1 Rua', city: 'Rio', postalCode: '20000', country: 'BR' } })).id,
  );
  expectPaused(unserved.body.result, 'destinationUnsupported');
});

test('costAboveLimit, then sent when a person accepts the cost', async () => {
  const shop = await openShop(svc, sandbox, { page: 5, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } });
  const res = await submit(svc, shop, (await placeOrder(svc, shop)).id);
  expectPaused(res.body.result, 'costAboveLimit');
  expect(res.body.result.reviewMessage).toBe(`The items cost ${usd(shop.products[0].costMinor)}, above the store's limit of $0.01.`);
  const plain = await soAction(svc, shop, res.body.result._id, 'retry');
  expectPaused(plain.body.result, 'costAboveLimit');
  const accepted = await soAction(svc, shop, res.body.result._id, 'retry', { acceptCost: true });
  expect(accepted.body.result.status).toBe('submitted');
});

test("costChanged: paused until a retry with acceptCost, recorded as the caller's decision", async () => {
  const shop = await openShop(svc, sandbox, { page: 6 });
  const order = await placeOrder(svc, shop);
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { costMinor: shop.products[0].costMinor + 333 });
  const res = await submit(svc, shop, order.id);
  expectPaused(res.body.result, 'costChanged');
  expect(res.body.result.reviewMessage).toBe(
    `The supplier's cost moved from ${usd(shop.products[0].costMinor)} to ${usd(shop.products[0].costMinor + 333)} since import.`,
  );
  const accepted = await soAction(svc, shop, res.body.result._id, 'retry', { acceptCost: true });
  expect(accepted.body.result.status).toBe('submitted');
  expect(accepted.body.result.costs.itemsMinor).toBe(shop.products[0].costMinor + 333);
  const retryEvent = accepted.body.result.events.find((e: any) => e.type === 'retry' && e.details.acceptCost);
  expect(retryEvent).toMatchObject({
    actor: { kind: 'key', id: shop.owner.keyId },
    details: { acceptCost: true, acceptedCostMinor: shop.products[0].costMinor + 333 },
  });
});

test('customerPaymentPending and customerPaymentNotSettled under automatic payment', async () => {
  const shop = await openShop(svc, sandbox, { page: 7, automation: { automaticPayment: true } });
  const unpaid = await placeOrder(svc, shop, { paymentMethod: 'online' });
  const a = await submit(svc, shop, unpaid.id);
  expectPaused(a.body.result, 'customerPaymentPending');
  const cod = await placeOrder(svc, shop, { paymentMethod: 'cashOnDelivery' });
  expectPaused((await submit(svc, shop, cod.id)).body.result, 'customerPaymentPending');
  const authorised = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payment(shop, authorised.id, 'authorised');
  const b = await submit(svc, shop, authorised.id);
  expectPaused(b.body.result, 'customerPaymentNotSettled');
  // A paused order does not clear by itself: settling the payment leaves it paused until a retry.
  await payment(shop, authorised.id, 'paid');
  const still = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${b.body.result._id}`, { key: shop.owner.key });
  expect(still.body.result.status).toBe('needsReview');
  const retried = await soAction(svc, shop, b.body.result._id, 'retry');
  expect(retried.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' } });
  // payNow skips the shopper check, and the choice is in the history.
  const payNow = await submit(svc, shop, (await placeOrder(svc, shop, { paymentMethod: 'online' })).id, { payNow: true });
  expect(payNow.body.result.status).toBe('confirmed');
  expect(payNow.body.result.events[0].details.payNow).toBe(true);
});

test('connectionUnhealthy once the background retries are used up; retryable', async () => {
  const shop = await openShop(svc, sandbox, { page: 8 });
  await sandbox.control('POST', '/faults', { unavailableAccounts: [shop.account.accountId] });
  try {
    const res = await submit(svc, shop, (await placeOrder(svc, shop)).id);
    expect(res.body.result.status).toBe('failed');
    const so = await eventually(
      async () => {
        const r = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${res.body.result._id}`, { key: shop.owner.key });
        return r.body.result.status === 'needsReview' ? r.body.result : undefined;
      },
      20000,
      'the retries to run out',
    );
    expectPaused(so, 'connectionUnhealthy');
    expect(so.events.map((e: any) => e.type)).toEqual(expect.arrayContaining(['failed', 'automaticRetry', 'paused']));
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
});

test("supplierRefused with the supplier's words, cleaned of contact details and tokens; retryable", async () => {
  const shop = await openShop(svc, sandbox, { page: 9 });
  await sandbox.control('POST', '/faults', {
    refuseNext: { count: 1, message: 'Address incomplete: call +1 555 123 4567 or write to ops@supplier.test, ref tok_abcdefghijklmnop' },
  });
  const res = await submit(svc, shop, (await placeOrder(svc, shop)).id);
  expectPaused(res.body.result, 'supplierRefused');
  expect(res.body.result.reviewMessage).toContain('Address incomplete');
  expect(res.body.result.reviewMessage).not.toMatch(/555|ops@supplier|tok_abc/);
  const retried = await soAction(svc, shop, res.body.result._id, 'retry');
  expect(retried.body.result.status).toBe('submitted');
  expect((await received(sandbox)).count(retried.body.result.supplierOrderNumber)).toBe(1);
});

test('connectionMissing: the connection is switched off', async () => {
  const shop = await openShop(svc, sandbox, { page: 10 });
  await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.connId}/enabled`, { key: shop.owner.key, body: { enabled: false } });
  expectPaused((await submit(svc, shop, (await placeOrder(svc, shop)).id)).body.result, 'connectionMissing');
});

test('supplierAlreadyShipped: a cancel that comes after the supplier shipped', async () => {
  const shop = await openShop(svc, sandbox, { page: 11 });
  const res = await submit(svc, shop, (await placeOrder(svc, shop)).id, { payNow: true });
  expect(res.body.result.status).toBe('confirmed');
  await sandbox.control('POST', `/orders/${res.body.result.supplierOrderId}/ship`, { carrier: 'SandboxPost', trackingNumber: 'SBX1' });
  const cancel = await soAction(svc, shop, res.body.result._id, 'cancel');
  expect(cancel.status).toBe(200);
  expectPaused(cancel.body.result, 'supplierAlreadyShipped');
});

test('testMode: a test connection to a supplier without a test environment places nothing', async () => {
  const shop = await openShop(svc, sandbox, { page: 12 });
  const started = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/oauth/start`, {
    key: shop.owner.key,
    body: { supplierKey: 'sandbox-signin', mode: 'test' },
  });
  const conn = await signInInBrowser(svc, started.body.result.authorizationUrl, shop.owner.session, sandboxApproval(shop.account.accountId));
  expect(conn.status).toBe(201);
  // Link a store product to the sign-in connection and order it.
  const sp = shop.products[1];
  const own = await svc.call('POST', `/api/store-products/${shop.storeId}`, {
    key: shop.owner.key,
    body: { title: 'T', variants: [{ sku: `TM-${Date.now()}`, title: 'v', priceMinor: 100, currency: 'USD', stock: 5 }] },
  });
  const link = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/links`, {
    key: shop.owner.key,
    body: {
      productId: own.body.result.id,
      connectionId: conn.body.result.id,
      supplierProductId: sp.supplierProductId,
      variants: [{ storeVariantId: own.body.result.variants[0].id, supplierVariantId: sp.supplierVariantId }],
    },
  });
  expect(link.status).toBe(201);
  const order = await svc.call('POST', `/api/store-orders/${shop.storeId}`, {
    key: shop.owner.key,
    body: {
      items: [{ productId: own.body.result.id, variantId: own.body.result.variants[0].id, quantity: 1 }],
      destination: { name: 'A', line1: '1 Main', city: 'X', postalCode: '1', country: 'US' },
      paymentMethod: 'manual',
    },
  });
  const partKey = `supplier:${conn.body.result.id}`;
  const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${order.body.result.id}/groups/${encodeURIComponent(partKey)}/submit`, {
    key: shop.owner.key,
    body: {},
  });
  expectPaused(res.body.result, 'testMode');
  expect(res.body.result.supplierOrderId).toBeNull();
});

test('customerCaptureFailed: promise to sell, the supplier was paid but charging the shopper failed', async () => {
  const shop = await openShop(svc, sandbox, { page: 13, automation: { level: 'manual', automaticPayment: false } });
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', contractModel: 'promiseToSell' });
  // Sending starts once the shopper's payment is authorised.
  await payment(shop, order.id, 'authorised');
  const list = await eventually(
    async () => {
      const r = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${order.id}`, { key: shop.owner.key });
      return r.body.result.items[0]?.status === 'submitted' ? r.body.result.items[0] : undefined;
    },
    15000,
    'the promise-to-sell send',
  );
  expect(list.contractModel).toBe('promiseToSell');
  await payment(shop, order.id, 'failed');
  const paid = await soAction(svc, shop, list._id, 'pay');
  expectPaused(paid.body.result, 'customerCaptureFailed');
  expect(paid.body.result.payment.status).toBe('paid');
});

test('promise to sell, the happy path: the shopper is charged when the supplier accepts', async () => {
  const shop = await openShop(svc, sandbox, { page: 14, automation: { level: 'manual', automaticPayment: true } });
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', contractModel: 'promiseToSell' });
  await payment(shop, order.id, 'authorised');
  await eventually(
    async () => {
      const r = await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key });
      return r.body.result.paymentStatus === 'paid' ? r : undefined;
    },
    15000,
    'the capture',
  );
  const so = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${order.id}`, { key: shop.owner.key })).body.result.items[0];
  expect(so).toMatchObject({ status: 'confirmed', payment: { status: 'paid' }, reviewReason: null });
});

test('all thirteen review reasons were reached', () => {
  expect([...reached].sort()).toEqual(Object.keys(RETRYABLE).sort());
});

test("a part of the store's own items has no supplier", async () => {
  const shop = await openShop(svc, sandbox, { page: 15 });
  const order = await placeOrder(svc, shop);
  const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${order.id}/groups/store/submit`, { key: shop.owner.key, body: {} });
  expect(res.status).toBe(400);
  expect(partKeyOf(shop)).toMatch(/^supplier:/);
});

leakScanTest();
