/**
 * A payment's fee and a shopper's refund split to the order's parts and products (issue 53, item 3; docs/decisions.md,
 * "The fee split", "Refunds in the profit report"), over real HTTP with the sandbox supplier and the payments sandbox:
 * an order of two supplier products and one the store fulfils itself, paid online (the provider reports its fee) and
 * refunded in part. Each part takes its share by its items' prices, each product its share of its part, rounded
 * cumulatively in key order; every grouping's rows add up to the fee and the refund exactly, and the totals equal the
 * order's own profit. The split is written with the event that records it: the event delivered again writes nothing.
 */
import { connectPayments, PaymentSandbox, startPaymentSandbox, type StorePayments } from '../support/payments';
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop, submit, US_ADDRESS } from '../support/orders';

/* eslint-disable @typescript-eslint/no-explicit-any */

const DAY_MS = 86_400_000;
const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const today = () => `from=${day(-1)}&to=${day(1)}`;

let sandbox: Sandbox;
let svc: Service;
let provider: PaymentSandbox;
let shop: Shop;
let payments: StorePayments;

beforeAll(async () => {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  sandbox = await startSandbox();
  provider = await startPaymentSandbox();
  // The workers' fold is held (its failpoint throws), so the deltas stay to be read; the report adds them as it would.
  svc = await startService({ label: 'profit-split', sandbox, payments: provider, env: { FAILPOINTS: 'orders.profitFold=throw' } });
  shop = await openShop(svc, sandbox, { page: 12, products: 2 });
  payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
  await provider?.close();
});

const report = (groupBy: string) =>
  svc.call('GET', `/api/store-suppliers/${shop.storeId}/reports/profit?${today()}&groupBy=${groupBy}`, { key: shop.owner.key }).then((r) => r.body.result);
const orderOf = (id: string) => svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key }).then((r) => r.body.result);

/** `amount` shared by weights in key order, each share rounded cumulatively (the rule the report documents). */
function shares(amount: number, weights: Array<[string, number]>): Map<string, number> {
  const sorted = [...weights].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const total = sorted.reduce((a, [, w]) => a + w, 0);
  let cum = 0;
  return new Map(
    sorted.map(([k, w]) => {
      const before = Math.round((amount * cum) / total);
      cum += w;
      return [k, Math.round((amount * cum) / total) - before];
    }),
  );
}

/** Each grouping's rows' figure by key, and their sum. */
async function byKey(groupBy: string, figure: string) {
  const r = await report(groupBy);
  const map = new Map<string, number>(r.items.map((i: any) => [i.key, i[figure]]));
  return { map, sum: [...map.values()].reduce((a, b) => a + b, 0), totals: r.totals };
}

/** The order's expected shares of `amount`: by part (its connection, or none for the store's own) and by product. */
function expected(order: any, amount: number) {
  const weight = (items: any[]) => items.reduce((a, i) => a + i.unitPriceMinor * i.quantity, 0);
  const parts = shares(
    amount,
    order.fulfilmentGroups.map((g: any) => [g.groupKey, weight(order.items.filter((i: any) => i.groupKey === g.groupKey))]),
  );
  const byConnection = new Map<string, number>();
  const byProduct = new Map<string, number>();
  for (const g of order.fulfilmentGroups) {
    if (g.connectionId) byConnection.set(g.connectionId, parts.get(g.groupKey)!);
    const items = order.items.filter((i: any) => i.groupKey === g.groupKey);
    const products = [...new Set<string>(items.map((i: any) => i.productId))].map((p): [string, number] => [
      p,
      weight(items.filter((i: any) => i.productId === p)),
    ]);
    for (const [p, share] of shares(parts.get(g.groupKey)!, products)) byProduct.set(p, (byProduct.get(p) ?? 0) + share);
  }
  return { parts, byConnection, byProduct };
}

test("a payment's fee is split to the order's parts by their share and to each part's products by item, in the statement that records it", async () => {
  const own = (
    await svc.call('POST', `/api/store-products/${shop.storeId}`, {
      key: shop.owner.key,
      body: { title: 'Own', variants: [{ sku: 'OWN-split', title: 'v', priceMinor: 1333, currency: 'USD', stock: 9 }] },
    })
  ).body.result;
  const [a, b] = shop.products;
  const made = await svc.call('POST', `/api/store-orders/${shop.storeId}`, {
    key: shop.owner.key,
    body: {
      items: [
        { productId: a.productId, variantId: a.variantId, quantity: 1 },
        { productId: b.productId, variantId: b.variantId, quantity: 2 },
        { productId: own.id, variantId: own.variants[0].id, quantity: 1 },
      ],
      destination: US_ADDRESS,
      paymentMethod: 'online',
      contractModel: 'standard',
    },
  });
  expect(made.status).toBe(201);
  const paid = await payments.pay(made.body.result.id, 'paid');
  const order = await orderOf(made.body.result.id);
  expect(order.fulfilmentGroups).toHaveLength(2);
  const fee = order.profit.paymentFeeMinor;
  expect(fee).toBeGreaterThan(0);
  const want = expected(order, fee);
  expect([...want.parts.values()].every((x) => x > 0)).toBe(true);

  const byProduct = await byKey('product', 'paymentFeeMinor');
  expect(byProduct.map).toEqual(want.byProduct);
  expect(byProduct.sum).toBe(fee);
  const byConnection = await byKey('connection', 'paymentFeeMinor');
  expect(byConnection.map).toEqual(want.byConnection);
  expect(byConnection.totals.paymentFeeMinor).toBe(fee);
  expect((await byKey('day', 'paymentFeeMinor')).map).toEqual(new Map([[day(), fee]]));
  // The rows: one per part (by day and connection) and one per product of each part (by product), each adding up to the fee.
  const rows = async () =>
    (
      await svc.db.query(
        `SELECT split, sum(payment_fee_minor)::int AS fee, count(*)::int AS n FROM profit_deltas WHERE store_id = $1 AND payment_fee_minor <> 0 GROUP BY split ORDER BY split`,
        [shop.storeId],
      )
    ).rows;
  expect(await rows()).toEqual([
    { split: false, fee, n: 2 },
    { split: true, fee, n: 3 },
  ]);
  // The provider delivers the event again: it is the same event, recorded once, and its split with it.
  const again = await provider.v1(payments.apiKey, 'POST', `/events/${paid.eventId}/resend`);
  expect(again.status).toBe(202);
  await eventually(
    async () => {
      const e = (await provider.v1(payments.apiKey, 'GET', `/events/${paid.eventId}`)).body;
      return e.attempts.filter((x: any) => x.status !== null && x.status < 300).length >= 2 || undefined;
    },
    20000,
    'the event delivered again',
  );
  expect(await rows()).toEqual([
    { split: false, fee, n: 2 },
    { split: true, fee, n: 3 },
  ]);
  expect((await orderOf(order.id)).profit.paymentFeeMinor).toBe(fee);
});

test('a refund in part is its own figure in every grouping, split as the fee is, out of revenue; the totals equal the order’s own profit', async () => {
  const list = (await svc.call('GET', `/api/store-orders/${shop.storeId}?pageSize=10`, { key: shop.owner.key })).body.result.items;
  expect(list).toHaveLength(1);
  const id = list[0].id;
  const sent = await submit(svc, shop, id);
  expect(sent.status).toBeLessThan(300);
  await eventually(async () => (await orderOf(id)).profit?.landedCostMinor > 0 || undefined, 60000, 'the part entered');
  const before = await orderOf(id);
  const revenueBefore = await byKey('connection', 'revenueMinor');
  const amount = 1001;
  const asked = await svc.call('POST', `/api/store-orders/${shop.storeId}/${id}/refunds`, { key: shop.owner.key, body: { amountMinor: amount } });
  expect(asked.status).toBe(202);
  const after = await eventually(
    async () => {
      const o = await orderOf(id);
      return o.amountRefundedMinor === amount ? o : undefined;
    },
    30000,
    'the refund recorded',
  );
  expect(after.profit).toMatchObject({
    refundMinor: amount,
    revenueMinor: before.profit.revenueMinor - amount,
    resultMinor: before.profit.resultMinor - amount,
  });
  const want = expected(after, amount);
  const byProduct = await byKey('product', 'refundMinor');
  expect(byProduct.map).toEqual(want.byProduct);
  expect(byProduct.sum).toBe(amount);
  const byConnection = await byKey('connection', 'refundMinor');
  expect(byConnection.map).toEqual(want.byConnection);
  // The supplier part's revenue less its share; the store's own part's share counts by day and product only.
  const revenue = await byKey('connection', 'revenueMinor');
  expect(revenue.map.get(shop.connId)).toBe(revenueBefore.map.get(shop.connId)! - want.byConnection.get(shop.connId)!);
  const totals = (await report('day')).totals;
  const p = after.profit;
  expect(totals).toMatchObject({
    revenueMinor: p.revenueMinor,
    landedCostMinor: p.landedCostMinor,
    paymentFeeMinor: p.paymentFeeMinor,
    supplierCreditMinor: p.supplierCreditMinor,
    refundMinor: amount,
    resultMinor: p.resultMinor,
  });
  // Every grouping adds up to the totals' money (the product grouping holds every item here).
  const products = (await report('product')).items;
  for (const f of ['revenueMinor', 'paymentFeeMinor', 'refundMinor', 'landedCostMinor', 'resultMinor'])
    expect([f, products.reduce((x: number, i: any) => x + i[f], 0)]).toEqual([f, totals[f]]);
});

leakScanTest();
