/** The browser side of the console test: a fresh headless Chromium, screenshots, and hiding secrets in them. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from './chromium';

const ROOT = path.resolve(__dirname, '../..');
// `CONSOLE_SCREENSHOTS=docs` refreshes the pictures in docs/console; otherwise they go under dist, out of git's way.
const SHOTS = process.env.CONSOLE_SCREENSHOTS === 'docs' ? path.join(ROOT, 'docs/console') : path.join(ROOT, 'dist/console-screenshots');

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Script errors and blocked resources (CSP) the page reported. */
  errors: string[];
  close(): Promise<void>;
}

/** Chromium with a new empty profile, allowed to use the clipboard, in UTC and US English for stable pictures. */
export async function launchBrowser(executablePath: string): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 860 },
    permissions: ['clipboard-read', 'clipboard-write'],
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  // API refusals show up as failed loads; what counts is a script error or a blocked resource (CSP).
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A dialog is pictured over the visible part only, where its backdrop is. */
export async function shot(page: Page, name: string, opts: { dialog?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: !opts.dialog, animations: 'disabled' });
}

/** The pictures go into the docs: the key on screen is replaced by dots first. */
export async function hideInPicture(page: Page, secret: string): Promise<void> {
  await page.evaluate((s) => {
    const dots = `${s.slice(0, 4)}${'•'.repeat(24)}`;
    for (const i of Array.from(document.querySelectorAll('input'))) if (i.value === s) i.value = dots;
    for (const p of Array.from(document.querySelectorAll('pre'))) p.textContent = (p.textContent ?? '').split(s).join(dots);
  }, secret);
}
