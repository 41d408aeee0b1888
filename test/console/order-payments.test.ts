/**
 * The shopper's payment on the console's order page, in a real browser: "Pay as the shopper" opens the store's checkout
 * at the sandbox payment provider, and the page shows the payment once the provider's signed notification arrived;
 * "Mark as paid…" records a person's word, which confirms the order but never pays the supplier by itself; under
 * promise to sell the page follows the capture (authorised, asked of the provider, captured or failed), and a payment
 * taken back after it was paid shows as needing attention. Every effect is checked over HTTP, at the payment provider
 * and at the sandbox supplier.
 */
import type { Page } from 'playwright-core';
import { eventually } from '../support/harness';
import { received } from '../support/orders';
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
let product: { id: string; variantId: string };
const api = (method: string, path: string, body?: unknown) => w.svc.call(method, path, { key: w.owner.key, body });
const storeOrder = async (id: string) => (await api('GET', `/api/store-orders/${w.storeId}/${id}`)).body.result;
const supplierOrderOf = async (orderId: string) => (await api('GET', `/api/store-suppliers/${w.storeId}/orders?orderId=${orderId}`)).body.result.items[0];
const card = () => page.locator('section.payment');

/** An online order, as a storefront would send it when a shopper checks out: it waits for the shopper's payment. */
const onlineOrder = (contractModel = 'standard') =>
  placeOrder(w, { productId: product.id, variantId: product.variantId }, { paymentMethod: 'online', contractModel });
const openOrder = (order: { id: string; number: string }) => w.openOrder(order);

browser.describe("the shopper's payment in the console", () => {
  beforeAll(async () => {
    provider = await startPaymentSandbox();
    w = await openConsole(browser.chromium(), { label: 'console_pay', publicBaseUrl: true, payments: provider });
    page = w.page;
    payments = await connectPayments(w.svc, provider, w.storeId, w.owner.key);
    // A connection that sends on confirmation and pays the supplier by itself: only the provider's word lets it pay.
    ({ connId, product } = await connectAndImport(w, { page: 7, automation: { level: 'automatic', automaticPayment: true, allowUnpaidOrders: false } }));
    await w.signIn();
  });
  afterAll(async () => {
    await w?.close();
    await provider?.close();
  });

  test("pay as the shopper: the checkout opens with the order's amount, and the page shows the payment once the provider's signed notification arrived", async () => {
    const order = await onlineOrder();
    await openOrder(order);
    await card().getByText('Nothing yet: no word from the payment provider and no mark by hand.').waitFor();
    expect(await card().innerText()).toContain(
      "Shoppers pay at the store's payment provider checkout; only its signed notification moves this order's payment.",
    );

    const [checkout] = await Promise.all([page.context().waitForEvent('page'), card().getByRole('button', { name: 'Pay as the shopper' }).click()]);
    await checkout.waitForLoadState();
    expect(new URL(checkout.url()).searchParams.get('merchant')).toBe(payments.merchantId);
    await checkout.getByRole('heading', { name: `Pay ${(order.totalMinor / 100).toFixed(2)} USD` }).waitFor();
    await page
      .locator('#notice.waiting')
      .getByText(`Order ${order.number}: waiting for the payment provider's signed notification.`, { exact: false })
      .waitFor();
    // Opening the checkout moved nothing: only the provider's event does.
    expect(await storeOrder(order.id)).toMatchObject({ status: 'pending', paymentStatus: 'none', markedPaidAt: null, payments: [] });

    await checkout.getByRole('button', { name: 'Pay' }).click();
    await checkout.getByRole('heading', { name: 'Paid' }).waitFor();
    const paymentId = await checkout.locator('code').first().innerText();
    await checkout.close();
    // The page follows by itself (no "Read again") until the signed notification has arrived.
    await page
      .locator('#notice.ok')
      .getByText(`Order ${order.number}: the payment provider confirmed the payment of ${usd(order.totalMinor)} (paid).`)
      .waitFor({ timeout: 60_000 });
    const history = await card().locator('ol.payments').innerText();
    expect(history).toContain(
      `The payment provider confirmed the shopper paid ${usd(order.totalMinor)} (its payment id ${paymentId}), in a signed notification.`,
    );
    const paid = await storeOrder(order.id);
    // Confirmed by the payment (its part may already be on its way: processing).
    expect(['confirmed', 'processing']).toContain(paid.status);
    expect(paid).toMatchObject({
      paymentStatus: 'paid',
      markedPaidAt: null,
      payments: [expect.objectContaining({ source: 'provider', kind: 'paid', amountMinor: order.totalMinor, reference: paymentId })],
    });
    expect(await card().locator('.badge').innerText()).toBe('paid');
    expect(
      await card()
        .getByRole('button', { name: /Pay as the shopper|Mark as paid/ })
        .count(),
    ).toBe(0);

    // The provider's word is what automatic payment trusts: the confirmed order's part is sent and the supplier paid, once.
    const so = await eventually(
      async () => {
        const s = await supplierOrderOf(order.id);
        return s?.payment.status === 'paid' ? s : undefined;
      },
      60_000,
      "the supplier paid after the provider's payment",
    );
    expect((await received(w.sandbox)).all.payments.filter((x: any) => x.orderNumber === so.supplierOrderNumber)).toHaveLength(1);
    await page.getByRole('button', { name: 'Read again' }).click();
    await page.locator(`section.part[data-part="supplier:${connId}"] .supplier-order .badge`).getByText('Accepted and paid', { exact: true }).waitFor();
    await w.shot('order-paid');
  });

  test('mark as paid by hand: says what it does not do, confirms the order, and the supplier is not paid automatically', async () => {
    const order = await onlineOrder();
    await openOrder(order);
    await card().getByRole('button', { name: 'Mark as paid…' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.innerText()).toContain(
      'does not by itself let the service pay the supplier automatically: for that, send the supplier part with "pay now", or allow unpaid orders',
    );
    expect(await dialog.innerText()).toContain(`Records that the shopper paid ${usd(order.totalMinor)} outside the payment provider`);
    await dialog.getByLabel('Receipt or transfer reference (optional)').fill('BANK-7731');
    await w.shot('order-mark-paid', { dialog: true });
    await dialog.getByRole('button', { name: 'Mark as paid' }).click();
    await page
      .locator('#notice.ok')
      .getByText(`Order ${order.number} is marked paid by hand and confirmed. The supplier is not paid automatically because of it`, { exact: false })
      .waitFor();

    const marked = await storeOrder(order.id);
    expect(marked).toMatchObject({ status: 'confirmed', paymentStatus: 'none', markedPaidAt: expect.any(String) });
    expect(marked.payments).toEqual([
      expect.objectContaining({
        source: 'manual',
        kind: 'paid',
        amountMinor: order.totalMinor,
        reference: 'BANK-7731',
        actor: { kind: 'user', id: w.owner.accountId },
      }),
    ]);
    expect(await card().locator('ol.payments').innerText()).toContain(
      `You marked it paid by hand: the shopper paid ${usd(order.totalMinor)} (reference BANK-7731). A person's word, not the provider's`,
    );
    expect(await card().innerText()).toMatch(/Payment provider says\s+nothing yet/);

    // The confirmation sends the part, but a mark by hand is not the provider's word: it stops before any payment.
    const so = await eventually(
      async () => {
        const s = await supplierOrderOf(order.id);
        return s?.status === 'needsReview' ? s : undefined;
      },
      60_000,
      "the part sent on confirmation and stopped for the shopper's payment",
    );
    expect(so).toMatchObject({ reviewReason: 'customerPaymentPending', payment: { status: 'unpaid' } });
    expect((await received(w.sandbox)).all.payments.filter((x: any) => x.orderNumber === so.supplierOrderNumber)).toHaveLength(0);
    expect((await storeOrder(order.id)).paymentStatus).toBe('none');
    await page.getByRole('button', { name: 'Read again' }).click();
    await page.locator(`section.part[data-part="supplier:${connId}"]`).getByText('The shopper has not paid yet', { exact: true }).waitFor();
    await page
      .getByText("What to do: Retry once the payment provider confirmed the shopper's payment (a mark by hand does not count), or fulfil the part yourself.")
      .waitFor();
    expect(await card().getByRole('button', { name: 'Mark as paid…' }).count()).toBe(0);
    await w.shot('order-marked-paid');

    // The provider's word is what counts: once the shopper paid at the checkout, a retry pays the supplier, once.
    const [checkout] = await Promise.all([page.context().waitForEvent('page'), card().getByRole('button', { name: 'Pay as the shopper' }).click()]);
    await checkout.getByRole('button', { name: 'Pay' }).click();
    await checkout.getByRole('heading', { name: 'Paid' }).waitFor();
    await checkout.close();
    await page
      .locator('#notice.ok')
      .getByText(`Order ${order.number}: the payment provider confirmed the payment of ${usd(order.totalMinor)} (paid).`)
      .waitFor({ timeout: 60_000 });
    expect(await card().locator('ol.payments > li').allInnerTexts()).toEqual([
      expect.stringContaining('You marked it paid by hand'),
      expect.stringContaining('The payment provider confirmed the shopper paid'),
    ]);
    expect((await storeOrder(order.id)).paymentStatus).toBe('paid');
    await page.locator(`section.part[data-part="supplier:${connId}"]`).getByRole('button', { name: 'Retry', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Retry' }).click();
    await page.locator('#notice.ok').getByText(`Order ${order.number}: accepted and paid.`).waitFor();
    expect((await received(w.sandbox)).all.payments.filter((x: any) => x.orderNumber === so.supplierOrderNumber)).toHaveLength(1);
  });

  test("promise to sell: the page shows the shopper's payment authorised, the capture asked of the provider, then captured on its signed word; a refused capture shows capture failed", async () => {
    // The provider's capture event waits at the provider, so the page can be seen between the ask and the provider's word.
    await provider.control('POST', '/deliveries', { held: true, types: ['payment.captured'] });
    const order = await onlineOrder('promiseToSell');
    await openOrder(order);
    expect(await card().locator('dd.capture').getAttribute('data-capture')).toBe('waiting');
    await payments.pay(order.id, 'authorised');
    await eventually(
      async () => ((await storeOrder(order.id)).payments.some((p: { kind: string }) => p.kind === 'captureRequested') ? true : undefined),
      60_000,
      'the capture asked',
    );
    expect((await provider.paymentsOf(order.id))[0].captures).toHaveLength(1);
    await page.getByRole('button', { name: 'Read again' }).click();
    const stage = card().locator('dd.capture[data-capture="asked"]');
    await stage.waitFor();
    expect(await stage.innerText()).toContain('capture asked');
    expect(await card().locator('h2 .badge').innerText()).toBe('authorised, not settled');
    expect(await card().locator('ol.payments').innerText()).toContain("the service asked the payment provider to capture the shopper's payment");
    await w.shot('order-capture-asked');

    await provider.control('POST', '/deliveries', { held: false });
    await eventually(async () => ((await storeOrder(order.id)).paymentStatus === 'paid' ? true : undefined), 60_000, 'the signed capture');
    await page.getByRole('button', { name: 'Read again' }).click();
    await card().locator('dd.capture[data-capture="captured"]').waitFor();
    expect(await card().locator('h2 .badge').innerText()).toBe('paid');
    expect(await card().locator('ol.payments').innerText()).toContain("The payment provider captured the shopper's authorised payment");

    await provider.control('POST', '/faults', { refuseCapture: { count: 1, message: 'The card issuer declined', mode: 'answer' } });
    const refused = await onlineOrder('promiseToSell');
    await payments.pay(refused.id, 'authorised');
    await eventually(
      async () => ((await supplierOrderOf(refused.id))?.reviewReason === 'customerCaptureFailed' ? true : undefined),
      60_000,
      'the refused capture',
    );
    await openOrder(refused);
    await card().locator('dd.capture[data-capture="failed"]').waitFor();
    expect(await card().locator('dd.capture').innerText()).toContain('Tell a person at once');
    await page.getByRole('heading', { level: 1 }).locator('.badge.bad').getByText('needs attention').waitFor();
    await page
      .locator(`section.part[data-part="supplier:${connId}"]`)
      .getByText('The supplier was paid but charging the shopper failed', { exact: true })
      .waitFor();
  });

  test('a payment the provider takes back after it was paid shows as needing attention', async () => {
    const order = await onlineOrder();
    await payments.pay(order.id, 'paid');
    await payments.pay(order.id, 'refunded');
    await openOrder(order);
    expect(await card().locator('p.attention').innerText()).toContain(
      "Needs attention: the payment provider refunded the shopper's payment after it was paid.",
    );
    await page.getByRole('heading', { level: 1 }).locator('.badge.bad').getByText('needs attention').waitFor();
  });

  test('a refund in part from the order page: the provider refunds that amount, and the page shows the payment partly refunded and what went back', async () => {
    const order = await onlineOrder();
    const { paymentId } = await payments.pay(order.id, 'paid');
    await openOrder(order);
    await card().locator(`table.provider-payments tr[data-reference="${paymentId}"]`).getByText('paid', { exact: true }).waitFor();
    await card().getByRole('button', { name: 'Refund…' }).click();
    const dialog = page.locator('dialog.confirm');
    await dialog.locator('input[name="refundAmount"]').fill('1.00');
    await dialog.locator('input[name="refundReason"]').fill('One item returned');
    await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
    // The provider's own record: one refund of 100 minor units.
    const [atProvider] = await eventually(
      async () => ((await provider.paymentsOf(order.id))[0]?.refundedMinor === 100 ? provider.paymentsOf(order.id) : undefined),
      30000,
      'the refund at the provider',
    );
    expect(atProvider.status).toBe('paid');
    await eventually(async () => ((await storeOrder(order.id)).amountRefundedMinor === 100 ? true : undefined), 30000, 'the refund on the order');
    await page.getByRole('button', { name: 'Read again' }).click();
    await card().locator('dd.refunded').getByText(usd(100)).waitFor();
    expect(await card().locator('h2 .badge').innerText()).toBe('partly refunded');
    expect(await card().locator('ol.history').innerText()).toContain('One item returned');
  });

  test('the pages raised no script error', () => {
    expect(w.browser.errors).toEqual([]);
  });
});

browser.end();
