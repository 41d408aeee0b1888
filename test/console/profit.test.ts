/**
 * Margin and profit in the console, in a real browser (issue 41, item 5): a euro store buying from the sandbox supplier
 * (USD) at the local ECB-format server's rates shows each part's and the order's margin in euros, with the rate, its
 * source and as-of date on hover; the profit page shows the report's totals, rows and a chart drawn by uPlot, every
 * figure checked against the service's own answers (GET …/reports/profit, the order's `profit`).
 */
import type { Page } from 'playwright-core';
import { startSandboxExchangeRates, type RunningSandboxExchangeRates } from '../../server/sandboxes/exchange-rates';
import { eventually } from '../support/harness';
import { type PaymentSandbox, startPaymentSandbox } from '../support/payments';
import { US_ADDRESS } from '../support/orders';
import { browserSuite } from './chromium';
import { creditAndRefund } from './money-back';
import { ConsoleWorld, openConsole } from './session';

jest.setTimeout(180_000);

const browser = browserSuite();

const DAY_MS = 86_400_000;
const day = (offsetDays = 0) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);
const eur = (minor: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(minor / 100);
const usd = (minor: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(minor / 100);

let ecb: RunningSandboxExchangeRates;
let provider: PaymentSandbox;
let w: ConsoleWorld;
let page: Page;
let storeId: string;
let connId: string;
let productTitle: string;
let order: { id: string; number: string };
const api = (method: string, path: string, body?: unknown) => w.svc.call(method, path, { key: w.owner.key, body });
const part = () => page.locator(`section.part[data-part="supplier:${connId}"]`);

browser.describe("margin and profit in the store's currency", () => {
  beforeAll(async () => {
    process.env.SANDBOX_LOG_LEVEL ??= 'silent';
    ecb = await startSandboxExchangeRates({ control: true });
    await fetch(`${ecb.baseUrl}/control/rates`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ date: day(-1), rates: { USD: '1.0705' } }),
    });
    provider = await startPaymentSandbox();
    w = await openConsole(browser.chromium(), {
      label: 'console_profit',
      publicBaseUrl: true,
      payments: provider,
      env: { EXCHANGE_RATES_URL: ecb.dailyUrl, CLAIM_CHECK_SECONDS: '2' },
    });
    page = w.page;
    await w.svc.waitForLog((l) => l.msg === 'exchange rates fetched', 60_000);
    // A euro store whose product is linked by hand to a sandbox (USD) variant.
    storeId = (await api('POST', '/api/stores', { name: 'Euro Shop', currency: 'EUR' })).body.result.id;
    const account = await w.sandbox.account(10_000_000);
    connId = (await api('POST', `/api/store-suppliers/${storeId}`, { supplierKey: 'sandbox', mode: 'live', credentials: { apiKey: account.liveKey } })).body
      .result.id;
    const items = (await w.sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=50&page=5')).body.items;
    const p = items.find((x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 50);
    productTitle = p.title;
    const made = (
      await api('POST', `/api/store-products/${storeId}`, {
        title: p.title,
        variants: [{ sku: `EU-${p.variants[0].id}`, title: 'One', priceMinor: 9900, currency: 'EUR', stock: 100 }],
      })
    ).body.result;
    const link = await api('POST', `/api/store-suppliers/${storeId}/links`, {
      productId: made.id,
      connectionId: connId,
      supplierProductId: p.id,
      variants: [{ storeVariantId: made.variants[0].id, supplierVariantId: p.variants[0].id }],
      sync: { price: false },
    });
    expect(link.status).toBe(201);
    const placed = await api('POST', `/api/store-orders/${storeId}`, {
      items: [{ productId: made.id, variantId: made.variants[0].id, quantity: 1 }],
      destination: US_ADDRESS,
      paymentMethod: 'manual',
    });
    expect(placed.status).toBe(201);
    order = placed.body.result;
    expect(
      (await api('POST', `/api/store-suppliers/${storeId}/orders/${order.id}/groups/${encodeURIComponent(`supplier:${connId}`)}/submit`, { payNow: true }))
        .status,
    ).toBeLessThan(300);
    await eventually(
      async () => {
        const so = (await api('GET', `/api/store-orders/${storeId}/${order.id}`)).body.result.supplierOrders[0];
        return so?.profit?.complete ? so : undefined;
      },
      60_000,
      'the part accepted by the supplier',
    );
    await w.signIn();
    await page.getByLabel('Store').selectOption({ label: 'Euro Shop' });
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
  });
  afterAll(async () => {
    await w?.close();
    await ecb?.close();
    await provider?.close();
  });

  test('the order page: margin per part and per order in euros, each converted amount with its rate, source and as-of date on hover', async () => {
    const details = (await api('GET', `/api/store-orders/${storeId}/${order.id}`)).body.result;
    const so = details.supplierOrders[0];
    const landed = so.landedCosts.find((l: any) => l.stage === so.profit.landedCostStage);
    expect(landed).toMatchObject({ currency: 'USD', storeCurrency: 'EUR', rateSource: 'ecb', rateAsOf: day(-1) });
    expect(so.profit).toMatchObject({ currency: 'EUR', revenueMinor: 9900, landedCostMinor: landed.storeTotalMinor, complete: true });
    await w.openOrder(order);
    const share = (p: { resultMinor: number; revenueMinor: number }) => ((p.resultMinor / p.revenueMinor) * 100).toFixed(1);
    expect(await part().locator('p.margin').innerText()).toBe(
      `Sold for ${eur(9900)} · landed cost ${eur(so.profit.landedCostMinor)} · margin ${eur(so.profit.resultMinor)} (${share(so.profit)}%)`,
    );
    expect(await part().locator('p.margin').getAttribute('data-cost')).toBe('known');
    const hover = `${usd(landed.totalMinor)} (USD) converted to EUR at 1 USD = ${landed.rate} EUR, the European Central Bank's reference rate as of ${day(-1)}. Recorded ${landed.stage === 'paid' ? 'when the supplier was paid' : 'when the supplier accepted the order'}.`;
    expect(await part().locator('.converted').getAttribute('title')).toBe(hover);
    // The order's line: its parts less the payment provider's fee (none for an order paid by hand).
    const p = details.profit;
    expect(p).toMatchObject({ currency: 'EUR', complete: true, paymentFeeMinor: 0 });
    expect(await page.locator('dd .margin').innerText()).toBe(
      `Sold for ${eur(p.revenueMinor)} · landed cost ${eur(p.landedCostMinor)} · margin ${eur(p.resultMinor)} (${share(p)}%)`,
    );
    expect(await page.locator('dd .margin .converted').getAttribute('title')).toBe(`${so.supplierOrderNumber}: ${hover}`);
    await part().locator('.converted').hover();
    await part().locator('.converted').focus();
    await w.shot('order-margin-rate');
  });

  test("the profit page: the report's totals, its rows and a chart, by day and by product, refunds and supplier credits as their own series", async () => {
    await creditAndRefund(w, provider, { storeId, orderId: order.id, connId });
    const report = async (groupBy: string) => {
      const res = await api('GET', `/api/store-suppliers/${storeId}/reports/profit?from=${day(-29)}&to=${day()}&groupBy=${groupBy}`);
      expect(res.status).toBe(200);
      return res.body.result;
    };
    const byDay = await report('day');
    // The report's sums are the orders' own: this store has two, one credited by its supplier, one refunded in part.
    const list = (await api('GET', `/api/store-orders/${storeId}?pageSize=10`)).body.result.items;
    const owns = await Promise.all(list.map(async (o: any) => (await api('GET', `/api/store-orders/${storeId}/${o.id}`)).body.result.profit));
    const sum = (k: string) => owns.reduce((a: number, p: any) => a + (p[k] ?? 0), 0);
    expect(byDay.totals).toEqual({
      orders: 2,
      parts: 2,
      revenueMinor: sum('revenueMinor'),
      landedCostMinor: sum('landedCostMinor'),
      paymentFeeMinor: sum('paymentFeeMinor'),
      supplierCreditMinor: sum('supplierCreditMinor'),
      refundMinor: 150,
      resultMinor: sum('resultMinor'),
      incompleteParts: 0,
    });
    expect(byDay.totals.supplierCreditMinor).toBeGreaterThan(0);
    await w.go('profit', 'Profit');
    const total = (name: string) => page.locator(`dd[data-total="${name}"]`).innerText();
    expect(await total('orders')).toBe('2');
    expect(await total('revenue')).toBe(eur(byDay.totals.revenueMinor));
    expect(await total('landedCost')).toBe(eur(byDay.totals.landedCostMinor));
    expect(await total('paymentFee')).toBe(eur(byDay.totals.paymentFeeMinor));
    // Supplier credits and refunds are figures and series of their own (issue 53).
    expect(await total('supplierCredit')).toBe(eur(byDay.totals.supplierCreditMinor));
    expect(await total('refund')).toBe(eur(150));
    expect(await total('result')).toBe(eur(byDay.totals.resultMinor));
    expect(await page.locator('table.profit-rows tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')))).toEqual(
      byDay.items.map((i: any) => i.key),
    );
    expect(await page.locator('table.profit-rows th').allInnerTexts()).toEqual([
      'Day',
      'Orders',
      'Parts',
      'Sold for',
      'Refunds',
      'Landed cost',
      'Supplier credits',
      'Payment fees',
      'Margin',
      'Not final',
    ]);
    const t = byDay.totals;
    expect(await page.locator(`table.profit-rows tr[data-key="${day()}"] td`).allInnerTexts()).toEqual([
      day(),
      '2',
      '2',
      eur(t.revenueMinor),
      eur(150),
      eur(t.landedCostMinor),
      eur(t.supplierCreditMinor),
      eur(t.paymentFeeMinor),
      eur(t.resultMinor),
      '',
    ]);
    await expectChartDrawn('day');
    const legend = await page.locator('.chart[data-group-by="day"] .u-legend').innerText();
    expect([legend.includes('Supplier credits'), legend.includes('Refunds')]).toEqual([true, true]);
    await w.shot('profit');

    const byProduct = await report('product');
    await page.getByLabel('Group by').selectOption('product');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.locator('.chart[data-group-by="product"]').waitFor();
    expect(await page.locator('table.profit-rows tbody tr td:first-child').allInnerTexts()).toEqual(byProduct.items.map((i: any) => i.label));
    expect(byProduct.items.map((i: any) => i.label)).toEqual([productTitle]);
    expect(byProduct.items[0]).toMatchObject({ refundMinor: 150, supplierCreditMinor: t.supplierCreditMinor, paymentFeeMinor: t.paymentFeeMinor });
    await expectChartDrawn('product');
    await w.shot('profit-by-product');
  });

  test('the pages raised no script error', () => {
    expect(w.browser.errors).toEqual([]);
  });
});

/** uPlot drew the chart: its canvas exists and holds coloured pixels beyond the axes' grey. */
async function expectChartDrawn(groupBy: string): Promise<void> {
  const canvas = page.locator(`.chart[data-group-by="${groupBy}"] canvas`);
  await canvas.waitFor();
  const coloured = await canvas.evaluate((c: HTMLCanvasElement) => {
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    // Series colours are saturated; axes and grid lines are grey (r ≈ g ≈ b).
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 40) n++;
    return n;
  });
  expect(coloured).toBeGreaterThan(20);
}

browser.end();
