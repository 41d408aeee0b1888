/** One console test file's world: a sandbox supplier, the service, a merchant with a store, and Chromium signed in. */
import type { Page } from 'playwright-core';
import { createStore, Developer, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { Browser, hideInPicture, launchBrowser, shot } from './browser';

export interface ConsoleWorld {
  sandbox: Sandbox;
  svc: Service;
  owner: Developer;
  storeId: string;
  browser: Browser;
  page: Page;
  /** Signs in on the page shown (the console keeps its session in memory only). */
  signIn(): Promise<void>;
  /** Clicks a page in the navigation and waits for its heading. */
  go(hash: string, heading: string): Promise<void>;
  /** Opens one order's page by its address and waits for its heading. */
  openOrder(order: { id: string; number: string }): Promise<void>;
  shot(name: string, opts?: { dialog?: boolean }): Promise<void>;
  hideInPicture(secret: string): Promise<void>;
  close(): Promise<void>;
}

export async function openConsole(
  chromium: string,
  opts: { label: string; publicBaseUrl?: boolean; payments?: { baseUrl: string }; env?: Record<string, string> },
): Promise<ConsoleWorld> {
  // The browser first: one that cannot start fails the suite before anything else is set up.
  const browser = await launchBrowser(chromium);
  const sandbox = await startSandbox();
  const svc = await startService({ label: opts.label, sandbox, publicBaseUrl: opts.publicBaseUrl, payments: opts.payments, env: opts.env });
  const owner = await newDeveloper(svc, { plan: 'pro', credits: 5000 });
  const storeId = await createStore(svc, owner.key, 'Corner Shop');
  const page = browser.page;
  return {
    sandbox,
    svc,
    owner,
    storeId,
    browser,
    page,
    async signIn() {
      await page.goto(`${svc.baseUrl}/console`);
      await page.getByLabel('E-mail').fill(owner.email);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Review queue' }).waitFor();
    },
    async go(hash, heading) {
      await page.click(`nav a[href="#${hash}"]`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    },
    async openOrder(order) {
      await page.evaluate((id) => (location.hash = `#orders/${id}`), order.id);
      await page.getByRole('heading', { level: 1, name: new RegExp(`^Order ${order.number}\\b`) }).waitFor();
    },
    shot: (name, o) => shot(page, name, o),
    hideInPicture: (secret) => hideInPicture(page, secret),
    async close() {
      await browser.close();
      await svc.stop();
      await sandbox.close();
    },
  };
}
