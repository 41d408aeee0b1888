/**
 * A reroute racing the first supplier: it shows, late, that it created the order after all (a create whose answer
 * was lost lands there under the part's number). Decided (docs/decisions.md, "Rerouting to backup suppliers"): the
 * reroute proves absence at the first supplier itself, just before it moves anything; an order found there is
 * cancelled first and the items move only on the supplier's confirmed cancel; one it already shipped stops the
 * reroute. Either way there is never a moment with two live orders, read from both suppliers' own records.
 */
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { placeOrder, US_ADDRESS } from '../support/orders';
import { liveOrders, openRerouteShop, RerouteShop } from '../support/reroute';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sandbox: Sandbox;
let fake: RunningFakeCj;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  fake = await startFakeCj();
  svc = await startService({ label: 'reroute-race', sandbox, publicBaseUrl: true, env: { CJ_API_BASE_URL: fake.baseUrl, JOB_SUPERVISE_SECONDS: '1' } });
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
  await sandbox?.close();
});

const partsOf = async (shop: RerouteShop, orderId: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key })).body.result.items;

/** A part paused at the sandbox (no rule reroutes it), then the sandbox's late order under its number. */
async function pausedThenCreatedAfterAll(shop: RerouteShop): Promise<{ so: any; late: any; orderId: string }> {
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { stock: 0 });
  const order = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  const so = await eventually(
    async () => {
      const [s] = await partsOf(shop, order.id);
      return s?.status === 'needsReview' ? s : undefined;
    },
    30000,
    'the pause',
  );
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { stock: 10 });
  const late = await sandbox.v1(shop.account.liveKey, 'POST', '/orders', {
    orderNumber: so.supplierOrderNumber,
    items: [{ variantId: shop.products[0].supplierVariantId, quantity: 1 }],
    destination: US_ADDRESS,
  });
  expect(late.status).toBe(201);
  expect(await liveOrders(sandbox, fake, [so.supplierOrderNumber])).toEqual({ sandbox: 1, cj: 0 });
  return { so, late: late.body, orderId: order.id };
}

const reroute = (shop: RerouteShop, id: string) =>
  svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${id}/reroute`, { key: shop.owner.key, body: {} });

test('the first supplier holds the order after all: it is cancelled there first, and only then does CJ get one', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 18, automation: { reroute: { reasons: [], maxCostIncreasePercent: 10 } } });
  const { so, orderId } = await pausedThenCreatedAfterAll(shop);
  const res = await reroute(shop, so._id);
  expect([res.status, res.body.result.status]).toEqual([200, 'cancelled']);
  // The first order as the sandbox answered the cancel: recorded on the rerouted order.
  expect(res.body.result).toMatchObject({ supplierOrderId: expect.any(String), supplierStatus: expect.stringMatching(/cancel/i) });
  const second = await eventually(
    async () => (await partsOf(shop, orderId)).find((s: any) => s._id !== so._id && s.status === 'submitted'),
    30000,
    'the alternate to be sent',
  );
  expect(await liveOrders(sandbox, fake, [so.supplierOrderNumber, second.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 1 });
});

test('the first supplier already shipped its late order: no reroute, the pause stands, CJ gets nothing', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 19, automation: { reroute: { reasons: [], maxCostIncreasePercent: 10 } } });
  const { so, late } = await pausedThenCreatedAfterAll(shop);
  await sandbox.v1(shop.account.liveKey, 'POST', `/orders/${late.id}/pay`);
  await sandbox.control('POST', `/orders/${late.id}/ship`, {});
  const res = await reroute(shop, so._id);
  expect([res.status, res.body.result.status]).toEqual([200, 'needsReview']);
  expect(res.body.result.reviewMessage).toContain('Not rerouted: the first supplier already shipped its order.');
  expect(await liveOrders(sandbox, fake, [so.supplierOrderNumber])).toEqual({ sandbox: 1, cj: 0 });
  expect((await partsOf(shop, res.body.result.orderId)).length).toBe(1);
});
