/**
 * Import in any currency (issue 53, item 4 and point 7; docs/decisions.md, "Import in any currency"), over real HTTP:
 * a JPY store and a KWD store (three decimals) import from the sandbox supplier (USD) and from the CJ server (USD),
 * priced by the rule after conversion at the rates service's rate, the rate kept with the link and shown by the
 * preview; the hourly sync converts before pricing, reprices when the converted cost moves, never below the rule's
 * minimum profit, and records the rate it used. The local ECB-format server gives the rates.
 */
import { startSandboxExchangeRates, type RunningSandboxExchangeRates } from '../../server/sandboxes/exchange-rates';
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { cjControl } from '../support/reroute';
import { Developer, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';

/* eslint-disable @typescript-eslint/no-explicit-any */

const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
// Per euro; no GBP, so a GBP store has no rate from USD.
const RATES = { USD: '1.0705', JPY: '171.94', KWD: '0.32810' };
const USD_JPY = '160.6165343298';
const USD_KWD = '0.3064922933';

/** amount × rate × 10^to / 10^from, half up, worked out here on its own (BigInt), not with the server's function. */
function converted(amountMinor: number, rate: string, fromDigits: number, toDigits: number): number {
  const [whole, frac = ''] = rate.split('.');
  const num = BigInt(amountMinor) * BigInt(whole + frac) * 10n ** BigInt(toDigits);
  const den = 10n ** BigInt(frac.length + fromDigits);
  return Number((2n * num + den) / (2n * den));
}

let ecb: RunningSandboxExchangeRates;
let sandbox: Sandbox;
let fake: RunningFakeCj;
let svc: Service;
let owner: Developer;
let catalogue: any[];

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
  svc = await startService({ label: 'import-currency', sandbox, env: { EXCHANGE_RATES_URL: ecb.dailyUrl, CJ_API_BASE_URL: fake.baseUrl } });
  await svc.waitForLog((l) => l.msg === 'exchange rates fetched', 60000);
  owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
  catalogue = (await sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=100&page=6')).body.items;
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
  await fake?.close();
  await ecb?.close();
});

const operator = (method: string, p: string, body?: unknown) =>
  svc.call(method, `/api/operator/exchange-rates${p}`, { body, headers: { 'X-Operator-Token': svc.operatorToken } });

async function storeIn(currency: string, supplier: 'sandbox' | 'cj' = 'sandbox') {
  const storeId = (await svc.call('POST', '/api/stores', { key: owner.key, body: { name: `${currency} store`, currency } })).body.result.id;
  const credentials =
    supplier === 'sandbox'
      ? { apiKey: (await sandbox.account()).liveKey }
      : { apiKey: (await cjControl(fake, 'POST', '/accounts', { balance: '1000.00', qps: 6 })).apiKey };
  const conn = await svc.call('POST', `/api/store-suppliers/${storeId}`, { key: owner.key, body: { supplierKey: supplier, mode: 'live', credentials } });
  expect(conn.status).toBe(201);
  return { storeId, connId: conn.body.result.id as string };
}
const variantsOf = async (storeId: string, productId: string) =>
  (await svc.call('GET', `/api/store-products/${storeId}/${productId}`, { key: owner.key })).body.result.variants as any[];

test('point 7: in a JPY store, the sync of a link made by hand converts the USD cost before the rule (not $16.05 read as ¥1,605) and records the rate', async () => {
  const { storeId, connId } = await storeIn('JPY');
  const p = catalogue.find((x: any) => x.variants[0].available);
  const made = await svc.call('POST', `/api/store-products/${storeId}`, {
    key: owner.key,
    body: { title: p.title, variants: [{ sku: `hand-${p.variants[0].id}`, title: 'One', priceMinor: 100, currency: 'JPY', stock: 5 }] },
  });
  const rule = { multiplier: '2', endingMinor: null, minimumProfitMinor: 0 };
  const link = await svc.call('POST', `/api/store-suppliers/${storeId}/links`, {
    key: owner.key,
    body: {
      productId: made.body.result.id,
      connectionId: connId,
      supplierProductId: p.id,
      variants: [{ storeVariantId: made.body.result.variants[0].id, supplierVariantId: p.variants[0].id }],
      priceRule: rule,
    },
  });
  expect(link.status).toBe(201);
  const synced = await svc.call('POST', `/api/store-suppliers/${storeId}/links/${link.body.result.id}/sync`, { key: owner.key });
  expect(synced.status).toBe(200);
  const yen = converted(p.variants[0].costMinor, USD_JPY, 2, 0);
  const [variant] = await variantsOf(storeId, made.body.result.id);
  expect([variant.currency, variant.priceMinor]).toEqual(['JPY', 2 * yen]);
  expect(synced.body.result).toMatchObject({ lastSyncError: null, costRate: { from: 'USD', to: 'JPY', rate: USD_JPY, source: 'ecb', asOfDate: day(-1) } });
});

test('a JPY store imports from the sandbox (USD): the preview shows the rate and the prices, the import makes them in yen and keeps the rate with the link', async () => {
  const { storeId, connId } = await storeIn('JPY');
  const p = catalogue[1];
  const preview = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import/preview`, {
    key: owner.key,
    body: { products: [{ supplierProductId: p.id }] },
  });
  expect(preview.status).toBe(200);
  const item = preview.body.result.items[0];
  expect(item).toMatchObject({ currencyMatchesStore: false, rate: { from: 'USD', to: 'JPY', rate: USD_JPY, source: 'ecb', asOfDate: day(-1) } });
  // Without a rule: twice the cost, no ending in a currency without minor units.
  const expected = p.variants.map((v: any) => 2 * converted(v.costMinor, USD_JPY, 2, 0));
  expect(item.variants.map((v: any) => [v.costMinor, v.currency, v.storeCostMinor, v.storeCurrency, v.priceMinor])).toEqual(
    p.variants.map((v: any, i: number) => [v.costMinor, 'USD', converted(v.costMinor, USD_JPY, 2, 0), 'JPY', expected[i]]),
  );

  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, { key: owner.key, body: { products: [{ supplierProductId: p.id }] } });
  expect(res.status).toBe(201);
  expect(res.body.result.errors).toEqual([]);
  expect(res.body.result.products[0].variants.map((v: any) => [v.currency, v.priceMinor])).toEqual(expected.map((x: number) => ['JPY', x]));
  const link = res.body.result.links[0];
  expect(link.costRate).toEqual({ from: 'USD', to: 'JPY', rate: USD_JPY, source: 'ecb', asOfDate: day(-1) });
  expect(link.priceRule).toMatchObject({ multiplier: '2', endingMinor: null });
  const row = (
    await svc.db.query(`SELECT cost_rate, cost_rate_source, to_char(cost_rate_as_of, 'YYYY-MM-DD') AS as_of FROM product_links WHERE id = $1`, [link.id])
  ).rows[0];
  expect(row).toEqual({ cost_rate: USD_JPY, cost_rate_source: 'ecb', as_of: day(-1) });
});

test('the sync reprices when the converted cost moves (a pinned rate), never below the minimum profit, and records the rate it used', async () => {
  const { storeId, connId } = await storeIn('JPY');
  const p = catalogue[2];
  const cost = p.variants[0].costMinor;
  // The floor governs: one times the cost plus ¥800.
  const rule = { multiplier: '1', endingMinor: null, minimumProfitMinor: 800 };
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: p.id, variantIds: [p.variants[0].id] }], priceRule: rule },
  });
  expect(res.status).toBe(201);
  const productId = res.body.result.products[0].id;
  expect(res.body.result.products[0].variants[0].priceMinor).toBe(converted(cost, USD_JPY, 2, 0) + 800);
  expect((await operator('PUT', '/USD/JPY', { rate: '150', reason: 'the rate moves for the test' })).status).toBe(200);
  try {
    const synced = await svc.call('POST', `/api/store-suppliers/${storeId}/links/${res.body.result.links[0].id}/sync`, { key: owner.key });
    expect(synced.body.result.costRate).toEqual({ from: 'USD', to: 'JPY', rate: '150', source: 'pinned', asOfDate: day() });
    const [variant] = await variantsOf(storeId, productId);
    expect(variant.priceMinor).toBe(converted(cost, '150', 2, 0) + 800);
    expect(variant.priceMinor - converted(cost, '150', 2, 0)).toBeGreaterThanOrEqual(800);
  } finally {
    await operator('DELETE', '/USD/JPY');
  }
});

test('a JPY store imports from CJ (USD), converted the same way', async () => {
  const { storeId, connId } = await storeIn('JPY', 'cj');
  const product = (await cjControl(fake, 'GET', '/catalogue')).find((x: any) => x.status === 3);
  const vid = product.variants[0].vid;
  await cjControl(fake, 'POST', `/variants/${vid}`, { sellPrice: '16.05', stock: 40 });
  const rule = { multiplier: '2', endingMinor: null, minimumProfitMinor: 0 };
  const preview = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import/preview`, {
    key: owner.key,
    body: { products: [{ supplierProductId: product.pid, variantIds: [vid] }], priceRule: rule },
  });
  expect(preview.body.result.items[0]).toMatchObject({
    rate: { from: 'USD', to: 'JPY', rate: USD_JPY },
    variants: [{ costMinor: 1605, currency: 'USD', storeCostMinor: 2578, priceMinor: 5156 }],
  });
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, {
    key: owner.key,
    body: { products: [{ supplierProductId: product.pid, variantIds: [vid] }], priceRule: rule },
  });
  expect(res.status).toBe(201);
  // $16.05 at 160.6165343298 = ¥2,577.9 → ¥2,578; twice that, not ¥3,210 (1,605 read as yen).
  expect(res.body.result.products[0].variants.map((v: any) => [v.currency, v.priceMinor])).toEqual([['JPY', 5156]]);
  expect(res.body.result.links[0].costRate).toMatchObject({ from: 'USD', to: 'JPY', rate: USD_JPY, source: 'ecb' });
});

test('a KWD store (three decimals) imports from the sandbox: fils, the default ending .990', async () => {
  const { storeId, connId } = await storeIn('KWD');
  const p = catalogue[3];
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, { key: owner.key, body: { products: [{ supplierProductId: p.id }] } });
  expect(res.status).toBe(201);
  const roundUp990 = (x: number) => (x % 1000 <= 990 ? x - (x % 1000) + 990 : x - (x % 1000) + 1990);
  expect(res.body.result.products[0].variants.map((v: any) => [v.currency, v.priceMinor])).toEqual(
    p.variants.map((v: any) => ['KWD', roundUp990(2 * converted(v.costMinor, USD_KWD, 2, 3))]),
  );
  expect(res.body.result.links[0].costRate).toMatchObject({ from: 'USD', to: 'KWD', rate: USD_KWD });
});

test("without a rate into the store's currency nothing is imported (rateUnavailable), and a linked product is not repriced", async () => {
  const { storeId, connId } = await storeIn('GBP');
  const p = catalogue[4];
  const res = await svc.call('POST', `/api/store-suppliers/${storeId}/${connId}/import`, { key: owner.key, body: { products: [{ supplierProductId: p.id }] } });
  expect(res.status).toBe(422);
  expect(res.body.error.details).toEqual([{ supplierProductId: p.id, code: 'rateUnavailable', message: expect.stringContaining('USD to GBP') }]);
  expect((await svc.db.query('SELECT count(*)::int AS n FROM store_products WHERE store_id = $1', [storeId])).rows[0].n).toBe(0);
});
