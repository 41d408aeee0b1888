/**
 * One sourcing decision in every currency (issue 51, items 4 and 5), over real HTTP: a USD store whose primary is the
 * sandbox supplier (USD) and whose backup is the sandbox program's second warehouse on an account keeping its books in
 * EUR or in JPY; the local ECB-format server gives the rates. A part routed or rerouted there goes through, each amount
 * in its own currency and the store's; and parts waiting for a rate resume by turns across stores.
 */
import { startSandboxExchangeRates, type RunningSandboxExchangeRates } from '../../server/sandboxes/exchange-rates';
import { eventually, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, Shop } from '../support/orders';
import { connectEu, euControl, euProduct } from '../support/reroute';

/* eslint-disable @typescript-eslint/no-explicit-any */

const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
// Per euro, as the ECB publishes them; no KWD: a pair with it never has a rate here.
const RATES = { USD: '1.0705', JPY: '171.94', GBP: '0.84638' };

let ecb: RunningSandboxExchangeRates;
let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  ecb = await startSandboxExchangeRates({ control: true });
  await fetch(`${ecb.baseUrl}/control/rates`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ date: day(-1), rates: RATES }),
  });
  sandbox = await startSandbox();
  svc = await startService({
    label: 'sourcing-currencies',
    sandbox,
    env: { EXCHANGE_RATES_URL: ecb.dailyUrl, SANDBOX_SUPPLIER_EU: 'true', DISPATCH_SWEEP_SECONDS: '1', JOB_SUPERVISE_SECONDS: '1' },
  });
  await svc.waitForLog((l) => l.msg === 'exchange rates fetched', 60000);
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
  await ecb?.close();
});

const partsOf = async (shop: Shop, orderId: string) =>
  ((await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key })).body.result.items as any[]).sort((a, b) =>
    a.createdAt.localeCompare(b.createdAt),
  );

/** A USD store on the sandbox, its product backed by the second warehouse on an account in `currency`, at `factor` of its cost. */
async function backedShop(page: number, currency: string, factor: number, automation: Record<string, unknown> = {}) {
  const shop = await openShop(svc, sandbox, { page, products: 1, automation: { level: 'automatic', allowUnpaidOrders: true, ...automation } });
  const euConn = await connectEu(svc, sandbox, shop, currency);
  const alternate = await euProduct(sandbox, euConn, Math.round(shop.products[0].costMinor * factor));
  const links = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/links?productId=${shop.products[0].productId}`, { key: shop.owner.key });
  const set = await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/links/${links.body.result.items[0].id}`, {
    key: shop.owner.key,
    body: { alternates: [{ storeVariantId: shop.products[0].variantId, ...alternate }] },
  });
  expect(set.status).toBe(200);
  return { ...shop, euConn, alternate };
}

async function confirmed(shop: Shop) {
  const order = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  return order;
}

/** The second warehouse's own record of an order number. */
async function atEu(orderNumber: string) {
  return (await euControl(sandbox, 'GET', '/received')).orders.filter((o: any) => o.orderNumber === orderNumber);
}

test('routed to a cheaper EUR backup: sent there (no costChanged), priced, recorded and told in euros and in dollars with the rate', async () => {
  const shop = await backedShop(3, 'EUR', 0.3);
  expect(
    (await svc.call('PUT', `/api/store-suppliers/${shop.storeId}/routing`, { key: shop.owner.key, body: { routing: { rule: 'lowestLandedCost' } } })).status,
  ).toBe(200);
  const order = await confirmed(shop);
  const [first, second] = await eventually(
    async () => {
      const sos = await partsOf(shop, order.id);
      return sos.length === 2 && sos[1].status !== 'queued' ? sos : undefined;
    },
    30000,
    'the part routed to the second warehouse',
  );
  expect(first).toMatchObject({ integrationId: shop.connId, status: 'cancelled' });
  expect(second).toMatchObject({ integrationId: shop.euConn, supplierKey: 'sandbox-eu', status: 'submitted', reviewReason: null, costs: { currency: 'EUR' } });

  const quote = first.events.find((e: any) => e.type === 'routed').details.candidates.find((c: any) => c.connectionId === shop.euConn);
  expect(quote).toMatchObject({ currency: 'EUR', storeCurrency: 'USD', rate: '1.0705', rateSource: 'ecb', shippingService: 'standard' });
  expect(quote.totalMinor).toBe(quote.itemsMinor + quote.shippingMinor);
  expect(first.events.at(-1).details.landed).toMatchObject({
    currency: 'EUR',
    totalMinor: quote.totalMinor,
    storeCurrency: 'USD',
    storeTotalMinor: quote.storeTotalMinor,
    rate: '1.0705',
  });
  // The items carry the cost the move accepted with its own currency.
  const { rows: items } = await svc.db.query(
    'SELECT link_cost_minor, link_currency, recorded_currency FROM store_order_items WHERE store_id = $1 AND order_id = $2',
    [shop.storeId, order.id],
  );
  expect(items).toEqual([{ link_cost_minor: String(quote.itemsMinor), link_currency: 'EUR', recorded_currency: 'USD' }]);
  // Landed at confirmation in euros and in dollars, at the rate, from the quote that chose it.
  expect(second.landedCosts[0]).toMatchObject({
    stage: 'confirmation',
    currency: 'EUR',
    totalMinor: quote.totalMinor,
    storeCurrency: 'USD',
    storeTotalMinor: quote.storeTotalMinor,
    rate: '1.0705',
  });
  // The warehouse's own record: one order, charged in euros.
  expect((await atEu(second.supplierOrderNumber)).map((o: any) => [o.currency, o.status, o.totalMinor])).toEqual([['EUR', 'created', quote.totalMinor]]);
});

test("rerouted to a JPY backup: under the ceiling in dollars, sent there (no costChanged), the difference in the store's currency, yen and dollars in the history", async () => {
  const shop = await backedShop(4, 'JPY', 0.9, { reroute: { reasons: ['variantUnavailable'], maxCostIncreasePercent: 10 } });
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { stock: 0 });
  const order = await confirmed(shop);
  const [first, second] = await eventually(
    async () => {
      const sos = await partsOf(shop, order.id);
      return sos.length === 2 && sos[1].status !== 'queued' ? sos : undefined;
    },
    30000,
    'the part rerouted to the second warehouse',
  );
  expect(first).toMatchObject({ integrationId: shop.connId, status: 'cancelled' });
  expect(second).toMatchObject({ integrationId: shop.euConn, status: 'submitted', reviewReason: null, costs: { currency: 'JPY' } });
  const rerouted = first.events.find((e: any) => e.type === 'rerouted').details;
  expect(rerouted.landed).toMatchObject({ currency: 'JPY', storeCurrency: 'USD', rate: '0.0062260091', rateSource: 'ecb' });
  // The recorded cost was in dollars and the backup prices in yen: the difference is in the store's currency.
  expect(rerouted.currency).toBe('USD');
  expect(rerouted.costDifferenceMinor).toBeLessThan(0);
  expect(Number.isInteger(rerouted.landed.totalMinor) && rerouted.landed.totalMinor > 0).toBe(true);
  expect(second.landedCosts[0]).toMatchObject({ stage: 'confirmation', currency: 'JPY', storeCurrency: 'USD', rate: '0.0062260091' });
  expect((await atEu(second.supplierOrderNumber)).map((o: any) => o.currency)).toEqual(['JPY']);
});

/** A store selling in `currency` on a sandbox account keeping its books in KWD, linked by hand, sending by itself. */
async function kwdShop(currency: string, page: number): Promise<Shop> {
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
  const store = await svc.call('POST', '/api/stores', { key: owner.key, body: { name: `${currency} store`, currency } });
  expect(store.status).toBe(201);
  const storeId = store.body.result.id;
  const account = await sandbox.control('POST', '/accounts', { currency: 'KWD' });
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, {
    key: owner.key,
    body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: account.liveKey } },
  });
  expect(conn.status).toBe(201);
  const connId = conn.body.result.id;
  await svc.call('PUT', `/api/store-suppliers/${storeId}/${connId}/automation`, { key: owner.key, body: { level: 'automatic', allowUnpaidOrders: true } });
  const p = (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=50&page=${page}`)).body.items.find(
    (x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 300,
  );
  const product = await svc.call('POST', `/api/store-products/${storeId}`, {
    key: owner.key,
    body: { title: p.title, variants: [{ sku: `sku-${p.variants[0].id}`, title: 'One', priceMinor: 9000, currency, stock: 1000 }] },
  });
  const variantId = product.body.result.variants[0].id;
  const link = await svc.call('POST', `/api/store-suppliers/${storeId}/links`, {
    key: owner.key,
    body: {
      productId: product.body.result.id,
      connectionId: connId,
      supplierProductId: p.id,
      variants: [{ storeVariantId: variantId, supplierVariantId: p.variants[0].id }],
      sync: { price: false },
    },
  });
  expect(link.status).toBe(201);
  return {
    owner,
    storeId,
    connId,
    account,
    products: [{ productId: product.body.result.id, variantId, supplierVariantId: p.variants[0].id, supplierProductId: p.id, costMinor: 0 }],
  };
}

const waiting = async (storeId: string) =>
  (
    await svc.db.query(
      `SELECT count(*)::int AS n FROM supplier_orders WHERE store_id = $1 AND status = 'needsReview' AND review_reason = 'exchangeRateUnavailable'`,
      [storeId],
    )
  ).rows[0].n;

test("fair resumption: 250 of one store's parts waiting on a pair that never has a rate hold no other store's part back once its rate is pinned", async () => {
  const a = await kwdShop('GBP', 5);
  const orders: string[] = [];
  for (let i = 0; i < 250; i += 25) {
    const batch = await Promise.all(Array.from({ length: 25 }, () => placeOrder(svc, a)));
    await Promise.all(
      batch.map(async (o) => expect((await svc.call('POST', `/api/store-orders/${a.storeId}/${o.id}/confirm`, { key: a.owner.key })).status).toBe(200)),
    );
    orders.push(...batch.map((o) => o.id));
  }
  await eventually(async () => ((await waiting(a.storeId)) === 250 ? true : undefined), 120000, "store A's 250 parts to wait on KWD>GBP");
  // Store B's part waits on KWD>USD, after all of A's (older, so first in any oldest-first read).
  const b = await kwdShop('USD', 6);
  const order = await placeOrder(svc, b);
  expect((await svc.call('POST', `/api/store-orders/${b.storeId}/${order.id}/confirm`, { key: b.owner.key })).status).toBe(200);
  await eventually(async () => ((await waiting(b.storeId)) === 1 ? true : undefined), 30000, "store B's part to wait on KWD>USD");

  const pin = await svc.call('PUT', '/api/operator/exchange-rates/KWD/USD', {
    body: { rate: '3.25', reason: 'the ECB publishes no KWD' },
    headers: { 'X-Operator-Token': svc.operatorToken },
  });
  expect(pin.status).toBeLessThan(300);
  const [so] = await eventually(
    async () => {
      const sos = await partsOf(b, order.id);
      return sos[0].status === 'submitted' ? sos : undefined;
    },
    30000,
    "store B's part to resume once its rate is pinned",
  );
  expect(so.events.some((e: any) => e.type === 'retry' && e.details.resumed === 'exchangeRateAvailable')).toBe(true);
  expect(so.landedCosts[0]).toMatchObject({ currency: 'KWD', storeCurrency: 'USD', rate: '3.25', rateSource: 'pinned' });
  expect(await waiting(a.storeId)).toBe(250);
}, 240000);
