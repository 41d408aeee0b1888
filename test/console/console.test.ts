/**
 * The merchant console in a real browser (Debian's Chromium through playwright-core): sign in, manage keys,
 * connect suppliers, and clear a paused order from the review queue, checking each effect over HTTP. The selling
 * pages (supplier products, imports and links, orders, credits) are in shop-flow.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { call, createKey, seen } from '../support/harness';
import { received } from '../support/orders';
import { browserSuite } from './chromium';
import { ConsoleWorld, openConsole } from './session';
import { pausedOrder } from './shop';

jest.setTimeout(120_000);

// Said out loud, never a silent skip; in CI never a skip at all: the suite runs and fails.
const browser = browserSuite();
const ROOT = path.resolve(__dirname, '../..');

let w: ConsoleWorld;
let page: Page;
let supplierAccount: { accountId: string };
let connectionId: string;
let pausedId: string;

browser.describe('merchant console in a browser', () => {
  beforeAll(async () => {
    w = await openConsole(browser.chromium(), { label: 'console', publicBaseUrl: true });
    page = w.page;
    supplierAccount = await w.sandbox.account(0);
  });
  afterAll(async () => {
    await w?.close();
  });

  test('the console is served with a strict Content-Security-Policy and small assets', async () => {
    const res = await call(w.svc.baseUrl, 'GET', '/console');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(res.text).not.toMatch(/\sstyle=|<style/);
    const dirs = [path.join(ROOT, 'console/static'), path.join(ROOT, 'dist/console')];
    const sizes = (vendored: boolean) =>
      dirs
        .flatMap((d) =>
          fs
            .readdirSync(d)
            .filter((f) => /\.(js|css|html|svg)$/.test(f) && f.startsWith('uplot.') === vendored)
            .map((f) => fs.statSync(path.join(d, f)).size),
        )
        .reduce((a, b) => a + b, 0);
    expect(sizes(false)).toBeLessThan(200 * 1024);
    // The profit page's chart library (docs/decisions.md, "The profit page's chart"), loaded by that page only.
    expect(sizes(true)).toBeGreaterThan(0);
    expect(sizes(true)).toBeLessThan(64 * 1024);
    for (const f of ['main.js', 'console.css']) expect((await call(w.svc.baseUrl, 'GET', `/console/${f}`)).status).toBe(200);
    expect((await call(w.svc.baseUrl, 'GET', '/console/..%2Fpackage.json')).status).toBe(404);
  });

  test('signs in with e-mail and password', async () => {
    await page.goto(`${w.svc.baseUrl}/console`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await w.shot('sign-in');
    await page.getByLabel('E-mail').fill(w.owner.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That e-mail address and password do not match.').waitFor();
    await page.getByLabel('Password').fill(w.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    expect(await page.locator('header#top').innerText()).toContain(w.owner.email);
  });

  test('keys: create, copy, revoke; the revoked key is refused at once', async () => {
    await w.go('keys', 'API keys');
    await page.getByLabel('Name').fill('n8n production');
    await page.getByLabel('Records it can see').selectOption('account');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#secret-key').inputValue();
    seen.secrets.add(key);
    expect((await call(w.svc.baseUrl, 'GET', '/api/api-key/current', { key })).body.result.key).toMatchObject({
      name: 'n8n production',
      recordScope: 'account',
    });
    await page.locator('#secret').getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Key copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await page.locator('pre').innerText()).toContain('/mcp');
    await w.hideInPicture(key);
    await w.shot('keys');

    // The list's "Copy key" copies at once, with no panel in between.
    await page.locator('#secret').getByRole('button', { name: 'Hide' }).click();
    await page.evaluate(() => navigator.clipboard.writeText('something else'));
    const row = page.locator('tr', { hasText: 'n8n production' });
    await row.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('Key "n8n production" copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await page.locator('#secret').isHidden()).toBe(true);

    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This cannot be undone').waitFor();
    await w.shot('keys-revoke', { dialog: true });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    // Revoked keys fold away: out of the list of keys, behind "Revoked keys".
    const folded = page.locator('details.revoked');
    await folded.getByText('Revoked keys (1)').waitFor();
    expect(await folded.locator('tr', { hasText: 'n8n production' }).isVisible()).toBe(false);
    await folded.getByText('Revoked keys (1)').click();
    await folded.locator('tr', { hasText: 'n8n production' }).getByText('Revoked').waitFor();
    expect(await folded.locator('tr', { hasText: 'n8n production' }).getByRole('button').count()).toBe(0);
    const after = await call(w.svc.baseUrl, 'GET', '/api/api-key/current', { key });
    expect(after.status).toBe(401);
  });

  test('keys: the guided rotation moves an integration to a new key, then revokes the old one', async () => {
    const old = await createKey(w.svc, w.owner.session, 'shop sync', 'own');
    await page.reload();
    await page.getByLabel('E-mail').waitFor(); // a reload forgets the session: it lived in memory only
    await page.getByLabel('E-mail').fill(w.owner.email);
    await page.getByLabel('Password').fill(w.owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await w.go('keys', 'API keys');
    await page
      .locator('tr', { has: page.getByRole('cell', { name: 'shop sync', exact: true }) })
      .getByRole('button', { name: 'Rotate' })
      .click();
    const card = page.locator('section.rotation');
    await card.getByRole('button', { name: 'Create the new key' }).click();
    const fresh = await page.locator('#secret-key').inputValue();
    seen.secrets.add(fresh);
    expect(fresh).not.toBe(old.key);
    expect(await card.getByRole('button', { name: 'Revoke "shop sync"' }).isDisabled()).toBe(true);
    // The integration moves: its next call uses the new key, and the console sees the last-used time move.
    expect((await call(w.svc.baseUrl, 'GET', '/api/api-key/current', { key: fresh })).body.result.key).toMatchObject({
      name: 'shop sync (new)',
      recordScope: 'own',
    });
    await card.getByRole('button', { name: 'Check again' }).click();
    await card.getByRole('button', { name: 'Revoke "shop sync"' }).and(page.locator(':enabled')).waitFor();
    await w.hideInPicture(fresh);
    await w.shot('keys-rotation');
    await card.getByRole('button', { name: 'Revoke "shop sync"' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.locator('details.revoked').getByText('Revoked keys (2)').waitFor();
    expect((await call(w.svc.baseUrl, 'GET', '/api/api-key/current', { key: old.key })).status).toBe(401);
    expect((await call(w.svc.baseUrl, 'GET', '/api/api-key/current', { key: fresh })).status).toBe(200);

    // Rename it and let it see the whole account: the key itself keeps working.
    const row = page.locator('tr', { has: page.getByRole('cell', { name: 'shop sync (new)', exact: true }) });
    await row.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('dialog').getByLabel('New name').fill('shop sync 2');
    await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
    await page.getByText('Renamed to "shop sync 2".').waitFor();
    await page
      .locator('tr', { has: page.getByRole('cell', { name: 'shop sync 2', exact: true }) })
      .getByRole('button', { name: 'Change records' })
      .click();
    await page.getByRole('dialog').locator('select').selectOption('account');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('"shop sync 2" now sees: Everything in the account.').waitFor();
    expect((await call(w.svc.baseUrl, 'GET', '/api/api-key/current', { key: fresh })).body.result.key).toMatchObject({
      name: 'shop sync 2',
      recordScope: 'account',
    });
  });

  test('connects the sandbox supplier by signing in at it', async () => {
    await w.go('connections', 'Connections');
    const card = page.locator('form.supplier', { hasText: 'Sandbox Supplier (sign-in)' });
    // No test environment at this supplier: no test mode is offered (the API-key sandbox has one).
    expect(await card.getByLabel('Environment').locator('option').allTextContents()).toEqual(['Live']);
    const withSandbox = page.locator('form.supplier', { hasText: 'Sandbox Supplier' }).filter({ hasNotText: '(sign-in)' }).first();
    expect(await withSandbox.getByLabel('Environment').locator('option').allTextContents()).toEqual(['Live', 'Test']);
    await card.getByLabel('Environment').selectOption('live');
    await w.shot('connections-catalogue');
    const [popup] = await Promise.all([w.browser.context.waitForEvent('page'), card.getByRole('button', { name: /Sign in at/ }).click()]);
    await popup.waitForLoadState();
    await popup.getByLabel('Account id or email').fill(supplierAccount.accountId);
    await popup.getByRole('button', { name: 'Approve' }).click();
    await popup.waitForURL(/\/api\/store-suppliers\/oauth\/callback/);
    expect(await popup.textContent('body')).toContain('"hasCredentials":true');
    await popup.close();
    const conn = page.locator('article.connection', { hasText: 'Sandbox Supplier (sign-in)' });
    await conn.waitFor();
    connectionId = (await conn.getAttribute('data-connection-id'))!;
    expect(await conn.innerText()).toContain(`${supplierAccount.accountId} (live)`);
    const list = await w.svc.call('GET', `/api/store-suppliers/${w.storeId}`, { key: w.owner.key });
    expect(list.body.result.map((c: any) => [c.id, c.supplierKey])).toEqual([[connectionId, 'sandbox-signin']]);
    await conn.getByRole('button', { name: 'Test now' }).click();
    await page.getByText('answers.').waitFor();
    await page.locator('article.connection').getByText('Working, as of').waitFor();
    await w.shot('connections');
    await page.locator('article.connection').getByRole('button', { name: 'Disconnect…' }).click();
    await page.getByRole('dialog').getByText('linked product(s)').waitFor();
    await w.shot('connections-disconnect', { dialog: true });
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await w.svc.call('GET', `/api/store-suppliers/${w.storeId}`, { key: w.owner.key })).body.result).toHaveLength(1);
  });

  test('a paused order (insufficient balance) is retried from the console after a top-up', async () => {
    const sent = await pausedOrder(w.svc, w.sandbox, w.storeId, w.owner.key, connectionId);
    expect(sent.body.result).toMatchObject({ status: 'needsReview', reviewReason: 'insufficientBalance' });
    pausedId = sent.body.result._id;

    await w.go('review', 'Review queue');
    const row = page.locator(`tr[data-supplier-order="${pausedId}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('Your balance at the supplier is too low');
    await row.getByRole('button', { name: 'Details' }).click();
    const detail = page.locator('.so-details');
    await detail.getByRole('button', { name: 'Retry', exact: true }).waitFor();
    // What to do next, money with its currency, and history in sentences (never raw JSON).
    expect(await row.innerText()).toContain('What to do: Top up your balance at the supplier, then retry.');
    expect(await row.innerText()).toMatch(/Balance \$0\.00 is below the order total \$\d+\.\d\d/);
    const history = await detail.locator('.history').innerText();
    expect(history).toContain('Created because someone sent the part, to be paid at once (pay now');
    expect(history).toContain('Stopped for review: Your balance at the supplier is too low to pay for it.');
    expect(history).not.toMatch(/[{}]|"payNow"|trigger/);
    await w.shot('review');

    // A retry that pauses again is no success: said in the error style, with what to do next.
    await detail.getByRole('button', { name: 'Retry', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Retry' }).click();
    const again = page.locator('#notice.error');
    await again.getByText(`Order ${sent.body.result.orderNumber} stopped: Your balance at the supplier is too low to pay for it.`, { exact: false }).waitFor();
    expect(await again.innerText()).toContain('Top up your balance at the supplier, then retry.');

    await w.sandbox.control('POST', `/accounts/${supplierAccount.accountId}/balance`, { balanceMinor: 1_000_000 });
    await detail.getByRole('button', { name: 'Retry', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('pays it').waitFor();
    await w.shot('review-retry', { dialog: true });
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await page.locator('#notice.ok').getByText(`Order ${sent.body.result.orderNumber}: accepted and paid.`).waitFor();
    await page.getByText('Nothing waits for review.').waitFor();
    await w.shot('review-cleared');

    const so = await w.svc.call('GET', `/api/store-suppliers/${w.storeId}/orders/${pausedId}`, { key: w.owner.key });
    expect(so.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' }, reviewReason: null });
    expect(so.body.result.events.find((e: any) => e.type === 'retry').actor).toEqual({ kind: 'user', id: w.owner.accountId });
    const r = await received(w.sandbox);
    expect(r.all.payments.filter((x: any) => x.orderNumber === so.body.result.supplierOrderNumber)).toHaveLength(1);
  });

  test("connections: connect by API key, balance, automation, the store's routing rule, switch off and on, disconnect after its impact", async () => {
    const acc = await w.sandbox.account(123_45);
    await w.go('connections', 'Connections');
    const card = page.locator('form.supplier', { hasText: 'Sandbox Supplier' }).filter({ hasNotText: '(sign-in)' }).first();
    await card.getByLabel('Environment').selectOption('live');
    await card.getByLabel('Sandbox Supplier API key').fill(acc.liveKey);
    await card.getByRole('button', { name: 'Connect Sandbox Supplier' }).click();
    await page.getByText('Sandbox Supplier connected.').waitFor();
    const conn = page.locator('article.connection').filter({ hasNotText: '(sign-in)' });
    const id = (await conn.getAttribute('data-connection-id'))!;
    await conn.getByText('$123.45').waitFor();

    await conn.getByLabel('Stop orders costing more than').fill('50');
    await conn.getByLabel('Never send to these countries').fill('ca, br');
    await conn.getByRole('button', { name: 'Save automation' }).click();
    await page.getByText('Automation saved.').waitFor();
    // Reading the balance was a call to the supplier: the health shown is that latest one, not "nothing known".
    await page.locator('article.connection').filter({ hasNotText: '(sign-in)' }).getByText('Working, as of').waitFor();
    expect(await page.locator('article.connection').filter({ hasNotText: '(sign-in)' }).innerText()).toContain('Sandbox Supplier answered the last call.');
    const read = async () => (await w.svc.call('GET', `/api/store-suppliers/${w.storeId}`, { key: w.owner.key })).body.result.find((c: any) => c.id === id);
    const saved = (await read()).automation;
    expect(saved.costLimit).toEqual({ amountMinor: 5000, currency: 'USD' });
    expect([...saved.excludedCountries].sort()).toEqual(['BR', 'CA']);

    // The store's routing rule: a form of its own beside the connections, read back over HTTP as saved.
    const routing = page.locator('form.routing');
    await routing.getByText("the store chooses the product's own supplier").waitFor();
    await routing.getByLabel('Choose the supplier by').selectOption('fastest');
    await routing.getByLabel('At most this % dearer than the cheapest').fill('15');
    await routing.getByRole('button', { name: 'Save routing' }).click();
    await page.getByText('Routing saved.').waitFor();
    await page.locator('form.routing').getByText('the fastest supplier, at most 15% dearer than the cheapest').waitFor();
    expect((await w.svc.call('GET', `/api/store-suppliers/${w.storeId}/routing`, { key: w.owner.key })).body.result.routing).toEqual({
      rule: 'fastest',
      maxCostAboveCheapestPercent: 15,
    });
    await page.locator('form.routing').getByLabel('Choose the supplier by').selectOption('primary');
    await page.locator('form.routing').getByRole('button', { name: 'Save routing' }).click();
    await page.locator('form.routing').getByText("the store chooses the product's own supplier").waitFor();
    expect((await w.svc.call('GET', `/api/store-suppliers/${w.storeId}/routing`, { key: w.owner.key })).body.result.routing).toEqual({ rule: 'primary' });

    await page.locator(`article[data-connection-id="${id}"]`).getByRole('button', { name: 'Switch off' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Switch off' }).click();
    await page.getByText('Sandbox Supplier is off.').waitFor();
    expect((await read()).enabled).toBe(false);
    await page.locator(`article[data-connection-id="${id}"]`).getByRole('button', { name: 'Switch on' }).click();
    await page.getByText('Sandbox Supplier is on.').waitFor();
    expect((await read()).enabled).toBe(true);

    await page.locator(`article[data-connection-id="${id}"]`).getByRole('button', { name: 'Disconnect…' }).click();
    await page.getByRole('dialog').getByText('0 linked product(s)').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Sandbox Supplier disconnected.').waitFor();
    expect(await read()).toBeUndefined();
  });

  test('nothing secret is kept in storage or URLs, and the page raised no error', async () => {
    const storage = await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage }, url: location.href }));
    expect(storage.local).toEqual({});
    for (const secret of [w.owner.session, w.owner.password, w.owner.key]) {
      expect(JSON.stringify(storage)).not.toContain(secret);
    }
    expect(w.browser.errors).toEqual([]);
  });
});

browser.end();
