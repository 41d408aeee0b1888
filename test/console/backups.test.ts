/**
 * Backup suppliers in the console, in a real browser: on the links, a merchant adds backups per variant by searching
 * another connected supplier's catalogue and by pasting a product link, orders and removes them, and saves them as
 * the link's alternates; a paused supplier order is rerouted by hand from the order page, whose history then says
 * from, to, why and the cost difference; the connection's automation edits the reroute rule. Every figure is checked
 * against the service's own answers.
 */
import type { Page } from 'playwright-core';
import { browserSuite } from './chromium';
import { ConsoleWorld, openConsole } from './session';
import { connectAndImport, placeOrder, usd } from './shop';

jest.setTimeout(180_000);

const browser = browserSuite();

let w: ConsoleWorld;
let page: Page;
let connId: string;
let backupId: string;
let product: Awaited<ReturnType<typeof connectAndImport>>['product'];
let supplier: { id: string; url: string; title: string; variants: Array<{ id: string; title: string; costMinor: number }> };
const api = (method: string, path: string, body?: unknown) => w.svc.call(method, path, { key: w.owner.key, body });
const link = async () => (await api('GET', `/api/store-suppliers/${w.storeId}/links?productId=${product.id}`)).body.result.items[0];
const dialog = () => page.getByRole('dialog');
const backups = () => dialog().locator('fieldset[data-store-variant] li');

browser.describe('backup suppliers in the console', () => {
  beforeAll(async () => {
    w = await openConsole(browser.chromium(), { label: 'console_backups' });
    page = w.page;
    // Orders stop at the cost limit before anything is sent, and the rule reroutes on nothing: a person decides.
    ({ connId, product } = await connectAndImport(w, {
      page: 12,
      fits: (p) => p.variants.length > 1 && p.variants[1].available,
      automation: { costLimit: { amountMinor: 1, currency: 'USD' }, reroute: { reasons: [], maxCostIncreasePercent: 10 } },
    }));
    const account = await w.sandbox.account(10_000_000);
    backupId = (await api('POST', `/api/store-suppliers/${w.storeId}`, { supplierKey: 'sandbox', mode: 'test', credentials: { apiKey: account.testKey } })).body
      .result.id;
    const l = await link();
    const p = (await w.sandbox.v1('sbx_live_demo', 'GET', `/products/${l.supplierProductId}`)).body;
    supplier = { id: p.id, url: p.url, title: p.title, variants: p.variants.map((v: any) => ({ id: v.id, title: v.title, costMinor: v.costMinor })) };
    await w.signIn();
  });
  afterAll(async () => {
    await w?.close();
  });

  test("backups are found by search and by a pasted link, ordered, removed, and saved as the link's alternates in that order", async () => {
    await w.go('catalog', 'Imports and links');
    const row = page.locator(`tr[data-link-id="${(await link()).id}"]`);
    await row.getByRole('button', { name: 'Backups…' }).click();
    expect(await dialog().innerText()).toContain("None: when this variant's order stops, it waits for you.");
    const [v0, v1] = supplier.variants;

    // By search: the other supplier's catalogue, then the variant.
    await dialog().getByLabel('Search its catalogue').fill(supplier.title);
    await dialog().getByLabel('Search its catalogue').press('Enter');
    await dialog().getByRole('button', { name: supplier.title, exact: true }).first().click();
    await dialog().getByLabel(`Variant of ${supplier.title}`).selectOption(v0.id);
    await dialog().getByRole('button', { name: 'Add as backup' }).click();
    // By its link: the same parsing the import by URL uses.
    await dialog().getByLabel('Or paste its product link').fill(supplier.url);
    await dialog().getByRole('button', { name: 'Find' }).click();
    await dialog().getByLabel(`Variant of ${supplier.title}`).selectOption(v1.id);
    await dialog().getByRole('button', { name: 'Add as backup' }).click();
    expect(await backups().evaluateAll((lis) => lis.map((li) => li.getAttribute('data-backup')))).toEqual([`${backupId}:${v0.id}`, `${backupId}:${v1.id}`]);

    // Ordered and removed: v1 first, v0 removed, then v0 again last.
    await dialog()
      .getByRole('button', { name: `Move ${supplier.title}, ${v1.title} up` })
      .click();
    await dialog()
      .getByRole('button', { name: `Remove ${supplier.title}, ${v0.title}` })
      .click();
    await dialog().getByLabel('Or paste its product link').fill(supplier.url);
    await dialog().getByLabel('Or paste its product link').press('Enter');
    await dialog().getByLabel(`Variant of ${supplier.title}`).selectOption(v0.id);
    await dialog().getByRole('button', { name: 'Add as backup' }).click();
    expect(await backups().evaluateAll((lis) => lis.map((li) => li.getAttribute('data-backup')))).toEqual([`${backupId}:${v1.id}`, `${backupId}:${v0.id}`]);
    expect(await backups().first().innerText()).toContain(`${supplier.title}, ${v1.title} — ${usd(v1.costMinor)}`);
    await w.shot('link-backups', { dialog: true });
    await dialog().getByRole('button', { name: 'Save backups' }).click();
    await page.locator('#notice.ok').getByText('2 backups saved').waitFor();

    const saved = (await link()).variants[0];
    expect(saved.alternates.map((a: any) => [a.connectionId, a.supplierProductId, a.supplierVariantId])).toEqual([
      [backupId, supplier.id, v1.id],
      [backupId, supplier.id, v0.id],
    ]);
    expect(await row.locator('[data-backups]').innerText()).toBe('2 backups at other suppliers');
    // Opened again, the dialog shows what the service keeps, with cost and stock.
    await row.getByRole('button', { name: 'Backups…' }).click();
    expect(await backups().first().innerText()).toContain(
      `${supplier.id} / ${v1.id} — ${usd(saved.alternates[0].costMinor)}, ${saved.alternates[0].stock} in stock`,
    );
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  });

  test('a paused supplier order is rerouted from the order page; both histories say from, to, why and the cost difference', async () => {
    const order = await placeOrder(w, { productId: product.id, variantId: product.variantId }, { paymentMethod: 'manual' });
    const sent = await api('POST', `/api/store-suppliers/${w.storeId}/orders/${order.id}/groups/${encodeURIComponent(`supplier:${connId}`)}/submit`, {});
    expect(sent.body.result).toMatchObject({ status: 'needsReview', reviewReason: 'costAboveLimit' });
    await w.openOrder(order);
    const first = page.locator(`[data-supplier-order="${sent.body.result._id}"]`);
    await first.getByRole('button', { name: 'Reroute to a backup supplier' }).click();
    expect(await dialog().innerText()).toContain("Sends the items to the product's backup suppliers, in their order");
    await dialog().getByRole('button', { name: 'Reroute to a backup supplier' }).click();
    await page.locator('#notice.ok').getByText('Rerouted from', { exact: false }).waitFor();

    const after = (await api('GET', `/api/store-suppliers/${w.storeId}/orders/${sent.body.result._id}`)).body.result;
    expect(after.status).toBe('cancelled');
    const d = after.events.find((e: any) => e.type === 'rerouted').details;
    expect(d).toMatchObject({ by: 'manual', reason: 'costAboveLimit', to: { connectionId: backupId } });
    const diff = d.costDifferenceMinor as number;
    const cost = diff === 0 ? 'at the same cost' : `${usd(Math.abs(diff))} ${diff > 0 ? 'dearer' : 'cheaper'}`;
    const sentence = `Rerouted from sandbox to the backup supplier sandbox (its supplier order ${d.to.supplierOrderId}), by hand, because it costs more than the limit you set; ${cost}.`;
    expect(await page.locator('#notice').innerText()).toBe(`Order ${order.number}: ${sentence}`);
    expect(await first.locator('ol.history').innerText()).toContain(sentence);
    // Done with: no stop box, no "What to do" on the rerouted order.
    expect(await first.locator('.stopped').count()).toBe(0);
    const second = page.locator(`[data-supplier-order="${d.to.supplierOrderId}"]`);
    expect(await second.locator('ol.history li').first().innerText()).toContain('Created because its items were rerouted here from a paused supplier order.');
    await w.shot('order-rerouted');
  });

  test("the connection's automation edits the reroute rule: its reasons and how much dearer a backup may be", async () => {
    await w.go('connections', 'Connections');
    const form = page.locator(`article[data-connection-id="${backupId}"] form.automation`);
    const saved = async () =>
      (await api('GET', `/api/store-suppliers/${w.storeId}`)).body.result.find((c: { id: string }) => c.id === backupId).automation.reroute;
    // The defaults, as the service keeps them.
    const boxes = form.locator('fieldset.reroute input[type=checkbox]');
    expect(await boxes.evaluateAll((bs) => bs.filter((b) => (b as HTMLInputElement).checked).map((b) => b.getAttribute('name')))).toEqual([
      'reroute-variantUnavailable',
      'reroute-destinationUnsupported',
      'reroute-costAboveLimit',
    ]);
    expect(await form.getByLabel('A backup may cost at most this % more').inputValue()).toBe('10');

    await form.getByLabel('The supplier does not deliver there').uncheck();
    await form.getByLabel('The supplier refused the order').check();
    await form.getByLabel('A backup may cost at most this % more').fill('25');
    await form.getByRole('button', { name: 'Save automation' }).click();
    await page.locator('#notice.ok').getByText('Automation saved.').waitFor();
    expect(await saved()).toEqual({ reasons: ['variantUnavailable', 'costAboveLimit', 'supplierRefused'], maxCostIncreasePercent: 25 });
    await form.locator('fieldset.reroute').scrollIntoViewIfNeeded();
    await w.shot('connections-reroute-rule');
  });

  test("routed by the store's rule: the order page's history shows the candidates' quotes, the one left out and why the winner won", async () => {
    // The primary's cost limit (1 cent) leaves it out; the backup, quoted live, is chosen before anything is sent.
    expect((await api('PUT', `/api/store-suppliers/${w.storeId}/routing`, { routing: { rule: 'lowestLandedCost' } })).status).toBe(200);
    try {
      const order = await placeOrder(w, { productId: product.id, variantId: product.variantId }, { paymentMethod: 'manual' });
      await api('POST', `/api/store-suppliers/${w.storeId}/orders/${order.id}/groups/${encodeURIComponent(`supplier:${connId}`)}/submit`, {});
      let parts: any[] = [];
      for (let i = 0; i < 100 && !(parts.length === 2 && parts.every((s: any) => s.status !== 'queued')); i++) {
        if (i) await new Promise((r) => setTimeout(r, 100));
        parts = (await api('GET', `/api/store-suppliers/${w.storeId}/orders?orderId=${order.id}`)).body.result.items;
      }
      const first = parts.find((s: any) => s.integrationId === connId);
      const routed = first.events.find((e: any) => e.type === 'routed').details;
      expect(routed).toMatchObject({
        rule: 'lowestLandedCost',
        connectionId: backupId,
        excluded: [{ connectionId: connId, supplierKey: 'sandbox', why: expect.stringMatching(/above the store's limit of \$0\.01\.$/) }],
      });
      const [quote] = routed.candidates;
      await w.openOrder(order);
      const history = await page.locator(`[data-supplier-order="${first._id}"] ol.history`).innerText();
      expect(history).toContain(
        `Supplier chosen by the lowest landed cost. ${routed.why} Candidates: sandbox (chosen) ${usd(quote.storeTotalMinor)}, up to ${quote.maxDays} days. Not candidates: sandbox: ${routed.excluded[0].why}`,
      );
      expect(history).toContain(
        `Its items went to the chosen supplier sandbox (its supplier order ${parts.find((s: any) => s.integrationId === backupId)._id}); nothing was placed here.`,
      );
      await w.shot('order-routed');
    } finally {
      await api('PUT', `/api/store-suppliers/${w.storeId}/routing`, { routing: { rule: 'primary' } });
    }
  });

  test('the pages raised no script error', () => {
    expect(w.browser.errors).toEqual([]);
  });
});
