/**
 * Each reason a rule reroutes on, against the sandbox supplier (the primary) and the CJ-format server (the
 * alternates): the three default ones, the two opt-in ones, and an alternate that fails too (the next is tried; when
 * none can take the part the pause stands, naming each). What each supplier holds is read from its own records.
 */
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { placeOrder } from '../support/orders';
import { cjControl, liveOrders, openRerouteShop, RerouteShop, secondAlternate } from '../support/reroute';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sandbox: Sandbox;
let fake: RunningFakeCj;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  fake = await startFakeCj();
  svc = await startService({ label: 'reroute-reasons', sandbox, env: { CJ_API_BASE_URL: fake.baseUrl, JOB_SUPERVISE_SECONDS: '1' } });
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
  await sandbox?.close();
});
afterEach(async () => {
  await sandbox.control('DELETE', '/faults');
  await sandbox.control('POST', '/countries/FR', { served: true });
});

const ALL = ['variantUnavailable', 'destinationUnsupported', 'costAboveLimit', 'insufficientBalance', 'supplierRefused'];
const FRANCE = { name: 'Ada Lovelace', line1: '1 Rue de la Paix', city: 'Paris', postalCode: '75002', country: 'FR', email: 'ada@example.test' };

/** The order's supplier orders once the reroute is done or given up: oldest first. */
async function rerouted(shop: RerouteShop, orderId: string, n: number): Promise<any[]> {
  return eventually(
    async () => {
      const sos = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key })).body.result.items;
      const done = sos.length === n && sos.every((s: any) => s.status !== 'queued' && !(s.status === 'needsReview' && s.events.at(-1).details?.reroute));
      return done ? [...sos].sort((a: any, b: any) => a.createdAt.localeCompare(b.createdAt)) : undefined;
    },
    30000,
    `the reroute of order ${orderId}`,
  );
}

async function confirm(shop: RerouteShop, destination?: Record<string, string>) {
  const order = await placeOrder(svc, shop, destination ? { destination } : {});
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  return order;
}

const CASES: Array<
  [
    string,
    {
      page: number;
      automation?: Record<string, unknown>;
      balanceMinor?: number;
      before?: (shop: RerouteShop) => Promise<unknown>;
      destination?: Record<string, string>;
    },
  ]
> = [
  ['destinationUnsupported', { page: 7, before: () => sandbox.control('POST', '/countries/FR', { served: false }), destination: FRANCE }],
  ['costAboveLimit', { page: 8, automation: { costLimit: { amountMinor: 1, currency: 'USD' } } }],
  ['insufficientBalance', { page: 9, balanceMinor: 0, automation: { automaticPayment: true, reroute: { reasons: ALL, maxCostIncreasePercent: 10 } } }],
  [
    'supplierRefused',
    {
      page: 10,
      automation: { reroute: { reasons: ALL, maxCostIncreasePercent: 10 } },
      before: () => sandbox.control('POST', '/faults', { refuseNext: { count: 1, message: 'Refused for the test' } }),
    },
  ],
];

test.each(CASES)('a part paused as %s goes to the alternate; one live order across both suppliers', async (reason, c) => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: c.page, automation: c.automation, balanceMinor: c.balanceMinor });
  await c.before?.(shop);
  const order = await confirm(shop, c.destination);
  const [first, second] = await rerouted(shop, order.id, 2);
  expect(first.events.find((e: any) => e.type === 'paused')?.details.reason).toBe(reason);
  expect(first.events.find((e: any) => e.type === 'rerouted')?.details).toMatchObject({ reason, by: 'rule', to: { connectionId: shop.cjConnId } });
  expect([first.status, second.status, second.integrationId]).toEqual(['cancelled', 'submitted', shop.cjConnId]);
  expect(await liveOrders(sandbox, fake, [first.supplierOrderNumber, second.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 1 });
});

test('opt-in reasons stay paused under the default rule', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 11 });
  await sandbox.control('POST', '/faults', { refuseNext: { count: 1, message: 'Refused for the test' } });
  const order = await confirm(shop);
  const [so] = await rerouted(shop, order.id, 1);
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'supplierRefused', integrationId: shop.connId });
  expect((await cjControl(fake, 'GET', '/received')).ordersByNumber[so.supplierOrderNumber]).toBeUndefined();
});

test('the first alternate has no stock, so the next (another CJ product) is tried and takes the part; the history names the one that failed', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 12 });
  await cjControl(fake, 'POST', `/variants/${shop.cj.vid}`, { stock: 0 });
  const next = await secondAlternate(svc, fake, shop);
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { stock: 0 });
  const order = await confirm(shop);
  const [first, second] = await rerouted(shop, order.id, 2);
  const details = first.events.find((e: any) => e.type === 'rerouted').details;
  expect(details.to.connectionId).toBe(shop.cjConnId);
  expect(details.tried).toEqual([{ connectionId: shop.cjConnId, position: 0, supplierKey: 'cj', why: expect.stringMatching(/no longer offers|has 0 of/) }]);
  expect(second).toMatchObject({ integrationId: shop.cjConnId, status: 'submitted' });
  // The second alternate's variant is what CJ was asked for.
  const atCj = (await cjControl(fake, 'GET', '/received')).orders.filter((o: any) => o.orderNumber === second.supplierOrderNumber);
  expect(atCj).toHaveLength(1);
  expect(next.supplierVariantId).toBeTruthy();
  expect(await liveOrders(sandbox, fake, [first.supplierOrderNumber, second.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 1 });
});

test('when every alternate fails the original pause stands, its message listing each alternate tried and why', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 13 });
  await cjControl(fake, 'POST', `/variants/${shop.cj.vid}`, { stock: 0 });
  await secondAlternate(svc, fake, shop, { priceFactor: 2 });
  await sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { stock: 0 });
  const order = await confirm(shop);
  const [so] = await rerouted(shop, order.id, 1);
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'variantUnavailable', integrationId: shop.connId });
  expect(so.reviewMessage).toMatch(
    /Not rerouted: no alternate could take the part\. Alternates tried: 1\. cj: The supplier (no longer offers|has 0 of).* 2\. cj: It costs .* above the ceiling/,
  );
  expect(await liveOrders(sandbox, fake, [so.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 0 });
  // Asked again by hand, nothing is left to try: the pause stands.
  const again = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${so._id}/reroute`, { key: shop.owner.key, body: {} });
  expect([again.status, again.body.result.status, again.body.result.reviewMessage]).toEqual([
    200,
    'needsReview',
    expect.stringContaining('no alternate is left to try'),
  ]);
});
