/**
 * Profit after the sale (issue 53, item 3's profit parts, point 6; docs/decisions.md, "Supplier credits", "The fee
 * split"), over real HTTP with the sandbox supplier and the payments sandbox: a claim refunded by the supplier is a
 * supplier credit at a recorded rate that comes off the part's landed cost, in its profit and in the report's sums; a
 * cancel the supplier refunded is kept as a credit and moves no figure twice (fees and refunds split to parts:
 * test/orders/profit-split.test.ts); a part of two products counts under each by its items; an order paid
 * but not sent shows its fee in its own profit. At every step the report's totals equal the orders' own profits.
 */
import { connectPayments, PaymentSandbox, startPaymentSandbox, type StorePayments } from '../support/payments';
import { eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop, soAction, submit, US_ADDRESS } from '../support/orders';

/* eslint-disable @typescript-eslint/no-explicit-any */

const DAY_MS = 86_400_000;
const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const today = () => `from=${day(-1)}&to=${day(1)}`;

let sandbox: Sandbox;
let svc: Service;
let provider: PaymentSandbox;

beforeAll(async () => {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  sandbox = await startSandbox();
  provider = await startPaymentSandbox();
  svc = await startService({
    label: 'profit-credits',
    sandbox,
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
const report = (shop: Shop, query: string) => svc.call('GET', `${api(shop)}/reports/profit?${query}`, { key: shop.owner.key }).then((r) => r.body.result);
const getSo = (shop: Shop, id: string) => svc.call('GET', `${api(shop)}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const until = <T>(what: string, check: () => Promise<T | undefined | false>, ms = 30000) =>
  eventually(async () => (await check()) || undefined, ms, what) as Promise<T>;

/** The store's orders' own profits summed as the API answers them: the figures the report's totals must equal. */
async function ownTotals(shop: Shop) {
  const list = (await svc.call('GET', `/api/store-orders/${shop.storeId}?pageSize=100`, { key: shop.owner.key })).body.result.items;
  const orders = await Promise.all(
    list.map((o: any) => svc.call('GET', `/api/store-orders/${shop.storeId}/${o.id}`, { key: shop.owner.key }).then((r) => r.body.result)),
  );
  const profits = orders.map((o: any) => o.profit).filter(Boolean);
  const sum = (k: string) => profits.reduce((a: number, p: any) => a + (p[k] ?? 0), 0);
  const revenueMinor = sum('revenueMinor');
  const landedCostMinor = sum('landedCostMinor');
  const paymentFeeMinor = sum('paymentFeeMinor');
  return {
    orders,
    figures: {
      revenueMinor,
      landedCostMinor,
      paymentFeeMinor,
      supplierCreditMinor: sum('supplierCreditMinor'),
      refundMinor: sum('refundMinor'),
      resultMinor: revenueMinor - landedCostMinor - paymentFeeMinor,
    },
  };
}
const money = (t: any) => ({
  revenueMinor: t.revenueMinor,
  landedCostMinor: t.landedCostMinor,
  paymentFeeMinor: t.paymentFeeMinor,
  supplierCreditMinor: t.supplierCreditMinor,
  refundMinor: t.refundMinor,
  resultMinor: t.resultMinor,
});
async function agree(shop: Shop) {
  const own = await ownTotals(shop);
  const r = await report(shop, today());
  expect(money(r.totals)).toEqual(own.figures);
  return { own, report: r };
}

let shop: Shop;
let payments: StorePayments;
beforeAll(async () => {
  shop = await openShop(svc, sandbox, { page: 9, products: 2 });
  payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
});

test('an order paid but not sent shows its fee in its own profit, as the report counts it', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payments.pay(order.id, 'paid');
  const own = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
  expect(own.profit).toMatchObject({
    currency: 'USD',
    revenueMinor: 0,
    landedCostMinor: 0,
    supplierCreditMinor: 0,
    complete: false,
    missing: expect.arrayContaining(['supplierOrders']),
  });
  expect(own.profit.paymentFeeMinor).toBeGreaterThan(0);
  expect(own.profit.resultMinor).toBe(-own.profit.paymentFeeMinor);
  await agree(shop);
});

test('a claim the supplier refunds is a credit at a recorded rate: off the landed cost in the part, the order and the report, in the same transaction', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', productIndex: 1 });
  await payments.pay(order.id, 'paid');
  const sent = await submit(svc, shop, order.id, { payNow: true });
  expect(sent.body.result.status).toBe('confirmed');
  const so = sent.body.result;
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'SandboxPost' });
  await until('shipped', async () => (await getSo(shop, so._id)).status === 'shipped');
  const before = await getSo(shop, so._id);
  const { report: was } = await agree(shop);
  const opened = await svc.call('POST', `${api(shop)}/orders/${so._id}/claims`, {
    key: shop.owner.key,
    body: { reason: 'damaged', expectation: 'refund', items: [{ itemId: order.items[0].id, quantity: 1 }] },
  });
  expect(opened.status).toBe(201);
  const open = await until('sent', async () => {
    const c = (await svc.call('GET', `${api(shop)}/orders/${so._id}/claims/${opened.body.result._id}`, { key: shop.owner.key })).body.result;
    return c.status === 'open' ? c : undefined;
  });
  await sandbox.control('POST', `/claims/${open.supplierClaimId}/decide`, { outcome: 'refund', amountMinor: 500 });
  const credited = await until('credited', async () => {
    const now = await getSo(shop, so._id);
    return now.supplierCredits.length ? now : undefined;
  });
  expect(credited.supplierCredits).toEqual([
    {
      kind: 'claimRefund',
      amountMinor: 500,
      currency: 'USD',
      storeAmountMinor: 500,
      storeCurrency: 'USD',
      rate: '1',
      rateSource: 'identity',
      rateAsOf: day(),
      counted: true,
      recordedAt: expect.any(String),
    },
  ]);
  expect(credited.profit).toMatchObject({
    landedCostMinor: before.profit.landedCostMinor - 500,
    supplierCreditMinor: 500,
    resultMinor: before.profit.resultMinor + 500,
  });
  const row = (
    await svc.db.query(`SELECT kind, amount_minor, store_amount_minor, rate, rate_source, counted FROM supplier_credits WHERE store_id = $1`, [shop.storeId])
  ).rows;
  expect(row).toEqual([{ kind: 'claimRefund', amount_minor: '500', store_amount_minor: '500', rate: '1', rate_source: 'identity', counted: true }]);
  const { own, report: now } = await agree(shop);
  expect(now.totals.supplierCreditMinor).toBe(was.totals.supplierCreditMinor + 500);
  expect(now.totals.landedCostMinor).toBe(was.totals.landedCostMinor - 500);
  expect(own.orders.find((o: any) => o.id === order.id).profit.supplierCreditMinor).toBe(500);
  // The credit is under the part's product and connection too.
  const byProduct = await report(shop, `${today()}&groupBy=product`);
  expect(byProduct.items.find((i: any) => i.key === shop.products[1].productId).supplierCreditMinor).toBe(500);
  expect((await report(shop, `${today()}&groupBy=connection`)).items[0].supplierCreditMinor).toBe(500);
});

test('a cancel the supplier refunds is kept as a credit at the recorded rate, and moves no figure twice (the part left with its cost)', async () => {
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await payments.pay(order.id, 'paid');
  const so = (await submit(svc, shop, order.id, { payNow: true })).body.result;
  expect(so.payment.status).toBe('paid');
  const cancelled = await soAction(svc, shop, so._id, 'cancel');
  expect(cancelled.status).toBeLessThan(300);
  const after = await until(
    'refunded',
    async () => {
      const now = await getSo(shop, so._id);
      return now.status === 'cancelled' && now.payment.status === 'refunded' && now.supplierCredits.length ? now : undefined;
    },
    60000,
  );
  const landed = so.landedCosts.at(-1);
  expect(after.supplierCredits).toEqual([
    {
      kind: 'cancelRefund',
      amountMinor: so.costs.totalMinor,
      currency: 'USD',
      storeAmountMinor: landed.storeTotalMinor,
      storeCurrency: 'USD',
      rate: landed.rate,
      rateSource: landed.rateSource,
      rateAsOf: landed.rateAsOf,
      counted: false,
      recordedAt: expect.any(String),
    },
  ]);
  await agree(shop);
});

test('a part of two products counts under each by its items: its revenue by item, its landed cost by their share, adding up to the part', async () => {
  const two = await openShop(svc, sandbox, { page: 10, products: 2 });
  const [a, b] = two.products;
  const made = await svc.call('POST', `/api/store-orders/${two.storeId}`, {
    key: two.owner.key,
    body: {
      items: [
        { productId: a.productId, variantId: a.variantId, quantity: 1 },
        { productId: b.productId, variantId: b.variantId, quantity: 2 },
      ],
      destination: US_ADDRESS,
      paymentMethod: 'manual',
      contractModel: 'standard',
    },
  });
  expect(made.status).toBe(201);
  const so = (await submit(svc, two, made.body.result.id)).body.result;
  const part = await until('accepted', async () => {
    const now = await getSo(two, so._id);
    return now.profit?.landedCostStage === 'accepted' ? now : undefined;
  });
  const items = made.body.result.items;
  const revenueOf = (productId: string) =>
    items.filter((i: any) => i.productId === productId).reduce((x: number, i: any) => x + i.unitPriceMinor * i.quantity, 0);
  const landed = part.profit.landedCostMinor;
  // Cumulative rounding in key order: the first product's share rounded, the second takes the rest.
  const [first, second] = [a.productId, b.productId].sort();
  const total = revenueOf(first) + revenueOf(second);
  const firstShare = Math.round((landed * revenueOf(first)) / total);
  const byProduct = await report(two, `${today()}&groupBy=product`);
  expect(byProduct.items.map((i: any) => [i.key, i.orders, i.parts, i.revenueMinor, i.landedCostMinor])).toEqual([
    [first, 1, 1, revenueOf(first), firstShare],
    [second, 1, 1, revenueOf(second), landed - firstShare],
  ]);
  // The part once by day and by connection, and the totals equal the order's own profit.
  expect(byProduct.totals).toMatchObject({ orders: 1, parts: 1, revenueMinor: part.profit.revenueMinor, landedCostMinor: landed });
  expect((await report(two, `${today()}&groupBy=connection`)).items).toEqual([
    expect.objectContaining({ key: two.connId, parts: 1, revenueMinor: part.profit.revenueMinor, landedCostMinor: landed }),
  ]);
  await agree(two);
});
