/**
 * The console's connect form for Printful, in a real browser against the local Printful-format server: the token
 * (under "API key") is required, the store id is optional and sent only when given (account-level tokens).
 */
import type { Page } from 'playwright-core';
import { startFakePrintful, RunningFakePrintful } from '../fakes/printful';
import { createStore, seen } from '../support/harness';
import { browserSuite } from './chromium';
import { ConsoleWorld, openConsole } from './session';

jest.setTimeout(120_000);

const browser = browserSuite();

let w: ConsoleWorld;
let page: Page;
let fake: RunningFakePrintful;

async function account(accountLevel: boolean): Promise<{ token: string; storeIds: number[] }> {
  const res = await fetch(`${fake.controlUrl}/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accountLevel, stores: 2, name: accountLevel ? 'Account shop' : 'Store shop' }),
  });
  const acc = (await res.json()) as { token: string; storeIds: number[] };
  seen.secrets.add(acc.token);
  return acc;
}

browser.describe('connecting Printful in the console', () => {
  beforeAll(async () => {
    fake = await startFakePrintful();
    w = await openConsole(browser.chromium(), { label: 'console-printful', env: { PRINTFUL_API_BASE_URL: fake.baseUrl } });
    page = w.page;
  });
  afterAll(async () => {
    await w?.close();
    await fake?.close();
  });

  test('the token is required, the store id optional; a store token connects without one, an account token with one', async () => {
    await w.signIn();
    await w.go('connections', 'Connections');
    const card = page.locator('form.supplier', { hasText: 'Printful' }).first();
    expect(await card.getByLabel('Printful API key').getAttribute('required')).not.toBeNull();
    expect(await card.getByLabel('Printful store id').getAttribute('required')).toBeNull();

    const store = await account(false);
    await w.hideInPicture(store.token);
    await card.getByLabel('Printful API key').fill(store.token);
    await card.getByRole('button', { name: 'Connect Printful' }).click();
    await page.getByText('Printful connected.').waitFor();

    const other = await createStore(w.svc, w.owner.key, 'Second Shop');
    const read = async (storeId: string) => (await w.svc.call('GET', `/api/store-suppliers/${storeId}`, { key: w.owner.key })).body.result;
    expect((await read(w.storeId)).map((c: { supplierKey: string; accountLabel: string }) => [c.supplierKey, c.accountLabel])).toEqual([
      ['printful', `Printful store "Store shop" (${store.storeIds[0]})`],
    ]);

    // The account-level token names its second store; the service checked it with Printful (X-PF-Store-Id).
    const acct = await account(true);
    const res = await w.svc.call('POST', `/api/store-suppliers/${other}`, {
      key: w.owner.key,
      body: { supplierKey: 'printful', mode: 'live', credentials: { apiKey: acct.token, storeId: String(acct.storeIds[1]) } },
    });
    expect(res.status).toBe(201);
    expect(res.body.result.accountLabel).toBe(`Printful store "Account shop 2" (${acct.storeIds[1]})`);
    expect(w.browser.errors).toEqual([]);
  });
});

browser.end();
