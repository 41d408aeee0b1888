/**
 * The merchant console in a real browser (Debian's Chromium through playwright-core): sign in, manage a key,
 * connect the sandbox supplier by signing in at it, and clear a paused order, checking each effect over HTTP.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { call, createKey, createStore, Developer, eventually, leakScanTest, newDeveloper, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { received } from '../support/orders';
import { Browser, hideInPicture as hide, launchBrowser, shot as picture } from './browser';
import { BROWSER_REQUIRED, findChromium } from './chromium';
import { backgroundImport, pausedOrder } from './shop';

jest.setTimeout(120_000);

const browserLookup = findChromium();
// Said out loud, never a silent skip; in CI never a skip at all: the suite runs and fails.
if ('skip' in browserLookup && !BROWSER_REQUIRED) process.stderr.write(`\nBrowser test SKIPPED: ${browserLookup.skip}\n\n`);
const suite = 'path' in browserLookup || BROWSER_REQUIRED ? describe : describe.skip;
const ROOT = path.resolve(__dirname, '../..');

let sandbox: Sandbox;
let svc: Service;
let owner: Developer;
let storeId: string;
let browser: Browser;
let page: Page;
let supplierAccount: { accountId: string };
let connectionId: string;
let pausedId: string;

const shot = (name: string, opts?: { dialog?: boolean }) => picture(page, name, opts);
const hideInPicture = (secret: string) => hide(page, secret);
const go = async (hash: string, heading: string) => {
  await page.click(`nav a[href="#${hash}"]`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
};

suite('merchant console in a browser', () => {
  beforeAll(async () => {
    if ('skip' in browserLookup) throw new Error(`CI=true needs the browser suite to run, and there is no Chromium to run it: ${browserLookup.skip}`);
    // The browser first: one that cannot start fails the suite before anything else is set up.
    browser = await launchBrowser(browserLookup.path);
    page = browser.page;
    sandbox = await startSandbox();
    svc = await startService({ label: 'console', sandbox });
    owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
    storeId = await createStore(svc, owner.key, 'Corner Shop');
    supplierAccount = await sandbox.account(0);
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await sandbox?.close();
  });

  test('the console is served with a strict Content-Security-Policy and small assets', async () => {
    const res = await call(svc.baseUrl, 'GET', '/console');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(res.text).not.toMatch(/\sstyle=|<style/);
    const dirs = [path.join(ROOT, 'console/static'), path.join(ROOT, 'dist/console')];
    const bytes = dirs.flatMap((d) => fs.readdirSync(d).filter((f) => /\.(js|css|html|svg)$/.test(f)).map((f) => fs.statSync(path.join(d, f)).size)).reduce((a, b) => a + b, 0);
    expect(bytes).toBeLessThan(200 * 1024);
    for (const f of ['main.js', 'console.css']) expect((await call(svc.baseUrl, 'GET', `/console/${f}`)).status).toBe(200);
    expect((await call(svc.baseUrl, 'GET', '/console/..%2Fpackage.json')).status).toBe(404);
  });

  test('signs in with e-mail and password', async () => {
    await page.goto(`${svc.baseUrl}/console`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await shot('sign-in');
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('That e-mail address and password do not match.').waitFor();
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    expect(await page.locator('header#top').innerText()).toContain(owner.email);
  });

  test('keys: create, copy, revoke; the revoked key is refused at once', async () => {
    await go('keys', 'API keys');
    await page.getByLabel('Name').fill('n8n production');
    await page.getByLabel('Records it can see').selectOption('account');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#secret-key').inputValue();
    seen.secrets.add(key);
    expect((await call(svc.baseUrl, 'GET', '/api/api-key/current', { key })).body.result.key).toMatchObject({ name: 'n8n production', recordScope: 'account' });
    await page.getByRole('button', { name: 'Copy key' }).first().click();
    await page.getByText('Key copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await page.locator('pre').innerText()).toContain('/mcp');
    await hideInPicture(key);
    await shot('keys');

    const row = page.locator('tr', { hasText: 'n8n production' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('This cannot be undone').waitFor();
    await shot('keys-revoke', { dialog: true });
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    const after = await call(svc.baseUrl, 'GET', '/api/api-key/current', { key });
    expect(after.status).toBe(401);
  });

  test('keys: the guided rotation moves an integration to a new key, then revokes the old one', async () => {
    const old = await createKey(svc, owner.session, 'shop sync', 'own');
    await page.reload();
    await page.getByLabel('E-mail').waitFor(); // a reload forgets the session: it lived in memory only
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await go('keys', 'API keys');
    await page.locator('tr', { has: page.getByRole('cell', { name: 'shop sync', exact: true }) }).getByRole('button', { name: 'Rotate' }).click();
    const card = page.locator('section.rotation');
    await card.getByRole('button', { name: 'Create the new key' }).click();
    const fresh = await page.locator('#secret-key').inputValue();
    seen.secrets.add(fresh);
    expect(fresh).not.toBe(old.key);
    expect(await card.getByRole('button', { name: 'Revoke "shop sync"' }).isDisabled()).toBe(true);
    // The integration moves: its next call uses the new key, and the console sees the last-used time move.
    expect((await call(svc.baseUrl, 'GET', '/api/api-key/current', { key: fresh })).body.result.key).toMatchObject({ name: 'shop sync (new)', recordScope: 'own' });
    await card.getByRole('button', { name: 'Check again' }).click();
    await card.getByRole('button', { name: 'Revoke "shop sync"' }).and(page.locator(':enabled')).waitFor();
    await hideInPicture(fresh);
    await shot('keys-rotation');
    await card.getByRole('button', { name: 'Revoke "shop sync"' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.locator('tr', { has: page.getByRole('cell', { name: 'shop sync', exact: true }) }).getByText('Revoked').waitFor();
    expect((await call(svc.baseUrl, 'GET', '/api/api-key/current', { key: old.key })).status).toBe(401);
    expect((await call(svc.baseUrl, 'GET', '/api/api-key/current', { key: fresh })).status).toBe(200);

    // Rename it and let it see the whole account: the key itself keeps working.
    const row = page.locator('tr', { has: page.getByRole('cell', { name: 'shop sync (new)', exact: true }) });
    await row.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('dialog').getByLabel('New name').fill('shop sync 2');
    await page.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
    await page.getByText('Renamed to "shop sync 2".').waitFor();
    await page.locator('tr', { has: page.getByRole('cell', { name: 'shop sync 2', exact: true }) }).getByRole('button', { name: 'Change records' }).click();
    await page.getByRole('dialog').locator('select').selectOption('account');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('"shop sync 2" now sees: Everything in the account.').waitFor();
    expect((await call(svc.baseUrl, 'GET', '/api/api-key/current', { key: fresh })).body.result.key).toMatchObject({ name: 'shop sync 2', recordScope: 'account' });
  });

  test('connects the sandbox supplier by signing in at it', async () => {
    await go('connections', 'Connections');
    const card = page.locator('form.supplier', { hasText: 'Sandbox Supplier (sign-in)' });
    await card.getByLabel('Environment').selectOption('live');
    await shot('connections-catalogue');
    const [popup] = await Promise.all([browser.context.waitForEvent('page'), card.getByRole('button', { name: /Sign in at/ }).click()]);
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
    const list = await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: owner.key });
    expect(list.body.result.map((c: any) => [c.id, c.supplierKey])).toEqual([[connectionId, 'sandbox-signin']]);
    await conn.getByRole('button', { name: 'Test now' }).click();
    await page.getByText('answers.').waitFor();
    await shot('connections');
    await page.locator('article.connection').getByRole('button', { name: 'Disconnect…' }).click();
    await page.getByRole('dialog').getByText('linked product(s)').waitFor();
    await shot('connections-disconnect', { dialog: true });
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: owner.key })).body.result).toHaveLength(1);
  });

  test('a paused order (insufficient balance) is retried from the console after a top-up', async () => {
    const sent = await pausedOrder(svc, sandbox, storeId, owner.key, connectionId);
    expect(sent.body.result).toMatchObject({ status: 'needsReview', reviewReason: 'insufficientBalance' });
    pausedId = sent.body.result._id;

    await go('review', 'Review queue');
    const row = page.locator(`tr[data-supplier-order="${pausedId}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('Your balance at the supplier is too low');
    await row.getByRole('button', { name: 'Details' }).click();
    const detail = page.locator('.so-details');
    await detail.getByRole('button', { name: 'Retry', exact: true }).waitFor();
    expect(await detail.innerText()).toContain('History');
    await shot('review');

    await sandbox.control('POST', `/accounts/${supplierAccount.accountId}/balance`, { balanceMinor: 1_000_000 });
    await detail.getByRole('button', { name: 'Retry', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('pays it').waitFor();
    await shot('review-retry', { dialog: true });
    await dialog.getByRole('button', { name: 'Retry' }).click();
    await page.getByText(`Order ${sent.body.result.orderNumber}: Confirmed.`).waitFor();
    await page.getByText('Nothing waits for review.').waitFor();
    await shot('review-cleared');

    const so = await svc.call('GET', `/api/store-suppliers/${storeId}/orders/${pausedId}`, { key: owner.key });
    expect(so.body.result).toMatchObject({ status: 'confirmed', payment: { status: 'paid' }, reviewReason: null });
    expect(so.body.result.events.find((e: any) => e.type === 'retry').actor).toEqual({ kind: 'user', id: owner.accountId });
    const r = await received(sandbox);
    expect(r.all.payments.filter((x: any) => x.orderNumber === so.body.result.supplierOrderNumber)).toHaveLength(1);
  });

  test('connections: connect by API key, balance, automation, switch off and on, disconnect after its impact', async () => {
    const acc = await sandbox.account(123_45);
    await go('connections', 'Connections');
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
    const read = async () => (await svc.call('GET', `/api/store-suppliers/${storeId}`, { key: owner.key })).body.result.find((c: any) => c.id === id);
    const saved = (await read()).automation;
    expect(saved.costLimit).toEqual({ amountMinor: 5000, currency: 'USD' });
    expect([...saved.excludedCountries].sort()).toEqual(['BR', 'CA']);

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

  test('imports, links and credits', async () => {
    const job = await backgroundImport(svc, sandbox, storeId, owner.key, connectionId);
    expect(job.status).toBe(202);
    await go('catalog', 'Imports and links');
    await page.getByLabel('Import job id').fill(job.body.result.id);
    await page.getByRole('button', { name: 'Show progress' }).click();
    await page.locator('td', { hasText: job.body.result.id }).waitFor();
    await eventually(async () => (await svc.call('GET', `/api/store-suppliers/${storeId}/imports/${job.body.result.id}`, { key: owner.key })).body.result.finishedAt ?? undefined, 60_000, 'the import job');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('td', { hasText: 'imported' }).first().waitFor();
    expect(await page.locator('section', { hasText: 'Product links' }).innerText()).toMatch(/Product links \(\d+\)/);
    await shot('imports-and-links');

    await go('credits', 'Credits');
    const account = (await svc.call('GET', '/api/account', { session: owner.session })).body.result;
    await page.getByText(`${account.credits} credits`, { exact: true }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(25);
    await shot('credits');
    await page.getByRole('button', { name: 'Show up to 200' }).click();
    await page.getByText('Welcome credits').waitFor();
    const ledger = await page.locator('table').innerText();
    // The operator's grant (test/support/harness.ts newDeveloper) with its reason; no button adds credits.
    expect(ledger).toContain('Credits added by the operator: test set-up');
    expect(await page.locator('main').innerText()).toContain('contact the operator of this service');
    expect(await page.getByRole('button', { name: /buy|add credits/i }).count()).toBe(0);
    expect(ledger).toContain('Order sent to a supplier');
    expect(ledger).toContain('Supplier product imported');
    const entries = (await svc.call('GET', '/api/account/credits/ledger?limit=200', { session: owner.session })).body.result;
    expect(await page.locator('tbody tr').count()).toBe(entries.length);
    expect(entries[0].balanceAfter).toBe(account.credits);
  });

  test('nothing secret is kept in storage or URLs, and the page raised no error', async () => {
    const storage = await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage }, url: location.href }));
    expect(storage.local).toEqual({});
    for (const secret of [owner.session, owner.password, owner.key]) {
      expect(JSON.stringify(storage)).not.toContain(secret);
    }
    expect(browser.errors).toEqual([]);
  });
});

if ('path' in browserLookup) leakScanTest();
else if (!BROWSER_REQUIRED) test.skip(`browser test skipped: ${browserLookup.skip}`, () => undefined);
