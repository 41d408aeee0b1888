/**
 * On whose authority a reroute acts (docs/security.md): a rule acts for the store under its owner's plan as it is
 * when the reroute happens, never as it was when the rule was set or the order confirmed; an alternate on a
 * connection switched off or removed since is skipped; a manual reroute acts for its caller (plan-gated).
 */
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { eventually, newDeveloper, operatorOf, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { placeOrder } from '../support/orders';
import { cjControl, liveOrders, openRerouteShop, RerouteShop } from '../support/reroute';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sandbox: Sandbox;
let fake: RunningFakeCj;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  fake = await startFakeCj();
  svc = await startService({
    label: 'reroute-authority',
    sandbox,
    env: { CJ_API_BASE_URL: fake.baseUrl, SUPPLIER_TIMEOUT_MS: '20000', JOB_SUPERVISE_SECONDS: '1' },
  });
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
  await sandbox?.close();
});
afterEach(() => sandbox.control('DELETE', '/faults'));

const partsOf = async (shop: RerouteShop, orderId: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key })).body.result.items;

/** The part's one supplier order once its reroute is over (given up): the pause stands. */
async function pauseStands(shop: RerouteShop, orderId: string): Promise<any> {
  return eventually(
    async () => {
      const sos = await partsOf(shop, orderId);
      return sos.length === 1 && sos[0].events.some((e: any) => e.type === 'rerouteFailed') ? sos[0] : undefined;
    },
    30000,
    'the reroute to be given up',
  );
}

async function confirmUnavailable(shop: RerouteShop) {
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { stock: 0 });
  const order = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  return order;
}

test("attack: the owner's plan lost dropshipping after the order was confirmed: the rule does not reroute, nothing reaches CJ", async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 14 });
  // The sandbox answers this account slowly, so the plan changes while the part is being sent.
  await sandbox.control('POST', '/faults', { accountLatencyMs: { [shop.account.accountId]: 5000 } });
  const order = await confirmUnavailable(shop);
  await operatorOf(svc).setPlan(shop.owner.accountId, 'free');
  const downgradedAt = new Date().toISOString();
  const so = await pauseStands(shop, order.id);
  // The pause (with the rule's request) was written after the downgrade: the reroute acted on the plan as it is now.
  expect(so.events.find((e: any) => e.type === 'paused').at > downgradedAt).toBe(true);
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'variantUnavailable' });
  expect(so.reviewMessage).toContain("the store owner's plan does not include dropshipping now");
  expect(await liveOrders(sandbox, fake, [so.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 0 });
  expect((await cjControl(fake, 'GET', '/received')).orders).not.toContainEqual(
    expect.objectContaining({ orderNumber: expect.stringContaining(so._id.replace(/-/g, '').slice(0, 20)) }),
  );
  // Nor by hand: the reroute route is plan-gated like retry.
  const manual = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${so._id}/reroute`, { key: shop.owner.key, body: {} });
  expect([manual.status, manual.body.error.code]).toEqual([403, 'planRequired']);
});

test.each([
  [
    'switched off',
    (shop: RerouteShop) => svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.cjConnId}/enabled`, { key: shop.owner.key, body: { enabled: false } }),
    'The connection is switched off.',
  ],
  [
    'removed',
    (shop: RerouteShop) => svc.call('DELETE', `/api/store-suppliers/${shop.storeId}/${shop.cjConnId}`, { key: shop.owner.key }),
    'The connection was removed.',
  ],
])('attack: an alternate on a connection %s since is skipped; the pause stands and says why', async (_, change, why) => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: _ === 'removed' ? 15 : 16 });
  expect((await change(shop)).status).toBeLessThan(300);
  const order = await confirmUnavailable(shop);
  const so = await pauseStands(shop, order.id);
  expect(so.reviewMessage).toContain(`Alternates tried: 1. cj: ${why}`);
  expect(await liveOrders(sandbox, fake, [so.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 0 });
});

test('a member without suppliers.orders.manage cannot reroute (403), and the part stays where it is', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 17, automation: { reroute: { reasons: [], maxCostIncreasePercent: 10 } } });
  const order = await confirmUnavailable(shop);
  const so = await eventually(
    async () => {
      const [s] = await partsOf(shop, order.id);
      return s?.status === 'needsReview' ? s : undefined;
    },
    30000,
    'the pause',
  );
  const staff = await newDeveloper(svc, { plan: 'pro' });
  const permissions = ['suppliers.view', 'suppliers.manage', 'suppliers.import', 'orders.view', 'orders.manage'];
  expect((await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, { key: shop.owner.key, body: { email: staff.email, permissions } })).status).toBe(200);
  const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${so._id}/reroute`, { key: staff.key, body: {} });
  expect([res.status, res.body.error.code]).toEqual([403, 'permissionDenied']);
  expect(await liveOrders(sandbox, fake, [so.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 0 });
  expect((await partsOf(shop, order.id)).map((s: any) => s.status)).toEqual(['needsReview']);
});
