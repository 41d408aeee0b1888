/**
 * Landed cost and profit (issue 41, items 2–4 and 6; docs/decisions.md, "Landed cost and profit"), over real HTTP
 * with the sandbox supplier (USD) and the local ECB-format server: the landed cost recorded at confirmation, when the
 * supplier accepts and when it is paid, each in the supplier's and the store's currency with its rate; a rate change
 * between them shows; a stale rate pauses and the part resumes by itself; limits and maximum buy prices in other
 * currencies are converted; profit is complete only once the supplier accepted; `storeOrder.profitChanged`.
 */
import { startSandboxExchangeRates, type RunningSandboxExchangeRates } from '../../server/sandboxes/exchange-rates';
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { cjControl, openRerouteShop } from '../support/reroute';
import { connectPayments, PaymentSandbox, startPaymentSandbox } from '../support/payments';
import { eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, Shop, soAction, submit } from '../support/orders';

const DAY_MS = 86_400_000;
const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
// Per euro, as the ECB publishes them: USD→JPY = 171.94 / 1.0705 = 160.6165343298 (10 decimals, half up).
const RATES = { USD: '1.0705', JPY: '171.94', GBP: '0.84638' };
const USD_JPY = '160.6165343298';

let ecb: RunningSandboxExchangeRates;
let sandbox: Sandbox;
let svc: Service;
let fake: RunningFakeCj;
let provider: PaymentSandbox;

beforeAll(async () => {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  ecb = await startSandboxExchangeRates({ control: true });
  await fetch(`${ecb.baseUrl}/control/rates`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ date: day(-1), rates: RATES }),
  });
  sandbox = await startSandbox();
  fake = await startFakeCj();
  provider = await startPaymentSandbox();
  svc = await startService({
    label: 'landed-cost',
    sandbox,
    env: { EXCHANGE_RATES_URL: ecb.dailyUrl, DISPATCH_SWEEP_SECONDS: '1', CJ_API_BASE_URL: fake.baseUrl },
  });
  await svc.waitForLog((l) => l.msg === 'exchange rates fetched', 60000);
});
afterAll(async () => {
  if (process.env.LANDED_DEBUG) for (const l of svc.logs.filter((x) => Number(x.level) >= 40)) console.log(JSON.stringify(l).slice(0, 1500));
  await svc.stop();
  await sandbox.close();
  await fake.close();
  await provider.close();
  await ecb.close();
});

const operator = (method: string, p: string, body?: unknown) =>
  svc.call(method, `/api/operator/exchange-rates${p}`, { body, headers: { 'X-Operator-Token': svc.operatorToken } });
const supplierOrder = (shop: Shop, id: string) =>
  svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const storeOrder = (shop: Shop, id: string) => svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key }).then((r) => r.body.result);

/** The order a submit or retry answered, once its job is done with it (a 202 is followed). */
async function settled(shop: Shop, answer: Promise<{ status: number; body: any; text: string }>): Promise<any> {
  const res = await answer;
  if (res.status === 200) return res.body.result;
  if (res.status !== 202) throw new Error(res.text);
  return eventually(
    async () => {
      const so = await supplierOrder(shop, res.body.result._id);
      return so.status !== 'queued' ? so : undefined;
    },
    60000,
    'the job behind a 202',
  );
}

/** Exact half-up conversion of US cents to yen at a 10-decimal rate (independent of the service's arithmetic). */
function centsToYen(cents: number, rate: string): number {
  const [i, f = ''] = rate.split('.');
  const scaled = BigInt(i + f.padEnd(10, '0'));
  const num = BigInt(cents) * scaled;
  const den = 10n ** 10n * 100n;
  return Number((num * 2n + den) / (2n * den));
}

/** A store selling in `currency` whose product is linked by hand to a sandbox (USD) variant, priced at `priceMinor`. */
async function linkedShop(currency: string, priceMinor: number, page: number): Promise<Shop & { linkId: string }> {
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
  const store = await svc.call('POST', '/api/stores', { key: owner.key, body: { name: `${currency} store`, currency } });
  if (store.status !== 201) throw new Error(store.text);
  const storeId = store.body.result.id;
  const account = await sandbox.account(10_000_000);
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: account.liveKey } },
  });
  if (conn.status !== 201) throw new Error(conn.text);
  const items = (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=50&page=${page}`)).body.items;
  const p = items.find((x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 50);
  const product = await svc.call('POST', `/api/store-products/${storeId}`, {
    key: owner.key,
    body: { title: p.title, variants: [{ sku: `sku-${p.variants[0].id}`, title: 'One', priceMinor, currency, stock: 100 }] },
  });
  if (product.status !== 201) throw new Error(product.text);
  const variantId = product.body.result.variants[0].id;
  const link = await svc.call('POST', `/api/store-suppliers/${storeId}/links`, {
    key: owner.key,
    body: {
      productId: product.body.result.id,
      connectionId: conn.body.result.id,
      supplierProductId: p.id,
      variants: [{ storeVariantId: variantId, supplierVariantId: p.variants[0].id }],
      sync: { price: false },
    },
  });
  if (link.status !== 201) throw new Error(link.text);
  return {
    owner,
    storeId,
    connId: conn.body.result.id,
    account,
    linkId: link.body.result.id,
    products: [
      { productId: product.body.result.id, variantId, supplierVariantId: p.variants[0].id, supplierProductId: p.id, costMinor: p.variants[0].costMinor },
    ],
  };
}

test('a JPY store buys from a USD supplier: the landed cost is recorded at confirmation and acceptance in USD and in yen, to the yen, with the rate', async () => {
  const shop = await linkedShop('JPY', 9000, 3);
  const order = await placeOrder(svc, shop, { quantity: 2 });
  const so = await settled(shop, submit(svc, shop, order.id));
  expect(so).toMatchObject({ status: 'submitted', reviewReason: null });
  const items = shop.products[0].costMinor * 2;
  const shipping = 499 + 100; // the sandbox's quote for two units, as its create charges it
  expect(so.costs).toEqual({ itemsMinor: items, shippingMinor: shipping, totalMinor: items + shipping, currency: 'USD' });
  const yen = centsToYen(items + shipping, USD_JPY);
  const stage = (s: string) => ({
    stage: s,
    currency: 'USD',
    itemsMinor: items,
    shippingMinor: shipping,
    totalMinor: items + shipping,
    storeCurrency: 'JPY',
    storeTotalMinor: yen,
    rate: USD_JPY,
    rateSource: 'ecb',
    rateAsOf: day(-1),
    recordedAt: expect.any(String),
  });
  expect(so.landedCosts).toEqual([stage('confirmation'), stage('accepted')]);
  // Accepted: the profit is complete, in yen (the provider's fee is the store order's).
  expect(so.profit).toEqual({
    currency: 'JPY',
    revenueMinor: 18000,
    landedCostMinor: yen,
    landedCostStage: 'accepted',
    paymentFeeMinor: null,
    supplierCreditMinor: 0,
    resultMinor: 18000 - yen,
    complete: true,
    missing: [],
  });
  const rows = await svc.db.query(
    `SELECT stage, currency, total_minor, store_currency, store_total_minor, rate, rate_source FROM landed_costs WHERE supplier_order_id = $1 ORDER BY stage`,
    [so._id],
  );
  expect(rows.rows).toEqual([
    {
      stage: 'accepted',
      currency: 'USD',
      total_minor: String(items + shipping),
      store_currency: 'JPY',
      store_total_minor: String(yen),
      rate: USD_JPY,
      rate_source: 'ecb',
    },
    {
      stage: 'confirmation',
      currency: 'USD',
      total_minor: String(items + shipping),
      store_currency: 'JPY',
      store_total_minor: String(yen),
      rate: USD_JPY,
      rate_source: 'ecb',
    },
  ]);
  const details = await storeOrder(shop, order.id);
  expect(details.profit).toEqual({
    currency: 'JPY',
    revenueMinor: 18000,
    landedCostMinor: yen,
    landedCostStage: 'accepted',
    paymentFeeMinor: 0,
    refundedMinor: 0,
    supplierCreditMinor: 0,
    resultMinor: 18000 - yen,
    complete: true,
    missing: [],
  });
});

test('a rate change between confirmation and payment shows both: the paid stage at the new rate, its difference in the history, and storeOrder.profitChanged', async () => {
  const shop = await linkedShop('JPY', 9000, 4);
  const order = await placeOrder(svc, shop);
  const so = await settled(shop, submit(svc, shop, order.id));
  expect(so.landedCosts.map((l: any) => [l.stage, l.rate])).toEqual([
    ['confirmation', USD_JPY],
    ['accepted', USD_JPY],
  ]);
  const total = so.costs.totalMinor;
  expect((await operator('PUT', '/USD/JPY', { rate: '150', reason: 'agreed for the test' })).status).toBe(200);
  try {
    const paid = await soAction(svc, shop, so._id, 'pay');
    expect(paid.status).toBe(200);
    const after = paid.body.result;
    expect(after.landedCosts.map((l: any) => [l.stage, l.storeTotalMinor, l.rate, l.rateSource])).toEqual([
      ['confirmation', centsToYen(total, USD_JPY), USD_JPY, 'ecb'],
      ['accepted', centsToYen(total, USD_JPY), USD_JPY, 'ecb'],
      ['paid', centsToYen(total, '150'), '150', 'pinned'],
    ]);
    expect(after.profit).toMatchObject({
      landedCostMinor: centsToYen(total, '150'),
      landedCostStage: 'paid',
      resultMinor: 9000 - centsToYen(total, '150'),
      complete: true,
    });
    const moved = after.events.find((e: any) => e.type === 'landedCostChanged');
    expect(moved.details).toMatchObject({
      stage: 'paid',
      previousStage: 'accepted',
      storeCurrency: 'JPY',
      storeTotalMinor: centsToYen(total, '150'),
      previousStoreTotalMinor: centsToYen(total, USD_JPY),
      differenceMinor: centsToYen(total, '150') - centsToYen(total, USD_JPY),
      rate: '150',
      previousRate: USD_JPY,
      totalMinor: total,
      previousTotalMinor: total,
    });
    const events = await svc.db.query(`SELECT snapshot FROM event_outbox WHERE store_id = $1 AND type = 'storeOrder.profitChanged'`, [shop.storeId]);
    expect(events.rows.map((r) => r.snapshot)).toEqual([
      expect.objectContaining({
        orderId: order.id,
        supplierOrderId: so._id,
        stage: 'paid',
        previousStage: 'accepted',
        differenceMinor: centsToYen(total, '150') - centsToYen(total, USD_JPY),
      }),
    ]);
  } finally {
    await operator('DELETE', '/USD/JPY');
  }
});

test('accepted at another cost than confirmed (the supplier charged more shipping than it quoted): the history shows the difference and storeOrder.profitChanged is sent', async () => {
  const shop = await openShop(svc, sandbox, { page: 5 });
  await sandbox.control('POST', '/faults', { shippingSurchargeMinor: 250 });
  let so: any;
  try {
    so = await settled(shop, submit(svc, shop, (await placeOrder(svc, shop)).id));
  } finally {
    await sandbox.control('POST', '/faults', { shippingSurchargeMinor: 0 });
  }
  const cost = shop.products[0].costMinor;
  expect(so.landedCosts.map((l: any) => [l.stage, l.shippingMinor, l.totalMinor, l.storeTotalMinor, l.rateSource])).toEqual([
    ['confirmation', 499, cost + 499, cost + 499, 'identity'],
    ['accepted', 749, cost + 749, cost + 749, 'identity'],
  ]);
  expect(so.events.find((e: any) => e.type === 'landedCostChanged').details).toMatchObject({
    stage: 'accepted',
    previousStage: 'confirmation',
    differenceMinor: 250,
    storeCurrency: 'USD',
  });
  const events = await svc.db.query(`SELECT snapshot FROM event_outbox WHERE store_id = $1 AND type = 'storeOrder.profitChanged'`, [shop.storeId]);
  expect(events.rows).toEqual([
    { snapshot: expect.objectContaining({ supplierOrderId: so._id, stage: 'accepted', differenceMinor: 250, fulfilmentGroupKey: partKeyOf(shop) }) },
  ]);
  // The same cost at acceptance as at confirmation moves nothing: no event for another order.
  const calm = await openShop(svc, sandbox, { page: 6 });
  const plain = await settled(calm, submit(svc, calm, (await placeOrder(svc, calm)).id));
  expect(plain.events.map((e: any) => e.type)).not.toContain('landedCostChanged');
  expect((await svc.db.query(`SELECT 1 FROM event_outbox WHERE store_id = $1 AND type = 'storeOrder.profitChanged'`, [calm.storeId])).rows).toEqual([]);
});

test('a stale rate pauses the part (exchangeRateUnavailable, retryable; profit not complete) and it resumes by itself once a fresh rate is stored', async () => {
  // CHF's newest rate is ten days old (EXCHANGE_RATE_MAX_AGE_DAYS is 4), as the daily job would have left it.
  await svc.db.query(`INSERT INTO exchange_rates (source, currency, as_of_date, per_euro) VALUES ('ecb', 'CHF', $1, '0.9412')`, [day(-10)]);
  const shop = await linkedShop('CHF', 4000, 7);
  const order = await placeOrder(svc, shop);
  const so = await settled(shop, submit(svc, shop, order.id));
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'exchangeRateUnavailable', retryable: true });
  expect(so.events.find((e: any) => e.type === 'paused').details).toMatchObject({
    reason: 'exchangeRateUnavailable',
    from: 'USD',
    to: 'CHF',
    rateUnavailable: 'stale',
    rateAsOf: day(-10),
  });
  expect(so.landedCosts).toEqual([]);
  expect(so.profit).toEqual({
    currency: 'CHF',
    revenueMinor: 4000,
    landedCostMinor: null,
    landedCostStage: null,
    paymentFeeMinor: null,
    supplierCreditMinor: 0,
    resultMinor: null,
    complete: false,
    missing: ['landedCost', 'acceptedCost'],
  });
  expect((await storeOrder(shop, order.id)).profit).toMatchObject({ complete: false, missing: ['landedCost', 'acceptedCost'], resultMinor: null });
  // Nothing was sent to the supplier meanwhile.
  expect(so.supplierOrderId).toBeNull();
  await svc.db.query(`INSERT INTO exchange_rates (source, currency, as_of_date, per_euro) VALUES ('ecb', 'CHF', $1, '0.9412')`, [day(-1)]);
  const resumed = await eventually(
    async () => {
      const now = await supplierOrder(shop, so._id);
      return now.status === 'submitted' ? now : undefined;
    },
    60000,
    'the part resumed once the rate was fresh',
  );
  expect(resumed.events.find((e: any) => e.type === 'retry')).toMatchObject({
    actor: { kind: 'system', id: null },
    details: { resumed: 'exchangeRateAvailable' },
  });
  expect(resumed.landedCosts.map((l: any) => [l.stage, l.storeCurrency, l.rateAsOf])).toEqual([
    ['confirmation', 'CHF', day(-1)],
    ['accepted', 'CHF', day(-1)],
  ]);
  expect(resumed.profit.complete).toBe(true);
});

test("a cost limit set in another currency is converted at the day's rate: above it the part pauses, raised above the cost it is sent", async () => {
  const probe = await openShop(svc, sandbox, { page: 8 });
  const cost = probe.products[0].costMinor;
  // EUR→USD is 1.0705: a limit of floor(cost / 1.0705) - 1 euro cents is below the cost in dollars.
  const below = Math.floor(cost / 1.0705) - 1;
  const limitUsd = Math.floor((below * 10705 + 5000) / 10000);
  expect(limitUsd).toBeLessThan(cost);
  await svc.call('PUT', `/api/store-suppliers/${probe.storeId}/${probe.connId}/automation`, {
    key: probe.owner.key,
    body: { costLimit: { amountMinor: below, currency: 'EUR' } },
  });
  const so = await settled(probe, submit(svc, probe, (await placeOrder(svc, probe)).id));
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit' });
  expect(so.events.find((e: any) => e.type === 'paused').details).toMatchObject({
    currentCostMinor: cost,
    limitMinor: below,
    currentStoreCostMinor: cost,
    limitStoreMinor: limitUsd,
    rate: '1',
    storeCurrency: 'USD',
  });
  expect(so.reviewMessage).toBe(
    `The items cost $${(cost / 100).toFixed(2)}, above the store's limit of €${(below / 100).toFixed(2)} ($${(limitUsd / 100).toFixed(2)}).`,
  );
  const above = Math.ceil(cost / 1.0705) + 1;
  await svc.call('PUT', `/api/store-suppliers/${probe.storeId}/${probe.connId}/automation`, {
    key: probe.owner.key,
    body: { costLimit: { amountMinor: above, currency: 'EUR' } },
  });
  const sent = await settled(probe, soAction(svc, probe, so._id, 'retry'));
  expect(sent).toMatchObject({ status: 'submitted', reviewReason: null });
});

test('a maximum buy price on the link: a supplier cost above it pauses the part costAboveLimit; the link shows it', async () => {
  const shop = await openShop(svc, sandbox, { page: 9 });
  const p = shop.products[0];
  const links = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${p.productId}`, { key: shop.owner.key });
  const linkId = links.body.result.items[0].id;
  const set = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, {
    key: shop.owner.key,
    body: {
      variants: [{ storeVariantId: p.variantId, supplierVariantId: p.supplierVariantId, maxBuyPrice: { amountMinor: p.costMinor - 1, currency: 'USD' } }],
    },
  });
  expect(set.status).toBe(200);
  expect(set.body.result.variants[0].maxBuyPrice).toEqual({ amountMinor: p.costMinor - 1, currency: 'USD' });
  const bad = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, {
    key: shop.owner.key,
    body: { variants: [{ storeVariantId: p.variantId, supplierVariantId: p.supplierVariantId, maxBuyPrice: { amountMinor: 1, currency: 'XYZ' } }] },
  });
  expect(bad.status).toBe(400);
  const so = await settled(shop, submit(svc, shop, (await placeOrder(svc, shop, { quantity: 3 })).id));
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit', supplierOrderId: null });
  expect(so.reviewMessage).toContain('maximum buy price');
  expect(so.profit).toMatchObject({ complete: false, missing: ['landedCost', 'acceptedCost'] });
  // At the cost exactly, it is not above: sent.
  await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${linkId}`, {
    key: shop.owner.key,
    body: { variants: [{ storeVariantId: p.variantId, supplierVariantId: p.supplierVariantId, maxBuyPrice: { amountMinor: p.costMinor, currency: 'USD' } }] },
  });
  expect(await settled(shop, soAction(svc, shop, so._id, 'retry'))).toMatchObject({ status: 'submitted' });
});

test("CJ's freight quote is the confirmation's shipping, and CJ's own order answer the accepted cost: the same, so nothing moved", async () => {
  // The sandbox part is above its limit; the rule sends it to its CJ alternate, which has no limit.
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 10, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } });
  const order = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  const cjOrder = await eventually(
    async () => {
      const sos = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${order.id}`, { key: shop.owner.key })).body.result.items;
      return sos.find((s: any) => s.integrationId === shop.cjConnId && s.status === 'submitted');
    },
    60000,
    'the part sent to CJ',
  );
  const [confirmation, accepted] = cjOrder.landedCosts;
  expect([confirmation.stage, accepted.stage]).toEqual(['confirmation', 'accepted']);
  expect(confirmation.shippingMinor).toBeGreaterThan(0);
  expect(confirmation).toMatchObject({
    currency: 'USD',
    itemsMinor: accepted.itemsMinor,
    shippingMinor: accepted.shippingMinor,
    totalMinor: accepted.totalMinor,
    rateSource: 'identity',
  });
  // What CJ really charged for the order it holds.
  const atCj = (await cjControl(fake, 'GET', '/received')).orders.find((o: any) => o.orderNumber === cjOrder.supplierOrderNumber);
  expect(atCj).toBeDefined();
  expect(cjOrder.costs.shippingMinor).toBe(confirmation.shippingMinor);
  expect(cjOrder.events.map((e: any) => e.type)).not.toContain('landedCostChanged');
});

test("a store order's profit: its parts' revenue less their landed costs and the payment provider's fee (reported by the provider, in the store's currency)", async () => {
  const shop = await openShop(svc, sandbox, { page: 11 });
  const payments = await connectPayments(svc, provider, shop.storeId, shop.owner.key);
  const order = await placeOrder(svc, shop, { paymentMethod: 'online', quantity: 2 });
  await payments.pay(order.id, 'paid');
  const fee = Math.floor((order.totalMinor * 29 + 500) / 1000) + 30;
  const before = await storeOrder(shop, order.id);
  expect(before.payments[0].fee).toEqual({ amountMinor: fee, currency: 'USD' });
  expect((await svc.db.query('SELECT fee_minor, fee_currency FROM payment_events WHERE order_id = $1', [order.id])).rows).toEqual([
    { fee_minor: String(fee), fee_currency: 'USD' },
  ]);
  // Paid, not sent yet: its fee shows in its own profit, as the report's sums count it (issue 53).
  expect(before.profit).toMatchObject({
    revenueMinor: 0,
    landedCostMinor: 0,
    paymentFeeMinor: fee,
    resultMinor: -fee,
    complete: false,
    missing: ['supplierOrders'],
  });
  const so = await settled(shop, submit(svc, shop, order.id));
  const landed = so.costs.totalMinor;
  const after = await storeOrder(shop, order.id);
  expect(after.profit).toEqual({
    currency: 'USD',
    revenueMinor: order.totalMinor,
    landedCostMinor: landed,
    landedCostStage: 'accepted',
    paymentFeeMinor: fee,
    refundedMinor: 0,
    supplierCreditMinor: 0,
    resultMinor: order.totalMinor - landed - fee,
    complete: true,
    missing: [],
  });
  // The workers fold the part's and the fee's deltas into the profit report's kept sums (server/orders/profit-fold.ts).
  const day = await eventually(
    async () => {
      const { rows } = await svc.db.query(
        `SELECT (SELECT count(*)::int FROM profit_deltas WHERE store_id = $1) AS pending, s.* FROM profit_sums s WHERE s.store_id = $1 AND s.grouping = 'day'`,
        [shop.storeId],
      );
      return rows.length && !rows[0].pending ? rows[0] : undefined;
    },
    15000,
    'the deltas folded',
  );
  expect(day).toMatchObject({
    orders: 1,
    parts: 1,
    revenue_minor: String(order.totalMinor),
    landed_cost_minor: String(landed),
    payment_fee_minor: String(fee),
    incomplete_parts: 0,
  });
});

leakScanTest();
