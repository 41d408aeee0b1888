/**
 * Returns on the order page, in a real browser (issue 54, item 3): a cancel that came after the supplier shipped
 * leaves the part paused as supplierAlreadyShipped, and the page's next step is to record a return; recorded there
 * with a refund in part, the return shows with its refund, the provider refunded exactly that once, and the order's
 * profit fell by it. Every figure is checked against the service's and the provider's own answers.
 */
import type { Page } from 'playwright-core';
import { eventually } from '../support/harness';
import { connectPayments, PaymentSandbox, startPaymentSandbox, StorePayments } from '../support/payments';
import { browserSuite } from './chromium';
import { ConsoleWorld, openConsole } from './session';
import { connectAndImport, placeOrder, usd } from './shop';

jest.setTimeout(180_000);

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

browser.describe('returns on the order page', () => {
  beforeAll(async () => {
    provider = await startPaymentSandbox();
    w = await openConsole(browser.chromium(), { label: 'console_returns', publicBaseUrl: true, payments: provider });
    page = w.page;
    payments = await connectPayments(w.svc, provider, w.storeId, w.owner.key);
    ({ connId, product } = await connectAndImport(w, { page: 11 }));
    await w.signIn();
  });
  afterAll(async () => {
    await w?.close();
    await provider?.close();
  });

  test('a cancel after the supplier shipped: the page offers a return, recorded with a refund in part, refunded once at the provider', async () => {
    const order = await placeOrder(w, { productId: product.id, variantId: product.variantId }, { paymentMethod: 'online' });
    await payments.pay(order.id, 'paid');
    await eventually(async () => ((await storeOrder(order.id)).paymentStatus === 'paid' ? true : undefined), 30_000, "the provider's payment");
    const sent = (await api('POST', `/api/store-suppliers/${w.storeId}/orders/${order.id}/groups/supplier:${connId}/submit`, { payNow: true })).body.result;
    await w.sandbox.control('POST', `/orders/${sent.supplierOrderId}/ship`, { carrier: 'LatePost', trackingNumber: 'LP-CONSOLE' });
    const so = async () => (await api('GET', `/api/store-suppliers/${w.storeId}/orders/${sent._id}`)).body.result;
    await eventually(async () => ((await so()).status === 'shipped' ? true : undefined), 30_000, 'the shipment read back');
    const late = (await api('POST', `/api/store-suppliers/${w.storeId}/orders/${sent._id}/cancel`)).body.result;
    expect(late).toMatchObject({ reviewReason: 'supplierAlreadyShipped', nextAction: { action: 'return' } });
    const before = (await storeOrder(order.id)).profit;

    await w.openOrder(order);
    await part().locator('.returns').waitFor();
    expect(await part().locator('.returns').innerText()).toContain('None yet.');
    // Shipped: nothing to retry, reroute, cancel or fulfil; the page says a return is what is left.
    for (const name of ['Retry', 'Reroute to a backup supplier', 'Cancel', 'Fulfil it yourself'])
      expect(await part().getByRole('button', { name, exact: true }).count()).toBe(0);
    expect(await part().innerText()).toContain('The supplier shipped it: record a return below');
    const record = part().getByRole('button', { name: 'Record a return' });
    expect(await record.getAttribute('class')).toBe('primary');
    await record.click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('Why').inputValue()).toBe('cancelledAfterShipping');
    await dialog.getByLabel(/Refund the shopper/).fill('5.25');
    await dialog.getByRole('button', { name: 'Record the return' }).click();
    await page.locator('#notice.ok').getByText(`Order ${order.number}: return recorded.`).waitFor();
    await part().locator('.returns li[data-return]').waitFor();

    const returns = (await api('GET', `/api/store-suppliers/${w.storeId}/orders/${sent._id}/returns`)).body.result.items;
    expect(returns).toEqual([
      expect.objectContaining({
        reason: 'cancelledAfterShipping',
        items: [expect.objectContaining({ quantity: 1 })],
        refund: expect.objectContaining({ amountMinor: 525, status: 'requested' }),
      }),
    ]);
    const refunds = (await provider.paymentsOf(order.id)).flatMap((p: any) => p.refunds);
    expect(refunds).toEqual([expect.objectContaining({ amountMinor: 525, idempotencyKey: `refund:return:${returns[0]._id}` })]);
    expect(await part().locator('.returns li[data-return]').innerText()).toContain(
      `The order was cancelled after the supplier shipped it, 1 × ${returns[0].items[0].sku}`,
    );
    expect(await part().locator('.returns li[data-return]').innerText()).toContain(`${usd(525)} refunded to the shopper`);
    const after = await eventually(
      async () => {
        const o = await storeOrder(order.id);
        return o.amountRefundedMinor === 525 ? o : undefined;
      },
      30_000,
      'the refund in the order',
    );
    expect(after.profit.resultMinor).toBe(before.resultMinor - 525);
    await w.shot('order-return');
  });

  test('the pages raised no script error', () => {
    expect(w.browser.errors).toEqual([]);
  });
});

browser.end();
