/**
 * A staff member's "mark as paid" (docs/decisions.md, "Shopper payments"): recorded as manual, confirms the order,
 * shows in its history, and never by itself starts automatic payment to the supplier. The connection's
 * allowUnpaidOrders (orders without online payment) or payNow still can.
 */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, received, submit } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox } from '../support/payments';

let sandbox: Sandbox;
let provider: PaymentSandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  provider = await startPaymentSandbox();
  svc = await startService({ label: 'manual-pay', sandbox });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
  await provider.close();
});

const AUTOMATIC = { level: 'automatic', automaticPayment: true };
const getOrder = (shop: { storeId: string; owner: { key: string } }, id: string) =>
  svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const markPaid = (shop: { storeId: string; owner: { key: string } }, id: string, body: Record<string, unknown> = {}) =>
  svc.call('POST', `/api/store-orders/${shop.storeId}/${id}/mark-paid`, { key: shop.owner.key, body });

/**
 * The part's supplier order once the confirmation's dispatch job is done with it: paid at the supplier, or paused.
 * (`submitted` is on the way: with automatic payment the pay step follows.)
 */
async function settledSupplierOrder(shop: { storeId: string; owner: { key: string } }, orderId: string) {
  return eventually(
    async () => {
      const so = (await getOrder(shop, orderId)).supplierOrders?.[0];
      return so && ['confirmed', 'needsReview'].includes(so.status) ? so : undefined;
    },
    30000,
    'the automatic send after confirmation',
  );
}

test("marked paid by hand: confirmed, in the history as manual with who did it, and the provider's payment status untouched", async () => {
  const shop = await openShop(svc, sandbox, { page: 2 });
  const order = await placeOrder(svc, shop, { paymentMethod: 'manual' });
  const res = await markPaid(shop, order.id, { reference: 'bank transfer 7781', amountMinor: order.totalMinor });
  expect(res.status).toBe(200);
  expect(res.body.result).toMatchObject({ status: 'confirmed', paymentStatus: 'none', markedPaidAt: expect.any(String) });
  expect(res.body.result.payments).toEqual([
    {
      kind: 'paid',
      source: 'manual',
      amountMinor: order.totalMinor,
      reference: 'bank transfer 7781',
      actor: { kind: 'key', id: shop.owner.keyId },
      at: expect.any(String),
    },
  ]);
  // Twice is once.
  const again = await markPaid(shop, order.id, { reference: 'again' });
  expect(again.body.result.payments).toHaveLength(1);
  expect(again.body.result.markedPaidAt).toBe(res.body.result.markedPaidAt);
});

test('a manual "paid" never starts automatic supplier payment: the part pauses customerPaymentPending and the supplier is paid nothing', async () => {
  const shop = await openShop(svc, sandbox, { page: 3, automation: AUTOMATIC });
  for (const paymentMethod of ['online', 'manual', 'cashOnDelivery']) {
    const order = await placeOrder(svc, shop, { paymentMethod });
    expect((await markPaid(shop, order.id)).body.result.status).toBe('confirmed');
    const so = await settledSupplierOrder(shop, order.id);
    expect([paymentMethod, so.status, so.reviewReason, so.payment.status]).toEqual([paymentMethod, 'needsReview', 'customerPaymentPending', 'unpaid']);
    expect((await received(sandbox, so.supplierOrderNumber)).payments).toEqual([]);
  }
});

test("what still pays automatically: the provider's signed payment, allowUnpaidOrders for an order without online payment, and payNow", async () => {
  const shop = await openShop(svc, sandbox, { page: 4, automation: AUTOMATIC });
  const payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
  const online = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payments.pay(online.id, 'paid');
  const byProvider = await settledSupplierOrder(shop, online.id);
  expect([byProvider.status, byProvider.payment.status]).toEqual(['confirmed', 'paid']);
  expect((await received(sandbox, byProvider.supplierOrderNumber)).payments).toHaveLength(1);

  const lenient = await openShop(svc, sandbox, { page: 5, automation: { ...AUTOMATIC, allowUnpaidOrders: true } });
  const transfer = await placeOrder(svc, lenient, { paymentMethod: 'manual' });
  await markPaid(lenient, transfer.id, { reference: 'transfer' });
  const allowed = await settledSupplierOrder(lenient, transfer.id);
  expect([allowed.status, allowed.payment.status]).toEqual(['confirmed', 'paid']);

  const manualShop = await openShop(svc, sandbox, { page: 6 });
  const payNowOrder = await placeOrder(svc, manualShop, { paymentMethod: 'online' });
  await markPaid(manualShop, payNowOrder.id);
  expect((await submit(svc, manualShop, payNowOrder.id, { payNow: true })).status).toBeLessThan(300);
  const sent = await settledSupplierOrder(manualShop, payNowOrder.id);
  expect(sent).toMatchObject({ status: 'confirmed', payment: { status: 'paid' } });
});

test('an order the provider already reported paid cannot be marked paid (409); bad input is 400', async () => {
  const shop = await openShop(svc, sandbox, { page: 7 });
  const payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payments.pay(order.id, 'paid');
  const res = await markPaid(shop, order.id);
  expect([res.status, res.body.error.code]).toEqual([409, 'invalidState']);
  const bad = await markPaid(shop, order.id, { amountMinor: -1 });
  expect([bad.status, bad.body.error.code]).toEqual([400, 'validationFailed']);
});

leakScanTest();
