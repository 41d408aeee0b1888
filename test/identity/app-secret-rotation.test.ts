/**
 * Rotating APP_SECRET (issue 35): the secret is a keyring, APP_SECRET plus the earlier ones in APP_SECRET_PREVIOUS.
 * Keys, sessions, cursors, supplier connections and event subscriptions keep working across a rotation, `reseal`
 * frees the data from the earlier secret, and a start whose keyring opens nothing says so in one sentence.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createDatabase, createKey, leakScanTest, Sandbox, seen, Service, startSandbox, startService } from '../support/harness';
import { openShop, Shop } from '../support/orders';
import { Receiver } from '../support/receiver';
import { FAST_EVENTS, subscribe, verifiedEvents } from '../events/support';

const OLD = 'rotation-old-secret-'.padEnd(48, 'o');
const NEW = 'rotation-new-secret-'.padEnd(48, 'n');
const WRONG = 'rotation-wrong-secret-'.padEnd(48, 'w');
const PROVIDER_SECRET = `whsec_${Buffer.from('rotation-test-signing-secret-32by').toString('base64')}`;
for (const s of [OLD, NEW, WRONG, 'spk_rotation_test_key', PROVIDER_SECRET]) seen.secrets.add(s);
const main = path.resolve(__dirname, '../../dist/server/main.js');
const cli = path.resolve(__dirname, '../../dist/server/cli.js');

let databaseUrl: string;
let sandbox: Sandbox;
let receiver: Receiver & { url: string };
const running: Service[] = [];
afterAll(async () => {
  for (const s of running) await s.stop().catch(() => undefined);
  await receiver?.down();
  await sandbox?.close();
});

const serviceWith = async (secret: string, previous = '') => {
  const svc = await startService({
    label: 'rotation',
    databaseUrl,
    sandbox,
    appSecret: secret,
    privateTargets: true,
    env: { ...FAST_EVENTS, APP_SECRET_PREVIOUS: previous },
  });
  running.push(svc);
  return svc;
};
const stop = async (svc: Service) => {
  running.splice(running.indexOf(svc), 1);
  expect(await svc.stop()).toBe(0);
};
const run = (file: string, secret: string, previous: string, args: string[] = []) =>
  spawnSync(process.execPath, [file, ...args], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      APP_SECRET: secret,
      APP_SECRET_PREVIOUS: previous,
      SEED_DEMO: 'false',
      SANDBOX_SUPPLIER: 'false',
      PORT: '0',
    },
    encoding: 'utf8',
    timeout: 60000,
  });

/** A cursor signed under the keyring as it is now. */
async function cursorOf(svc: Service, shop: Shop): Promise<string> {
  const listed = await svc.call('GET', `/api/store-products/${shop.storeId}?pageSize=1`, { key: shop.owner.key });
  return listed.body.result.pagination.nextCursor;
}

/** Everything sealed or looked up under the keyring answers as it did. */
async function stillWorks(svc: Service, shop: Shop, keyId: string, cursor: string) {
  const current = await svc.call('GET', '/api/api-key/current', { key: shop.owner.key });
  expect([current.status, current.body.result.key.id]).toEqual([200, shop.owner.keyId]);
  expect((await svc.call('GET', '/api/api-keys', { session: shop.owner.session })).status).toBe(200);
  const copied = await svc.call('GET', `/api/api-keys/${keyId}/secret`, { session: shop.owner.session });
  expect(copied.status).toBe(200);
  const balance = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/${shop.connId}/balance`, { key: shop.owner.key });
  expect([balance.status, balance.body.result?.currency]).toEqual([200, 'USD']);
  const page = await svc.call('GET', `/api/store-products/${shop.storeId}?pageSize=1&cursor=${encodeURIComponent(cursor)}`, { key: shop.owner.key });
  expect([page.status, page.body.result.items.length]).toEqual([200, 1]);
  return copied.body.result.key as string;
}

test('rotate with the earlier secret in the ring, reseal, then run without it; a wrong secret alone is refused in one sentence', async () => {
  databaseUrl = await createDatabase('rotation');
  sandbox = await startSandbox();
  receiver = await Receiver.start();
  const first = await serviceWith(OLD);
  const shop = await openShop(first, sandbox);
  const second = await createKey(first, shop.owner.session, 'second key');
  const subscription = await subscribe(first, shop.owner.key, shop.storeId, receiver.url, ['*']);
  const provider = await first.call('PUT', `/api/stores/${shop.storeId}/payment-provider`, {
    key: shop.owner.key,
    body: { provider: 'sandbox', signingSecret: PROVIDER_SECRET, apiKey: 'spk_rotation_test_key' },
  });
  expect([provider.status, provider.status === 200 ? '' : provider.text]).toEqual([200, '']);
  const cursor = await cursorOf(first, shop);
  expect(typeof cursor).toBe('string');
  await stop(first);

  // 1. Rotated: the new secret first, the old one still in the ring.
  const rotated = await serviceWith(NEW, OLD);
  expect(await stillWorks(rotated, shop, second.id, cursor)).toBe(second.key);
  const madeAfter = await createKey(rotated, shop.owner.session, 'made after the rotation');
  await stop(rotated);

  // 2. Reseal: everything sealed again with the new secret; a second run finds nothing left to do.
  const once = run(cli, NEW, OLD, ['reseal']);
  expect([once.status, once.stderr]).toEqual([0, '']);
  const report = JSON.parse(once.stdout);
  expect(report.lookupKeys).toEqual({ resealed: 1, current: 0, unreadable: 0 });
  expect(report.apiKeys).toMatchObject({ resealed: 2, current: 1, unreadable: 0 });
  expect(report.supplierCredentials).toMatchObject({ resealed: 1, unreadable: 0 });
  expect(report.subscriptionSecrets).toMatchObject({ resealed: 1, unreadable: 0 });
  expect(report.paymentProviderSecrets).toEqual({ resealed: 1, current: 0, unreadable: 0 });
  expect(report.paymentProviderApiKeys).toEqual({ resealed: 1, current: 0, unreadable: 0 });
  const twice = JSON.parse(run(cli, NEW, OLD, ['reseal']).stdout);
  expect(Object.values(twice).every((c: any) => c.resealed === 0 && c.unreadable === 0)).toBe(true);

  // 3. The earlier secret gone: all of it still works, the subscription still signs with its own secret. Cursors
  //    are signed, not sealed: one made under the earlier secret is refused now, as any stale cursor is.
  const after = await serviceWith(NEW);
  expect(await stillWorks(after, shop, madeAfter.id, await cursorOf(after, shop))).toBe(madeAfter.key);
  const stale = await after.call('GET', `/api/store-products/${shop.storeId}?pageSize=1&cursor=${encodeURIComponent(cursor)}`, { key: shop.owner.key });
  expect([stale.status, stale.body.error.code]).toEqual([400, 'invalidCursor']);
  const sent = await after.call('POST', `/api/store-suppliers/${shop.storeId}/event-subscriptions/${subscription.id}/test`, { key: shop.owner.key });
  expect(sent.status).toBeLessThan(300);
  await receiver.until((r) => r.some((x) => x.status === 200), 20000, 'the test event');
  expect((await verifiedEvents(receiver.received, subscription.secret)).length).toBeGreaterThan(0);
  await stop(after);

  // 4. A secret that opens nothing, and the old one alone after the reseal: one sentence naming the variable, exit 2.
  for (const [secret, previous] of [
    [WRONG, ''],
    [OLD, ''],
    [WRONG, WRONG.replace('w', 'x')],
  ]) {
    const refused = run(main, secret, previous);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim()).toMatch(
      /^APP_SECRET opens none of the data sealed in this database: set APP_SECRET to the secret the data was sealed under[^\n]*\.$/,
    );
  }
  const badList = run(main, NEW, 'short');
  expect([badList.status, badList.stderr.trim()]).toEqual([
    2,
    'Invalid environment variable APP_SECRET_PREVIOUS: each earlier secret must be at least 32 characters, separated by commas',
  ]);
}, 240000);

leakScanTest();
