/**
 * The client's backup suppliers: a link's alternates (create, update, the view with cost and stock; a bad one is
 * ApiError alternateInvalid), the connection's reroute rule, and `reroute` (a pause that
 * stands throws SupplierOrderPausedError naming the alternates tried; rerouted answers the cancelled order, whose
 * `rerouted` entry `orders.rerouted` reads; 202 with respondAsync is returned, not thrown).
 */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { connectTestMode, linkWithBackup } from '../support/backup';
import { partKeyOf, openShop, placeOrder, received, Shop } from '../support/orders';
import { ApiError, clientFor, InvalidStateError, rejectionOf, SupplierOrderPausedError, type AlternateInput, type RerouteRule } from './support';

let sandbox: Sandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  svc = await startService({ label: 'client_reroute', sandbox });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
});

const NO_RULE: RerouteRule = { reasons: [], maxCostIncreasePercent: 10 };

/** A shop whose orders stop with costAboveLimit before anything is sent, with a second connection (sandbox test mode). */
async function backedShop(page: number): Promise<Shop & { backupConnId: string }> {
  const shop = await openShop(svc, sandbox, { page, products: 1, automation: { costLimit: { amountMinor: 1, currency: 'USD' }, reroute: NO_RULE } });
  return { ...shop, backupConnId: await connectTestMode(svc, shop) };
}

test('links: alternates set on update in order, shown with cost and stock, replaced, removed; a bad one is ApiError alternateInvalid naming the field', async () => {
  const shop = await backedShop(4);
  const { store, sent } = clientFor(svc, shop.owner.key);
  const p = shop.products[0];
  const linkId = (await store.suppliers.links.list(shop.storeId, { productId: p.productId })).items[0].id;
  const alt: AlternateInput = {
    storeVariantId: p.variantId,
    connectionId: shop.backupConnId,
    supplierProductId: p.supplierProductId,
    supplierVariantId: p.supplierVariantId,
  };

  const set = await store.suppliers.links.update(shop.storeId, linkId, { alternates: [alt] });
  expect(sent.at(-1)).toMatchObject({ method: 'PUT', status: 200, body: { alternates: [alt] } });
  expect(set.variants[0].alternates).toEqual([
    {
      connectionId: shop.backupConnId,
      supplierProductId: p.supplierProductId,
      supplierVariantId: p.supplierVariantId,
      costMinor: p.costMinor,
      currency: 'USD',
      stock: expect.any(Number),
      available: true,
    },
  ]);

  const bad = await rejectionOf<ApiError>(store.suppliers.links.update(shop.storeId, linkId, { alternates: [{ ...alt, connectionId: shop.connId }] }));
  expect(bad).toBeInstanceOf(ApiError);
  expect({ status: bad.status, code: bad.code, fields: bad.details.map((d) => d.field) }).toEqual({
    status: 422,
    code: 'alternateInvalid',
    fields: ['body/alternates/0/connectionId'],
  });
  expect((await store.suppliers.links.list(shop.storeId, { productId: p.productId })).items[0].variants[0].alternates).toHaveLength(1);

  const removed = await store.suppliers.links.update(shop.storeId, linkId, { alternates: [] });
  expect(removed.variants[0].alternates).toEqual([]);
});

test('automation: the reroute rule reads with its defaults and changes whole', async () => {
  const shop = await openShop(svc, sandbox, { page: 5, products: 1 });
  const { store } = clientFor(svc, shop.owner.key);
  const conn = (await store.suppliers.connections.list(shop.storeId)).find((c) => c.id === shop.connId)!;
  expect(conn.automation.reroute).toEqual({ reasons: ['variantUnavailable', 'destinationUnsupported', 'costAboveLimit'], maxCostIncreasePercent: 10 });
  const rule: RerouteRule = { reasons: ['insufficientBalance', 'supplierRefused'], maxCostIncreasePercent: 0 };
  const changed = await store.suppliers.connections.automation(shop.storeId, shop.connId, { reroute: rule });
  expect(changed.automation.reroute).toEqual(rule);
});

test('reroute: the pause standing throws SupplierOrderPausedError naming the alternates tried; rerouted answers the order cancelled, `rerouted` reads its entry; not paused is InvalidStateError', async () => {
  const shop = await backedShop(6);
  await linkWithBackup(svc, shop, shop.backupConnId);
  const { store, sent } = clientFor(svc, shop.owner.key);
  const pausedOrder = async () => {
    const order = await placeOrder(svc, shop);
    return (await rejectionOf<SupplierOrderPausedError>(store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop)))).supplierOrder;
  };

  // The backup's automation off: no alternate can take the part, the pause stands.
  await store.suppliers.connections.automation(shop.storeId, shop.backupConnId, { level: 'off' });
  const first = await pausedOrder();
  const stands = await rejectionOf<SupplierOrderPausedError>(store.suppliers.orders.reroute(shop.storeId, first._id));
  expect(stands).toBeInstanceOf(SupplierOrderPausedError);
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 200, body: {} });
  expect(stands.reviewReason).toBe('costAboveLimit');
  expect(stands.reviewMessage).toContain('Alternates tried: 1. sandbox: its automation is off');
  await store.suppliers.connections.automation(shop.storeId, shop.backupConnId, { level: 'manual' });

  const second = await pausedOrder();
  const rerouted = await store.suppliers.orders.reroute(shop.storeId, second._id, { connectionId: shop.backupConnId });
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 200, body: { connectionId: shop.backupConnId } });
  expect(rerouted).toMatchObject({ _id: second._id, status: 'cancelled' });
  const entry = store.suppliers.orders.rerouted(rerouted)!;
  expect(entry).toMatchObject({
    reason: 'costAboveLimit',
    by: 'manual',
    from: { supplierOrderId: second._id, connectionId: shop.connId },
    to: { connectionId: shop.backupConnId },
    costDifferenceMinor: 0,
    currency: 'USD',
  });
  const moved = await store.suppliers.orders.get(shop.storeId, entry.to.supplierOrderId);
  expect(moved).toMatchObject({ integrationId: shop.backupConnId, orderId: second.orderId });
  expect(store.suppliers.orders.rerouted(moved)).toBeNull();
  // The first supplier never got the order.
  expect((await received(sandbox)).count(second.supplierOrderNumber)).toBe(0);

  const again = await rejectionOf<InvalidStateError>(store.suppliers.orders.reroute(shop.storeId, second._id));
  expect(again).toBeInstanceOf(InvalidStateError);
  expect([again.status, again.code]).toEqual([409, 'invalidState']);
});

test('reroute with respondAsync: 202 with the order still paused is returned, not thrown; the job then reroutes it', async () => {
  const shop = await backedShop(7);
  await linkWithBackup(svc, shop, shop.backupConnId);
  const { store, sent } = clientFor(svc, shop.owner.key);
  const order = await placeOrder(svc, shop);
  const paused = (await rejectionOf<SupplierOrderPausedError>(store.suppliers.orders.submit(shop.storeId, order.id, partKeyOf(shop)))).supplierOrder;
  const answered = await store.suppliers.orders.reroute(shop.storeId, paused._id, {}, { respondAsync: true });
  expect(sent.at(-1)).toMatchObject({ method: 'POST', status: 202 });
  expect(sent.at(-1)!.headers.get('prefer')).toBe('respond-async');
  expect(answered).toMatchObject({ _id: paused._id, status: 'needsReview' });
  const now = await eventually(
    async () => {
      const so = await store.suppliers.orders.get(shop.storeId, paused._id);
      return so.status === 'cancelled' ? so : undefined;
    },
    30000,
    'the order to be rerouted',
  );
  expect(store.suppliers.orders.rerouted(now)).toMatchObject({ by: 'manual', to: { connectionId: shop.backupConnId } });
});

leakScanTest();
