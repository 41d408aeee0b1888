/** `npm start` with nothing configured: embedded Postgres under DATA_DIR, migrations, the demo account and keys. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startDefault, stopStartedDefaults } from '../support/embedded';
import { call, eventually, freePort, leakScanTest, notificationAddress, seen } from '../support/harness';

afterAll(stopStartedDefaults);

/** `npm start`'s environment, as its script in package.json sets it: private event targets only for the embedded default. */
function npmStartSets(env: Record<string, string | undefined>): string {
  const script: string = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')).scripts.start;
  const probe = script
    .replace('npm run build:server --silent && ', '')
    .replace(/node( --[\w=-]+)* dist\/server\/main\.js/, 'node -e "process.stdout.write(String(process.env.EVENT_TARGETS_ALLOW_PRIVATE))"');
  return spawnSync('sh', ['-c', probe], { env: env as NodeJS.ProcessEnv, encoding: 'utf8' }).stdout;
}

test('npm start sets EVENT_TARGETS_ALLOW_PRIVATE for the embedded default only, and leaves an explicit value alone', () => {
  const base = { PATH: process.env.PATH };
  expect(npmStartSets(base)).toBe('true');
  expect(npmStartSets({ ...base, DATABASE_URL: 'postgres://db.example.test/shop' })).toBe('undefined');
  expect(npmStartSets({ ...base, EVENT_TARGETS_ALLOW_PRIVATE: 'false' })).toBe('false');
});

/** A store order of a new store product, paid by a "shopper" at the sandbox provider's checkout page; waits until the order is paid. */
async function payAtCheckout(demo: any): Promise<void> {
  const product = await call(demo.baseUrl, 'POST', `/api/store-products/${demo.storeId}`, {
    key: demo.apiKey,
    body: { title: 'Mug', variants: [{ sku: `MUG-${Date.now()}`, title: 'Default', priceMinor: 1250, currency: 'USD', stock: 5 }] },
  });
  expect(product.status).toBe(201);
  const order = await call(demo.baseUrl, 'POST', `/api/store-orders/${demo.storeId}`, {
    key: demo.apiKey,
    body: {
      items: [{ productId: product.body.result.id, variantId: product.body.result.variants[0].id, quantity: 2 }],
      destination: { name: 'A', line1: '1 Main', city: 'X', postalCode: '1', country: 'US' },
      paymentMethod: 'online',
    },
  });
  const page = await fetch(`${demo.paymentProvider.checkoutUrl}&orderId=${order.body.result.id}&amountMinor=2500&currency=USD`);
  expect(await page.text()).toContain('Pay 25.00 USD');
  const form = new URLSearchParams({ merchant: demo.paymentProvider.merchantId, orderId: order.body.result.id, amountMinor: '2500', currency: 'USD' });
  const paid = await fetch(`${demo.paymentProvider.baseUrl}/checkout`, { method: 'POST', body: form });
  expect(await paid.text()).toContain('Paid');
  await eventually(
    async () => {
      const o = await call(demo.baseUrl, 'GET', `/api/store-orders/${demo.storeId}/${order.body.result.id}`, { key: demo.apiKey });
      return o.body.result.paymentStatus === 'paid' && o.body.result.confirmedAt ? true : undefined;
    },
    20000,
    'the checkout payment to reach the store',
  );
}

test('first start creates the demo once; a restart finds the same account, store and keys', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'store-suppliers-demo-'));
  fs.chmodSync(dataDir, 0o755);
  const pgPort = await freePort();
  const first = await startDefault(dataDir, pgPort);
  const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  seen.secrets.add(demo.apiKey);
  seen.secrets.add(demo.staffApiKey);
  seen.secrets.add(demo.password);
  expect(Object.keys(demo).sort()).toEqual(expect.arrayContaining(['apiKey', 'baseUrl', 'email', 'password', 'staffApiKey', 'storeId']));
  expect(first.stderr()).toContain(`curl -s -H "X-API-Key: ${demo.apiKey}" ${demo.baseUrl}/api/api-key/current`);
  expect(first.stderr()).toContain(`Console: ${demo.baseUrl}/console  (sign in as ${demo.email} / ${demo.password})`);
  // Local trials get the sandbox's fault-injection API, and the banner says it is on.
  expect(first.stderr()).toContain(`Sandbox supplier control API is ON at ${demo.sandboxSupplier.baseUrl}/control`);
  expect((await call(demo.baseUrl, 'GET', '/console')).status).toBe(200);
  expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
  expect(fs.readFileSync(path.join(dataDir, 'app-secret'), 'utf8').length).toBeGreaterThanOrEqual(32);
  // The operator's CLI reaches the embedded database while the service runs (no DATABASE_URL needed).
  const cliEnv: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) };
  delete cliEnv.DATABASE_URL;
  delete cliEnv.APP_SECRET;
  const cli = spawnSync(process.execPath, [path.resolve(__dirname, '../../dist/server/cli.js'), 'account', demo.email], { env: cliEnv, encoding: 'utf8' });
  expect([cli.status, cli.stderr]).toEqual([0, '']);
  expect(JSON.parse(cli.stdout)).toMatchObject({ email: demo.email, plan: 'pro', isDeveloper: true });
  // The operator API is on in the embedded default, with the generated token written for the newcomer.
  seen.secrets.add(demo.operatorToken);
  expect(demo.operatorToken).toMatch(/^sso_[\w-]{40,}$/);
  const staff = await call(demo.baseUrl, 'GET', `/api/operator/accounts?email=${encodeURIComponent(demo.email)}`, {
    headers: { 'X-Operator-Token': demo.operatorToken },
  });
  expect(staff.body.result).toMatchObject({ email: demo.email, plan: 'pro' });

  const current = await call(demo.baseUrl, 'GET', '/api/api-key/current', { key: demo.apiKey });
  expect(current.status).toBe(200);
  expect(current.body.result.plan).toEqual({ name: 'pro', includesDropshipping: true });
  expect(current.body.result.owner.isDeveloper).toBe(true);
  const stores = await call(demo.baseUrl, 'GET', '/api/stores', { key: demo.staffApiKey });
  expect(stores.body.result).toEqual([expect.objectContaining({ id: demo.storeId, role: 'staff', permissions: ['suppliers.view'] })]);
  // The demo store is connected to the bundled sandbox supplier in live mode, ready to browse.
  expect(demo.sandboxSupplier).toEqual({
    baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    apiKey: 'sbx_live_demo',
    controlUrl: `${demo.sandboxSupplier.baseUrl}/control`,
  });
  const connections = await call(demo.baseUrl, 'GET', `/api/store-suppliers/${demo.storeId}`, { key: demo.apiKey });
  // And to the sandbox program's second warehouse, a supplier of its own (sandbox-eu, its own account) through the same adapter.
  expect(demo.sandboxSupplierEu).toEqual({
    baseUrl: `${demo.sandboxSupplier.baseUrl}/eu`,
    apiKey: 'sbx_live_demo_eu',
    controlUrl: `${demo.sandboxSupplier.baseUrl}/eu/control`,
  });
  expect(connections.body.result).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        id: demo.connectionId,
        supplierKey: 'sandbox',
        mode: 'live',
        enabled: true,
        webhookUrl: expect.stringMatching(notificationAddress(demo.baseUrl, demo.storeId, demo.connectionId)),
      }),
      expect.objectContaining({
        id: demo.backupConnectionId,
        supplierKey: 'sandbox-eu',
        mode: 'live',
        enabled: true,
        accountLabel: 'acct_demo_eu (live)',
        sharedSupplierAccount: false,
        webhookUrl: expect.stringMatching(notificationAddress(demo.baseUrl, demo.storeId, demo.backupConnectionId, 'sandbox-eu')),
      }),
    ]),
  );
  expect(connections.body.result).toHaveLength(2);
  // The demo's linked products each carry their twin at the second warehouse as a backup, ready for rerouting.
  const links = (await call(demo.baseUrl, 'GET', `/api/store-suppliers/${demo.storeId}/links?pageSize=100`, { key: demo.apiKey })).body.result.items;
  expect(links).toHaveLength(3);
  for (const link of links) {
    expect(link.connectionId).toBe(demo.connectionId);
    expect(link.variants[0].alternates).toEqual([
      expect.objectContaining({
        connectionId: demo.backupConnectionId,
        supplierProductId: link.supplierProductId,
        supplierVariantId: link.variants[0].supplierVariantId,
        available: true,
      }),
    ]);
    expect(link.variants[0].alternates[0].costMinor * 100).toBeLessThanOrEqual(link.variants[0].costMinor * 110);
  }
  const euBalance = await call(demo.baseUrl, 'GET', `/api/store-suppliers/${demo.storeId}/${demo.backupConnectionId}/balance`, { key: demo.apiKey });
  expect(euBalance.body.result).toEqual({ amountMinor: expect.any(Number), currency: 'USD' });
  const balance = await call(demo.baseUrl, 'GET', `/api/store-suppliers/${demo.storeId}/${demo.connectionId}/balance`, { key: demo.apiKey });
  expect(balance.body.result).toEqual({ amountMinor: expect.any(Number), currency: 'USD' });
  // The demo store takes its shopper payments from the bundled sandbox payment provider.
  expect(demo.paymentProvider).toEqual({
    baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    apiKey: 'spk_demo',
    merchantId: 'mer_demo',
    checkoutUrl: `${demo.paymentProvider.baseUrl}/checkout?merchant=mer_demo`,
  });
  const provider = await call(demo.baseUrl, 'GET', `/api/stores/${demo.storeId}/payment-provider`, { key: demo.apiKey });
  expect(provider.body.result).toMatchObject({
    provider: 'sandbox',
    configured: true,
    notificationUrl: `${demo.baseUrl}/api/payment-notifications/${demo.storeId}`,
    checkoutUrl: demo.paymentProvider.checkoutUrl,
  });
  expect(first.stderr()).toContain(`Shoppers pay at the sandbox payment provider: ${demo.paymentProvider.checkoutUrl}&orderId=`);
  await payAtCheckout(demo);
  const staffView = await call(demo.baseUrl, 'GET', `/api/store-suppliers/${demo.storeId}`, { key: demo.staffApiKey });
  expect(staffView.status).toBe(200);
  const staffManage = await call(demo.baseUrl, 'POST', `/api/store-suppliers/${demo.storeId}/${demo.connectionId}/test`, { key: demo.staffApiKey });
  expect(staffManage.body.error.code).toBe('permissionDenied');
  const signIn = await call(demo.baseUrl, 'POST', '/api/auth/sign-in', { body: { email: demo.email, password: demo.password } });
  expect(signIn.status).toBe(200);
  seen.secrets.add(signIn.body.result.sessionToken);
  // Started without EVENT_TARGETS_ALLOW_PRIVATE, the embedded database allows no private event targets: an account
  // signed up a minute ago cannot make the service POST to the sandbox's loopback control API.
  expect(first.stderr()).not.toContain('EVENT_TARGETS_ALLOW_PRIVATE');
  const newcomer = await call(demo.baseUrl, 'POST', '/api/auth/sign-up', {
    body: { email: 'newcomer@example.test', password: 'newcomer-password-1', name: 'New' },
  });
  seen.secrets.add(newcomer.body.result.sessionToken);
  seen.secrets.add('newcomer-password-1');
  const ownStore = await call(demo.baseUrl, 'POST', '/api/stores', { session: newcomer.body.result.sessionToken, body: { name: 'Mine', currency: 'USD' } });
  const toControl = await call(demo.baseUrl, 'POST', `/api/store-suppliers/${ownStore.body.result.id}/event-subscriptions`, {
    session: newcomer.body.result.sessionToken,
    body: { url: `${demo.sandboxSupplier.controlUrl}/reset`, eventTypes: ['*'] },
  });
  expect([toControl.status, toControl.body.error?.code]).toEqual([400, 'targetNotAllowed']);

  first.proc.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  // The embedded server stopped with the process: its port is free again.
  await expect(new Promise((resolve, reject) => net.connect(pgPort, '127.0.0.1').on('connect', resolve).on('error', reject))).rejects.toThrow();

  // `npm start` sets it for the embedded default: the banner and a warning log line say so, and a local receiver works.
  const second = await startDefault(dataDir, pgPort, { EVENT_TARGETS_ALLOW_PRIVATE: npmStartSets({ PATH: process.env.PATH }) });
  expect(second.stderr()).toContain('Event subscriptions may target loopback and private addresses (EVENT_TARGETS_ALLOW_PRIVATE=true');
  expect(
    second
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"private event targets are allowed"')),
  ).toEqual([expect.stringContaining('"level":40')]);
  const again = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo.json'), 'utf8'));
  const strip = (d: any) => ({
    ...d,
    baseUrl: '',
    sandboxSupplier: { ...d.sandboxSupplier, baseUrl: '', controlUrl: '' },
    sandboxSupplierEu: { ...d.sandboxSupplierEu, baseUrl: '', controlUrl: '' },
    paymentProvider: { ...d.paymentProvider, baseUrl: '', checkoutUrl: '' },
  });
  expect(strip(again)).toEqual(strip(demo));
  // The sandbox started afresh; the demo connection still works against it.
  const balanceAgain = await call(again.baseUrl, 'GET', `/api/store-suppliers/${again.storeId}/${again.connectionId}/balance`, { key: again.apiKey });
  expect(balanceAgain.status).toBe(200);
  // The links with backups were made once: a restart finds them and adds none.
  expect((await call(again.baseUrl, 'GET', `/api/store-suppliers/${again.storeId}/links?pageSize=100`, { key: again.apiKey })).body.result.items).toHaveLength(
    3,
  );
  // The sandbox payment provider started afresh too; the demo store was set up with it again.
  await payAtCheckout(again);
  const local = await call(again.baseUrl, 'POST', `/api/store-suppliers/${again.storeId}/event-subscriptions`, {
    key: again.apiKey,
    body: { url: `${again.baseUrl}/healthz`, eventTypes: ['connection.healthChanged'] },
  });
  expect(local.status).toBe(201);
  seen.secrets.add(local.body.result.secret);
  const accounts = await call(again.baseUrl, 'GET', '/api/api-keys', { session: signIn.body.result.sessionToken });
  expect(accounts.body.result.filter((k: { name: string }) => k.name === 'Demo key')).toHaveLength(1);
  second.proc.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

leakScanTest();
