/**
 * Rerouting to a backup supplier, against two real adapters at once: the sandbox supplier (the primary) and the
 * CJ-format server (the alternate). A part paused for a reason in its connection's rule goes to the alternate only
 * when the sandbox provably holds no live order for it; what each supplier holds is read from their own records.
 */
import { RunningFakeCj, startFakeCj } from '../fakes/cj';
import { eventually, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { placeOrder, received } from '../support/orders';
import { cjControl, liveOrders, openRerouteShop, RerouteShop } from '../support/reroute';

/* eslint-disable @typescript-eslint/no-explicit-any */

let sandbox: Sandbox;
let fake: RunningFakeCj;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  fake = await startFakeCj();
  svc = await startService({ label: 'reroute', sandbox, env: { CJ_API_BASE_URL: fake.baseUrl, DISPATCH_RETRY_BASE_SECONDS: '1', JOB_SUPERVISE_SECONDS: '1' } });
});
afterAll(async () => {
  await svc?.stop();
  await fake?.close();
  await sandbox?.close();
});

const getSo = async (shop: RerouteShop, id: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key })).body.result;
const partsOf = async (shop: RerouteShop, orderId: string) =>
  (await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders?orderId=${orderId}`, { key: shop.owner.key })).body.result.items;

async function confirmed(shop: RerouteShop): Promise<any> {
  const order = await placeOrder(svc, shop);
  expect((await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key })).status).toBe(200);
  return order;
}

/** The order's supplier orders once none has a step left: each settled (not queued) and no reroute pending. */
async function settled(shop: RerouteShop, orderId: string, n: number): Promise<any[]> {
  return eventually(
    async () => {
      const sos = await partsOf(shop, orderId);
      if (sos.length !== n) return undefined;
      const busy = sos.some((s: any) => s.status === 'queued' || (s.status === 'needsReview' && s.events.at(-1)?.details?.reroute));
      return busy ? undefined : sos;
    },
    30000,
    `the order's ${n} supplier orders to settle`,
  );
}

const unavailable = (shop: RerouteShop) => sandbox.control('POST', `/variants/${shop.products[0].supplierVariantId}`, { stock: 0 });

test('a part paused as variantUnavailable goes to the CJ alternate: the sandbox holds nothing, CJ holds one order, both histories say so', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 2, priceFactor: 1.05 });
  await unavailable(shop);
  const order = await confirmed(shop);
  const [first, second] = (await settled(shop, order.id, 2)).sort((a: any, b: any) => a.createdAt.localeCompare(b.createdAt));

  expect(first).toMatchObject({ integrationId: shop.connId, status: 'cancelled' });
  const rerouted = first.events.find((e: any) => e.type === 'rerouted');
  expect(rerouted.details).toMatchObject({
    reason: 'variantUnavailable',
    by: 'rule',
    from: { connectionId: shop.connId },
    to: { connectionId: shop.cjConnId, supplierOrderId: second._id },
  });
  expect(rerouted.details.costDifferenceMinor).toBe(Math.round(shop.products[0].costMinor * 1.05) - shop.products[0].costMinor);
  expect(second).toMatchObject({ integrationId: shop.cjConnId, supplierKey: 'cj', status: 'submitted', fulfilmentGroupKey: `supplier:${shop.cjConnId}` });
  expect(second.events[0].details).toMatchObject({ trigger: 'reroute', reroutedFrom: { from: { supplierOrderId: first._id } } });

  // The suppliers' own records: nothing at the sandbox, one order at CJ under the alternate's number.
  expect((await received(sandbox)).count(first.supplierOrderNumber)).toBe(0);
  expect((await cjControl(fake, 'GET', '/received')).ordersByNumber[second.supplierOrderNumber]).toBe(1);
  expect(await liveOrders(sandbox, fake, [first.supplierOrderNumber, second.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 1 });

  // The event, and the store order moving as its slowest live part.
  const events = await svc.db.query(`SELECT type FROM event_outbox WHERE store_id = $1 AND type = 'supplierOrder.rerouted'`, [shop.storeId]);
  expect(events.rows).toHaveLength(1);
  const so = (await svc.call('GET', `/api/store-orders/${shop.storeId}/${order.id}`, { key: shop.owner.key })).body.result;
  expect(so.status).toBe('processing');
});

test('a reason left out of the rule stays paused, and nothing reaches CJ', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, {
    page: 3,
    automation: { reroute: { reasons: ['destinationUnsupported'], maxCostIncreasePercent: 10 } },
  });
  await unavailable(shop);
  const order = await confirmed(shop);
  const [so] = await settled(shop, order.id, 1);
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'variantUnavailable', integrationId: shop.connId });
  expect(so.events.some((e: any) => e.type === 'rerouted' || e.type === 'rerouteFailed')).toBe(false);
  expect((await cjControl(fake, 'GET', '/received')).orders.filter((o: any) => o.orderNumber.startsWith(so.supplierOrderNumber.slice(0, 20)))).toEqual([]);
});

test('an alternate above the cost ceiling is not used: the pause stands, its message naming the alternate and why', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, {
    page: 4,
    priceFactor: 1.5,
    automation: { reroute: { reasons: ['variantUnavailable'], maxCostIncreasePercent: 20 } },
  });
  await unavailable(shop);
  const order = await confirmed(shop);
  const so = await eventually(
    async () => {
      const [s] = await partsOf(shop, order.id);
      return s?.events.some((e: any) => e.type === 'rerouteFailed') ? s : undefined;
    },
    30000,
    'the reroute to fail',
  );
  expect(so).toMatchObject({ status: 'needsReview', reviewReason: 'variantUnavailable' });
  expect(so.reviewMessage).toMatch(/Alternates tried: 1\. cj: It costs .* above the ceiling/);
  expect(await partsOf(shop, order.id)).toHaveLength(1);
  expect(await liveOrders(sandbox, fake, [so.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 0 });
});

test('a manual reroute moves a paused part for its caller; a part not paused is 409, an unknown one 404, a connection that is no alternate 422; a cancel of the order it left follows the items', async () => {
  const shop = await openRerouteShop(svc, sandbox, fake, { page: 5, automation: { reroute: { reasons: [], maxCostIncreasePercent: 10 } } });
  await unavailable(shop);
  const order = await confirmed(shop);
  const [paused] = await settled(shop, order.id, 1);
  expect(paused.status).toBe('needsReview');
  const url = (id: string) => `/api/store-suppliers/${shop.storeId}/orders/${id}/reroute`;

  const wrong = await svc.call('POST', url(paused._id), { key: shop.owner.key, body: { connectionId: shop.connId } });
  expect(wrong.status).toBe(422);
  expect(wrong.body.error.code).toBe('alternateInvalid');
  expect((await svc.call('POST', url('00000000-0000-4000-8000-000000000000'), { key: shop.owner.key, body: {} })).status).toBe(404);

  const res = await svc.call('POST', url(paused._id), { key: shop.owner.key, body: { connectionId: shop.cjConnId } });
  expect(res.status).toBe(200);
  expect(res.body.result.status).toBe('cancelled');
  const rerouted = res.body.result.events.find((e: any) => e.type === 'rerouted');
  expect(rerouted).toMatchObject({ actor: { kind: 'key' }, details: { by: 'manual', reason: 'variantUnavailable' } });
  const second = await eventually(
    async () => {
      const s = await getSo(shop, rerouted.details.to.supplierOrderId);
      return s.status === 'submitted' ? s : undefined;
    },
    30000,
    'the alternate to be sent',
  );
  expect(await liveOrders(sandbox, fake, [paused.supplierOrderNumber, second.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 1 });

  const again = await svc.call('POST', url(paused._id), { key: shop.owner.key, body: {} });
  expect(again.status).toBe(409);
  expect(again.body.error.code).toBe('invalidState');

  // A person's cancel of the order the items left follows them: the alternate's order is cancelled, at CJ too.
  const cancel = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${paused._id}/cancel`, { key: shop.owner.key });
  expect([200, 202]).toContain(cancel.status);
  expect(cancel.body.result._id).toBe(second._id);
  await eventually(async () => ((await getSo(shop, second._id)).status === 'cancelled' ? true : undefined), 30000, "the alternate's order to be cancelled");
  expect(await liveOrders(sandbox, fake, [paused.supplierOrderNumber, second.supplierOrderNumber])).toEqual({ sandbox: 0, cj: 0 });
});
