/**
 * Landed cost and profit (issue 41, items 2–4 and 6; docs/decisions.md, "Landed cost and profit"), over real HTTP
 * with the sandbox supplier (USD) and the local ECB-format server: the landed cost recorded at confirmation, when the
 * supplier accepts and when it is paid, each in the supplier's and the store's currency with its rate; a rate change
 * between them shows; a stale rate pauses and the part resumes by itself; limits and maximum buy prices in other
 * currencies are converted; profit is complete only once the supplier accepted; `storeOrder.profitChanged`.
 */
import { startSandboxExchangeRates, type RunningSandboxExchangeRates } from '../../server/sandboxes/exchange-rates';
import { eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { groupOf, openShop, placeOrder, Shop, soAction, submit, US_ADDRESS } from '../support/orders';

const DAY_MS = 86_400_000;
const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
// Per euro, as the ECB publishes them: USD→JPY = 171.94 / 1.0705 = 160.6165343298 (10 decimals, half up).
const RATES = { USD: '1.0705', JPY: '171.94', GBP: '0.84638' };
const USD_JPY = '160.6165343298';

let ecb: RunningSandboxExchangeRates;
let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  process.env.SANDBOX_LOG_LEVEL ??= 'silent';
  ecb = await startSandboxExchangeRates({ control: true });
  await fetch(`${ecb.baseUrl}/control/rates`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ date: day(-1), rates: RATES }) });
  sandbox = await startSandbox();
  svc = await startService({ label: 'landed-cost', sandbox, env: { EXCHANGE_RATES_URL: ecb.dailyUrl, DISPATCH_SWEEP_SECONDS: '1' } });
  await svc.waitForLog((l) => l.msg === 'exchange rates fetched', 60000);
});
afterAll(async () => {
  if (process.env.LANDED_DEBUG) for (const l of svc.logs.filter((x) => Number(x.level) >= 40)) console.log(JSON.stringify(l).slice(0, 1500));
  await svc.stop();
  await sandbox.close();
  await ecb.close();
});

const operator = (method: string, p: string, body?: unknown) => svc.call(method, `/api/operator/exchange-rates${p}`, { body, headers: { 'X-Operator-Token': svc.operatorToken } });
const supplierOrder = (shop: Shop, id: string) => svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const storeOrder = (shop: Shop, id: string) => svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key }).then((r) => r.body.result);

/** The order a submit or retry answered, once its job is done with it (a 202 is followed). */
async function settled(shop: Shop, answer: Promise<{ status: number; body: any; text: string }>): Promise<any> {
  const res = await answer;
  if (res.status === 200) return res.body.result;
  if (res.status !== 202) throw new Error(res.text);
  return eventually(async () => {
    const so = await supplierOrder(shop, res.body.result._id);
    return so.status !== 'queued' ? so : undefined;
  }, 60000, 'the job behind a 202');
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
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, { key: owner.key, body: { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: account.liveKey } } });
  if (conn.status !== 201) throw new Error(conn.text);
  const items = (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=50&page=${page}`)).body.items;
  const p = items.find((x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 50);
  const product = await svc.call('POST', `/api/store-products/${storeId}`, { key: owner.key, body: { title: p.title, variants: [{ sku: `sku-${p.variants[0].id}`, title: 'One', priceMinor, currency, stock: 100 }] } });
  if (product.status !== 201) throw new Error(product.text);
  const variantId = product.body.result.variants[0].id;
  const link = await svc.call('POST', `/api/store-suppliers/${storeId}/links`, {
    key: owner.key,
    body: { productId: product.body.result.id, connectionId: conn.body.result.id, supplierProductId: p.id, variants: [{ storeVariantId: variantId, supplierVariantId: p.variants[0].id }], sync: { price: false } },
  });
  if (link.status !== 201) throw new Error(link.text);
  return {
    owner, storeId, connId: conn.body.result.id, account, linkId: link.body.result.id,
    products: [{ productId: product.body.result.id, variantId, supplierVariantId: p.variants[0].id, supplierProductId: p.id, costMinor: p.variants[0].costMinor }],
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
  const stage = (s: string) => ({ stage: s, currency: 'USD', itemsMinor: items, shippingMinor: shipping, totalMinor: items + shipping, storeCurrency: 'JPY', storeTotalMinor: yen, rate: USD_JPY, rateSource: 'ecb', rateAsOf: day(-1), recordedAt: expect.any(String) });
  expect(so.landedCosts).toEqual([stage('confirmation'), stage('accepted')]);
  // Accepted: the profit is complete, in yen (the provider's fee is the store order's).
  expect(so.profit).toEqual({ currency: 'JPY', revenueMinor: 18000, landedCostMinor: yen, landedCostStage: 'accepted', paymentFeeMinor: null, resultMinor: 18000 - yen, complete: true, missing: [] });
  const rows = await svc.db.query(`SELECT stage, currency, total_minor, store_currency, store_total_minor, rate, rate_source FROM landed_costs WHERE supplier_order_id = $1 ORDER BY stage`, [so._id]);
  expect(rows.rows).toEqual([
    { stage: 'accepted', currency: 'USD', total_minor: String(items + shipping), store_currency: 'JPY', store_total_minor: String(yen), rate: USD_JPY, rate_source: 'ecb' },
    { stage: 'confirmation', currency: 'USD', total_minor: String(items + shipping), store_currency: 'JPY', store_total_minor: String(yen), rate: USD_JPY, rate_source: 'ecb' },
  ]);
  const details = await storeOrder(shop, order.id);
  expect(details.profit).toEqual({ currency: 'JPY', revenueMinor: 18000, landedCostMinor: yen, landedCostStage: 'accepted', paymentFeeMinor: 0, resultMinor: 18000 - yen, complete: true, missing: [] });
});

leakScanTest();
