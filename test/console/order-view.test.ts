/**
 * What a merchant reads of an order in the console, in a real browser: its items by product, the cost and margin of
 * each part and of the order (a cost in another currency named, never added), the customer in the orders list and a
 * search by customer (none for staff without customer data), words that follow the connection's real automation, and
 * the shipping-method rule on the connection page. Every figure is checked against the service's own answers.
 */
import type { Page } from 'playwright-core';
import { eventually, newDeveloper } from '../support/harness';
import { US_ADDRESS } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox, StorePayments } from '../support/payments';
import { browserSuite } from './chromium';
import { ConsoleWorld, openConsole } from './session';
import { connectAndImport, placeOrder, usd } from './shop';

jest.setTimeout(180_000);

// Said out loud, never a silent skip; in CI never a skip at all: the suite runs and fails.
const browser = browserSuite();

let w: ConsoleWorld;
let page: Page;
let provider: PaymentSandbox;
let payments: StorePayments;
let connId: string;
let product: Awaited<ReturnType<typeof connectAndImport>>['product'];
const api = (method: string, path: string, body?: unknown) => w.svc.call(method, path, { key: w.owner.key, body });
const storeOrder = async (id: string) => (await api('GET', `/api/store-orders/${w.storeId}/${id}`)).body.result;
const part = () => page.locator(`section.part[data-part="supplier:${connId}"]`);
const card = () => page.locator('section.payment');
const GRACE = { ...US_ADDRESS, name: 'Grace Hopper', email: 'grace.hopper@navy.example' };
const eur = (minor: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' }).format(minor / 100);
/** "margin $38.33 (44.6%)", as the page works it out from what the service answered. */
const margin = (sold: number, cost: number) => `margin ${usd(sold - cost)} (${(((sold - cost) / sold) * 100).toFixed(1)}%)`;

const newOrder = (paymentMethod: string, destination: Record<string, string> = US_ADDRESS, item = { productId: product.id, variantId: product.variantId }) =>
  placeOrder(w, item, { paymentMethod, destination });
const openOrder = (order: { id: string; number: string }) => w.openOrder(order);

browser.describe('reading orders in the console', () => {
  beforeAll(async () => {
    provider = await startPaymentSandbox();
    w = await openConsole(browser.chromium(), { label: 'console_view', publicBaseUrl: true, payments: provider });
    page = w.page;
    payments = await connectPayments(w.svc, provider, w.storeId, w.owner.key);
    // As the demo connection is set: orders go when someone sends them, and the supplier is paid by hand.
    ({ connId, product } = await connectAndImport(w, { page: 9, fits: (p) => p.variants.length > 1 }));
    expect((await api('GET', `/api/store-suppliers/${w.storeId}`)).body.result[0].automation).toMatchObject({ level: 'manual', automaticPayment: false });
    await w.signIn();
  });
  afterAll(async () => {
    await w?.close();
    await provider?.close();
  });

  test('a connection that pays by hand: no sentence says the service may pay the supplier automatically', async () => {
    const paid = await newOrder('online');
    await payments.pay(paid.id, 'paid');
    await eventually(async () => ((await storeOrder(paid.id)).paymentStatus === 'paid' ? true : undefined), 30_000, "the provider's payment");
    await openOrder(paid);
    expect(await card().innerText()).toMatch(
      new RegExp(
        `Payment provider says\\s+paid \\${usd(paid.totalMinor)}: the supplier is paid only when you pay it \\(its connection does not pay automatically\\)`,
      ),
    );
    expect(await part().locator('p.automation').innerText()).toBe(
      'It sends an order to the supplier only when you send it, and leaves paying the supplier to you: pay now when you send it, or Pay on its supplier order.',
    );
    await part().getByRole('button', { name: 'Send to the supplier…' }).click();
    expect(await page.getByRole('dialog').innerText()).toContain(
      "The payment provider confirmed the shopper's payment. This connection does not pay the supplier by itself: without pay now, the supplier order waits unpaid until you pay it.",
    );
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('#app').innerText()).not.toMatch(/pay the supplier automatically/);

    const byHand = await newOrder('manual');
    await openOrder(byHand);
    await page.getByRole('button', { name: 'Confirm the order' }).click();
    const confirm = await page.getByRole('dialog').innerText();
    expect(confirm).toContain(
      `Sandbox Supplier · ${(await api('GET', `/api/store-suppliers/${w.storeId}`)).body.result[0].accountLabel}: waits for you to send it.`,
    );
    expect(confirm).not.toContain('automatically');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await card().getByRole('button', { name: 'Mark as paid…' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.innerText()).toContain(
      'A mark by hand confirms the order. The supplier is paid only when you pay it: send the supplier part with "pay now", or press Pay on its supplier order.',
    );
    expect(await dialog.innerText()).not.toContain('automatically');
    await dialog.getByRole('button', { name: 'Mark as paid' }).click();
    await page
      .locator('#notice.ok')
      .getByText(`Order ${byHand.number} is marked paid by hand and confirmed. Pay the supplier yourself`, { exact: false })
      .waitFor();
    expect(await card().locator('ol.payments').innerText()).toMatch(/A person's word, not the provider's: it confirms the order\.$/);
    expect(await page.locator('#app').innerText()).not.toMatch(/pay the supplier automatically|paid automatically/);
  });

  test("items by product; cost and margin per part and per order, in the store's currency, from the supplier order's costs", async () => {
    const order = await newOrder('manual');
    await openOrder(order);
    expect(await part().locator('ul.items').innerText()).toBe(
      `1 × ${product.title} — ${product.variant.title} (${product.variant.sku}) at ${usd(product.variant.priceMinor)}`,
    );
    expect(await part().locator('p.margin').innerText()).toBe(
      `Sold for ${usd(product.variant.priceMinor)} · cost not known: the supplier says it once the part is sent.`,
    );
    expect(await page.locator('dd .margin').innerText()).toBe(
      'Not known yet: no supplier part has a cost so far (the supplier says it once the part is sent).',
    );

    await part().getByRole('button', { name: 'Send to the supplier…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    // On a busy machine the send may answer "still working" (202): the page is read again until it shows the cost.
    const so = await eventually(
      async () => {
        const s = (await storeOrder(order.id)).supplierOrders[0];
        return s?.status === 'submitted' ? s : undefined;
      },
      60_000,
      'the part created at the supplier',
    );
    expect(so).toMatchObject({ payment: { status: 'unpaid' }, costs: { currency: 'USD' } });
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Read again' }).click();
        await page.getByRole('heading', { level: 1, name: new RegExp(`^Order ${order.number}\\b`) }).waitFor();
        return (await part().locator('p.margin').getAttribute('data-cost')) === 'known' || undefined;
      },
      60_000,
      'the cost on the order page',
    );
    const sold = product.variant.priceMinor;
    const cost = so.costs.totalMinor;
    // A store and supplier in one currency: the landed cost is the supplier's cost, nothing converted.
    const profit = (await storeOrder(order.id)).supplierOrders[0].profit;
    expect(profit).toMatchObject({ currency: 'USD', revenueMinor: sold, landedCostMinor: cost, resultMinor: sold - cost, complete: true });
    expect(await part().locator('p.margin').innerText()).toBe(`Sold for ${usd(sold)} · landed cost ${usd(cost)} · ${margin(sold, cost)}`);
    expect(await part().locator('p.margin .converted').getAttribute('title')).toBe(
      `${usd(cost)}: the supplier charges in the store's currency (USD), nothing converted. Recorded when the supplier accepted the order.`,
    );
    expect(await page.locator('dd .margin').innerText()).toBe(`Sold for ${usd(sold)} · landed cost ${usd(cost)} · ${margin(sold, cost)}`);
    await w.shot('order-cost-margin');

    // The connection now pays the supplier by itself: the same page says so.
    expect((await api('PUT', `/api/store-suppliers/${w.storeId}/${connId}/automation`, { automaticPayment: true })).status).toBe(200);
    const paid = await newOrder('online');
    await payments.pay(paid.id, 'paid');
    await eventually(async () => ((await storeOrder(paid.id)).paymentStatus === 'paid' ? true : undefined), 30_000, "the provider's payment");
    await openOrder(paid);
    expect(await card().innerText()).toMatch(
      new RegExp(`Payment provider says\\s+paid \\${usd(paid.totalMinor)}: the service may pay the supplier automatically`),
    );
    expect(await part().locator('p.automation').innerText()).toContain("pays the supplier by itself once the payment provider confirmed the shopper's payment");
    expect((await api('PUT', `/api/store-suppliers/${w.storeId}/${connId}/automation`, { automaticPayment: false })).status).toBe(200);
  });

  test("an order in another currency than the store's: its landed cost shown, no margin, and why", async () => {
    // A product the store sells in euros, linked by hand to a supplier product priced in dollars.
    const items = (await w.sandbox.v1('sbx_live_demo', 'GET', '/products?pageSize=50&page=10')).body.items;
    const p = items.find((x: any) => x.shipsTo.includes('US') && x.variants[0].available && x.variants[0].stock >= 50);
    const made = (
      await api('POST', `/api/store-products/${w.storeId}`, {
        title: 'Euro lamp',
        variants: [{ sku: 'EUR-LAMP-1', title: 'Default', priceMinor: 9900, currency: 'EUR', stock: 5 }],
      })
    ).body.result;
    const link = await api('POST', `/api/store-suppliers/${w.storeId}/links`, {
      productId: made.id,
      connectionId: connId,
      supplierProductId: p.id,
      variants: [{ storeVariantId: made.variants[0].id, supplierVariantId: p.variants[0].id }],
      sync: { price: false },
    });
    expect(link.status).toBe(201);
    const order = await newOrder('manual', US_ADDRESS, { productId: made.id, variantId: made.variants[0].id });
    expect(order).toMatchObject({ currency: 'EUR', totalMinor: 9900 });
    expect(
      (await api('POST', `/api/store-suppliers/${w.storeId}/orders/${order.id}/groups/${encodeURIComponent(`supplier:${connId}`)}/submit`, {})).status,
    ).toBeLessThan(300);
    const so = await eventually(
      async () => {
        const s = (await storeOrder(order.id)).supplierOrders[0];
        return s?.status === 'submitted' ? s : undefined;
      },
      60_000,
      'the part created at the supplier',
    );
    expect(so.costs).toMatchObject({ currency: 'USD' });
    await openOrder(order);
    // The store sells in dollars; this order is in euros, so what it sold for is not in the store's currency.
    expect(so.profit).toMatchObject({
      currency: 'USD',
      revenueMinor: null,
      landedCostMinor: so.costs.totalMinor,
      resultMinor: null,
      complete: false,
      missing: ['revenueInStoreCurrency'],
    });
    const why = "not final: the order is not in the store's currency, so what it sold for is not counted.";
    expect(await part().locator('p.margin').innerText()).toBe(`Sold for ${eur(9900)} · landed cost ${usd(so.costs.totalMinor)} · no margin yet · ${why}`);
    expect(await part().locator('p.margin').getAttribute('data-cost')).toBe('partial');
    expect(await page.locator('dd .margin').innerText()).toBe(
      `Sold for an amount not in the store's currency · landed cost ${usd(so.costs.totalMinor)} · no margin yet · ${why}`,
    );
    await w.shot('order-currencies');
  });

  test("the orders list names each order's customer and finds orders by customer; staff without customer data get neither", async () => {
    const grace = await newOrder('manual', GRACE);
    await w.go('orders', 'Orders');
    const row = page.locator(`tr[data-order-id="${grace.id}"]`);
    expect(await row.locator('td.customer').innerText()).toBe(`${GRACE.name}\n${GRACE.email}`);
    const total = (await api('GET', `/api/store-orders/${w.storeId}`)).body.result.pagination.totalCount;
    await page.getByRole('heading', { name: `Orders (${total})` }).waitFor();

    await page.getByLabel('Customer').fill('HOPPER');
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'Orders of customers matching "HOPPER" (1)' }).waitFor();
    expect(await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-order-id')))).toEqual([grace.id]);
    expect((await api('GET', `/api/store-orders/${w.storeId}?customer=HOPPER`)).body.result.items.map((o: { id: string }) => o.id)).toEqual([grace.id]);
    await w.shot('orders-customer-search');
    // By e-mail too; then back to every order.
    await page.getByLabel('Customer').fill('ada@example');
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    const adas = (await api('GET', `/api/store-orders/${w.storeId}?customer=ada%40example&pageSize=100`)).body.result.pagination.totalCount;
    expect(adas).toBeGreaterThan(1);
    await page.getByRole('heading', { name: `Orders of customers matching "ada@example" (${adas})` }).waitFor();
    await page.getByRole('button', { name: 'Show all' }).click();
    await page.getByRole('heading', { name: `Orders (${total})` }).waitFor();

    const clerk = await newDeveloper(w.svc);
    await api('PUT', `/api/stores/${w.storeId}/staff`, { email: clerk.email, permissions: ['orders.view', 'suppliers.view'] });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').fill(clerk.email);
    await page.getByLabel('Password').fill(clerk.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    await w.go('orders', 'Orders');
    await page.getByRole('heading', { name: `Orders (${total})` }).waitFor();
    expect(await page.getByRole('search').count()).toBe(0);
    expect(await page.locator(`tr[data-order-id="${grace.id}"] td.customer`).innerText()).toBe('hidden (customer data)');
    expect(await page.locator('#app').innerText()).not.toContain('Hopper');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await w.signIn();
  });

  test('the connection page edits the shipping-method rule', async () => {
    await w.go('connections', 'Connections');
    const form = page.locator(`article[data-connection-id="${connId}"] form.automation`);
    const saved = async () => (await api('GET', `/api/store-suppliers/${w.storeId}`)).body.result.find((c: { id: string }) => c.id === connId).automation;
    expect(await form.getByLabel('Shipping method').inputValue()).toBe('cheapest');
    expect(await form.getByLabel('Service name').isDisabled()).toBe(true);

    await form.getByLabel('Shipping method').selectOption('fastest');
    await form.getByRole('button', { name: 'Save automation' }).click();
    await page.locator('#notice.ok').getByText('Automation saved.').waitFor();
    expect((await saved()).shippingMethod).toEqual({ rule: 'fastest' });

    // A named service needs its name: the form does not send the rule without one.
    await form.getByLabel('Shipping method').selectOption('named');
    await form.getByRole('button', { name: 'Save automation' }).click();
    expect(await form.getByLabel('Service name').evaluate((i: HTMLInputElement) => i.validity.valueMissing)).toBe(true);
    expect((await saved()).shippingMethod).toEqual({ rule: 'fastest' });
    await form.getByLabel('Service name').fill('CAINIAO_STANDARD');
    await page.evaluate(() => document.getElementById('notice')?.setAttribute('hidden', ''));
    await form.getByRole('button', { name: 'Save automation' }).click();
    await page.locator('#notice.ok').getByText('Automation saved.').waitFor();
    expect(await saved()).toMatchObject({ shippingMethod: { rule: 'named', service: 'CAINIAO_STANDARD' }, level: 'manual', automaticPayment: false });
    // Read again, the page shows the rule the service keeps.
    await w.go('review', 'Review queue');
    await w.go('connections', 'Connections');
    expect(await form.getByLabel('Shipping method').inputValue()).toBe('named');
    expect(await form.getByLabel('Service name').inputValue()).toBe('CAINIAO_STANDARD');
    expect(await form.locator('p.message').innerText()).toBe(
      'It sends an order to the supplier only when you send it, and leaves paying the supplier to you: pay now when you send it, or Pay on its supplier order.',
    );
    await w.shot('connections-automation');
  });

  test("after shipping: a stalled parcel in the review queue's deliveries needing a look and on the order page, a claim for a reship opened there, the attention acknowledged", async () => {
    const order = await newOrder('manual');
    expect((await api('POST', `/api/store-orders/${w.storeId}/${order.id}/confirm`)).status).toBe(200);
    const sent = (await api('POST', `/api/store-suppliers/${w.storeId}/orders/${order.id}/groups/supplier:${connId}/submit`, { payNow: true })).body.result;
    await w.sandbox.control('POST', `/orders/${sent.supplierOrderId}/ship`, {});
    const so = async () => (await api('GET', `/api/store-suppliers/${w.storeId}/orders/${sent._id}`)).body.result;
    await eventually(async () => ((await so()).tracking?.events.length ? true : undefined), 30_000, 'the shipment read back');
    await w.sandbox.control('POST', `/orders/${sent.supplierOrderId}/parcel`, { stalled: true });
    await w.sandbox.control('POST', '/clock', { advanceHours: 80 });
    await eventually(async () => ((await so()).deliveryAttention ? true : undefined), 30_000, 'the delivery attention');

    await w.go('review', 'Review queue');
    const list = page.locator('#list-needsAttention');
    expect(await list.locator('h2').innerText()).toBe('Deliveries needing a look (sent, no tracking, stalled, late or held) (1)');
    expect(await list.locator(`tr[data-supplier-order="${sent._id}"]`).innerText()).toContain('Delivery: The carrier has not scanned the parcel for too long');
    await w.shot('review-delivery-attention');

    await openOrder(order);
    const attention = part().locator('[data-attention="noMovement"]');
    expect(await attention.innerText()).toContain('Delivery needs a look: The carrier has not scanned the parcel for too long');
    expect(await part().locator('ol.tracking').innerText()).toContain('Picked up by the carrier');
    await part().locator('.claims').waitFor();
    await part().getByRole('button', { name: 'Claim a reship' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Claim a reship' }).click();
    await part().locator('.claims li[data-claim]').waitFor();
    const claims = (await api('GET', `/api/store-suppliers/${w.storeId}/orders/${sent._id}/claims`)).body.result.items;
    expect(claims).toEqual([expect.objectContaining({ reason: 'notReceived', expectation: 'reship', items: [expect.objectContaining({ quantity: 1 })] })]);
    expect(await part().locator('.claims').innerText()).toMatch(/The parcel did not arrive, a reship: (being sent to the supplier|open at the supplier)/);
    await w.shot('order-delivery-attention');

    await attention.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Acknowledge' }).click();
    await page.locator('#notice.ok').getByText(`Order ${order.number}: acknowledged.`).waitFor();
    expect((await so()).deliveryAttention).toBeNull();
  });

  test('the pages raised no script error', () => {
    expect(w.browser.errors).toEqual([]);
  });
});

browser.end();
