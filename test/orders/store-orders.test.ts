import { signSandboxNotification } from '../../server/sandboxes/supplier';
import { createKey, eventually, leakScanTest, newDeveloper, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { partKeyOf, openShop, placeOrder, received, soAction, submit, US_ADDRESS } from '../support/orders';
import { connectPayments, PaymentSandbox, startPaymentSandbox } from '../support/payments';

let sandbox: Sandbox;
let paymentProvider: PaymentSandbox;
let svc: Service;

beforeAll(async () => {
  sandbox = await startSandbox();
  paymentProvider = await startPaymentSandbox();
  svc = await startService({ label: 'orders', sandbox, publicBaseUrl: true });
});
afterAll(async () => {
  await svc.stop();
  await sandbox.close();
  await paymentProvider.close();
});

async function ownProduct(shop: any) {
  const res = await svc.call('POST', `/api/store-products/${shop.storeId}`, {
    key: shop.owner.key,
    body: { title: 'Own', variants: [{ sku: `OWN-${Math.random().toString(36).slice(2)}`, title: 'v', priceMinor: 700, currency: 'USD', stock: 9 }] },
  });
  return { productId: res.body.result.id, variantId: res.body.result.variants[0].id };
}

const getOrder = (shop: any, id: string, key = shop.owner.key) =>
  svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key }).then((r) => r.body.result);

test("an order splits into the store's own part and one part per supplier connection", async () => {
  const shop = await openShop(svc, sandbox, { page: 16 });
  const own = await ownProduct(shop);
  const order = await placeOrder(svc, shop, { ownItem: own, quantity: 2 });
  expect(order).toMatchObject({
    status: 'pending',
    paymentStatus: 'none',
    contractModel: 'standard',
    needsAttention: false,
    destination: US_ADDRESS,
    destinationRedacted: false,
  });
  expect(order.fulfilmentGroups.map((g: any) => [g.groupKey, g.status, g.fulfilledByStore])).toEqual([
    ['store', 'pending', true],
    [partKeyOf(shop), 'pending', false],
  ]);
  expect(order.fulfilmentSummary).toEqual({ parts: 2, shipped: 0, delivered: 0, needingAttention: 0 });
  const supplierItem = order.items.find((i: any) => i.groupKey === partKeyOf(shop));
  expect(supplierItem.quantity).toBe(2);
  expect(order.totalMinor).toBe(order.items.reduce((s: number, i: any) => s + i.unitPriceMinor * i.quantity, 0));
  expect(order.supplierOrders).toEqual([]);
});

test('parts move the order: slowest part first; shipped and delivered only when every part is', async () => {
  const shop = await openShop(svc, sandbox, { page: 17, automation: { level: 'automatic', automaticPayment: true, allowUnpaidOrders: true } });
  const own = await ownProduct(shop);
  const order = await placeOrder(svc, shop, { ownItem: own });
  // Automatic level: confirming sends the supplier part once.
  const confirmed = await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key });
  expect(confirmed.status).toBe(200);
  const so = await eventually(
    async () => {
      const o = await getOrder(shop, order.id);
      return o.supplierOrders[0]?.status === 'confirmed' ? o.supplierOrders[0] : undefined;
    },
    15000,
    'the automatic send',
  );
  expect((await received(sandbox)).count(so.supplierOrderNumber)).toBe(1);
  let o = await getOrder(shop, order.id);
  expect(o.status).toBe('processing');
  expect(o.fulfilmentGroups.map((g: any) => g.status)).toEqual(['processing', 'processing']);

  // The supplier ships: its notification is read back, and the part carries the shipment.
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'SandboxPost', trackingNumber: 'SBX000000000123' });
  o = await eventually(
    async () => {
      const x = await getOrder(shop, order.id);
      return x.fulfilmentGroups[1].status === 'shipped' ? x : undefined;
    },
    15000,
    'the read-back of the shipment',
  );
  expect(o.fulfilmentGroups[1].shipment).toMatchObject({ carrier: 'SandboxPost', trackingNumber: 'SBX000000000123' });
  expect(o.supplierOrders[0]).toMatchObject({ status: 'shipped', shipping: { carrier: 'SandboxPost', trackingNumber: 'SBX000000000123' } });
  expect(o.status).toBe('processing');
  expect(o.fulfilmentSummary).toMatchObject({ parts: 2, shipped: 1, delivered: 0 });

  await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/groups/store/ship`, {
    key: shop.owner.key,
    body: { carrier: 'Post', trackingNumber: 'OWN1' },
  });
  expect((await getOrder(shop, order.id)).status).toBe('shipped');
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/deliver`, {});
  await eventually(async () => ((await getOrder(shop, order.id)).fulfilmentGroups[1].status === 'delivered' ? true : undefined), 15000, 'delivery read-back');
  expect((await getOrder(shop, order.id)).status).toBe('shipped');
  const done = await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/groups/store/deliver`, { key: shop.owner.key });
  expect(done.body.result.status).toBe('delivered');
  expect(done.body.result.fulfilmentSummary).toMatchObject({ shipped: 2, delivered: 2 });

  // A late notification changes nothing: the "shipped" one arriving after delivery is accepted and read back, the
  // supplier still says delivered, and no status moves back.
  const delivered = (await getOrder(shop, order.id)).supplierOrders[0];
  const conn = (await svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result.find((c: any) => c.id === shop.connId);
  const secret = (await sandbox.v1(shop.account.liveKey, 'PUT', '/webhook', { url: conn.webhookUrl })).body.signingSecret;
  const late = JSON.stringify({
    id: `evt_late_${so.supplierOrderId}`,
    type: 'order.updated',
    createdAt: new Date(Date.now() - 60_000).toISOString(),
    data: { orderId: so.supplierOrderId, orderNumber: so.supplierOrderNumber, status: 'shipped' },
  });
  const accepted = await svc.call('POST', new URL(conn.webhookUrl).pathname, {
    rawBody: late,
    headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signSandboxNotification(secret, late, Math.floor(Date.now() / 1000)) },
  });
  expect(accepted.status).toBe(200);
  const later = await eventually(
    async () => {
      const x = await getOrder(shop, order.id);
      return x.supplierOrders[0].updatedAt > delivered.updatedAt ? x : undefined;
    },
    15000,
    "the late notification's read-back",
  );
  expect(later.supplierOrders[0].status).toBe('delivered');
  // Nor for a moment: since delivery the history holds read-backs only, none of them a move.
  const since = later.supplierOrders[0].events.slice(delivered.events.length);
  expect(since.length).toBeGreaterThan(0);
  for (const e of since) expect([e.type, e.from, e.to ?? e.from]).toEqual(['readBack', 'delivered', 'delivered']);
  expect(later.fulfilmentGroups[1].status).toBe('delivered');
  expect(later.status).toBe('delivered');
});

test('an online payment that is paid confirms the order and sends under an automatic level', async () => {
  const shop = await openShop(svc, sandbox, { page: 18, automation: { level: 'automatic', automaticPayment: true } });
  const order = await placeOrder(svc, shop, { paymentMethod: 'online' });
  await (await connectPayments(svc, paymentProvider, shop.storeId, shop.owner.key)).pay(order.id, 'paid');
  const so = await eventually(
    async () => {
      const o = await getOrder(shop, order.id);
      return o.supplierOrders[0]?.status === 'confirmed' ? o.supplierOrders[0] : undefined;
    },
    15000,
    'send after payment',
  );
  expect(so.payment.status).toBe('paid');
  expect((await getOrder(shop, order.id)).paymentStatus).toBe('paid');
});

test('customer data and supplier orders are shown only to callers allowed to see them', async () => {
  const shop = await openShop(svc, sandbox, { page: 19 });
  const order = await placeOrder(svc, shop);
  await submit(svc, shop, order.id);
  const clerk = await newDeveloper(svc);
  await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, {
    key: shop.owner.key,
    body: { email: clerk.email, permissions: ['orders.view', 'suppliers.view'] },
  });
  const seenByClerk = await getOrder(shop, order.id, clerk.key);
  expect(seenByClerk.destinationRedacted).toBe(true);
  expect(seenByClerk).not.toHaveProperty('destination');
  expect(seenByClerk.supplierOrders).toHaveLength(1);
  expect(seenByClerk.supplierOrders[0]).toMatchObject({ destinationRedacted: true });
  expect(seenByClerk.supplierOrders[0]).not.toHaveProperty('destination');
  const list = await svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders`, { key: clerk.key });
  expect(list.body.result.items[0].destinationRedacted).toBe(true);
  expect(JSON.stringify(list.body)).not.toContain(US_ADDRESS.line1);

  const packer = await newDeveloper(svc);
  await svc.call('PUT', `/api/stores/${shop.storeId}/staff`, {
    key: shop.owner.key,
    body: { email: packer.email, permissions: ['orders.view', 'customers.view'] },
  });
  const seenByPacker = await getOrder(shop, order.id, packer.key);
  expect(seenByPacker.destination).toEqual(US_ADDRESS);
  expect(seenByPacker).not.toHaveProperty('supplierOrders');
});

test('needsAttention lists orders with a part needing attention, each with a summary of its parts', async () => {
  const shop = await openShop(svc, sandbox, { page: 20 });
  const fine = await placeOrder(svc, shop);
  const paused = await placeOrder(svc, shop, { destination: { ...US_ADDRESS, country: 'BR' } });
  await submit(svc, shop, fine.id);
  const res = await submit(svc, shop, paused.id);
  expect(res.body.result.reviewReason).toBe('destinationUnsupported');
  const list = await svc.call('GET', `/api/store-orders/${shop.storeId}?needsAttention=true`, { key: shop.owner.key });
  expect(list.body.result.items.map((o: any) => o.id)).toEqual([paused.id]);
  expect(list.body.result.items[0].fulfilmentSummary).toEqual({ parts: 1, shipped: 0, delivered: 0, needingAttention: 1 });
  expect(list.body.result.pagination.totalCount).toBe(1);
  const all = await svc.call('GET', `/api/store-orders/${shop.storeId}`, { key: shop.owner.key });
  expect(all.body.result.items.map((o: any) => o.id)).toEqual([paused.id, fine.id]);
});

test('cancel withdraws the order at the supplier; the part and the order are cancelled', async () => {
  const shop = await openShop(svc, sandbox, { page: 21 });
  const order = await placeOrder(svc, shop);
  const so = (await submit(svc, shop, order.id)).body.result;
  const res = await soAction(svc, shop, so._id, 'cancel');
  expect(res.status).toBe(200);
  expect(res.body.result.status).toBe('cancelled');
  const atSupplier = (await received(sandbox)).all.orders.find((o: any) => o.orderNumber === so.supplierOrderNumber);
  expect(atSupplier.status).toBe('cancelled');
  const o = await getOrder(shop, order.id);
  expect(o.fulfilmentGroups[0].status).toBe('cancelled');
  expect(o.status).toBe('cancelled');
  const again = await soAction(svc, shop, so._id, 'cancel');
  expect(again.status).toBe(409);
  expect(again.body.error.code).toBe('invalidState');
  expect((await soAction(svc, shop, so._id, 'retry')).status).toBe(409);
});

test('fulfil manually: the supplier order is cancelled and the store ships the part itself', async () => {
  const shop = await openShop(svc, sandbox, { page: 22 });
  const order = await placeOrder(svc, shop);
  await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/confirm`, { key: shop.owner.key });
  const so = (await submit(svc, shop, order.id)).body.result;
  const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${order.id}/groups/${encodeURIComponent(partKeyOf(shop))}/fulfil-manually`, {
    key: shop.owner.key,
  });
  expect(res.status).toBe(200);
  expect(res.body.result.supplierOrder.status).toBe('cancelled');
  expect(res.body.result.part).toMatchObject({ status: 'processing', fulfilledByStore: true });
  expect((await received(sandbox)).all.orders.find((o: any) => o.orderNumber === so.supplierOrderNumber).status).toBe('cancelled');
  const shipped = await svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/groups/${encodeURIComponent(partKeyOf(shop))}/ship`, {
    key: shop.owner.key,
    body: { carrier: 'Post', trackingNumber: 'T9' },
  });
  expect(shipped.body.result.status).toBe('shipped');
  const twice = await svc.call(
    'POST',
    `/api/store-suppliers/${shop.storeId}/orders/${order.id}/groups/${encodeURIComponent(partKeyOf(shop))}/fulfil-manually`,
    {
      key: shop.owner.key,
    },
  );
  expect(twice.status).toBe(409);
});

test('work started by a key goes on after the key is revoked', async () => {
  const shop = await openShop(svc, sandbox, { page: 23 });
  const temp = await createKey(svc, shop.owner.session, 'short-lived', 'account');
  const order = await placeOrder(svc, shop);
  // The supplier answers slowly, so the work is still out when the key goes.
  await sandbox.control('POST', '/faults', { latencyMs: 2000 });
  try {
    const pending = submit(svc, shop, order.id, {}, temp.key);
    // In flight: the request was let in with the key and made its supplier order.
    await eventually(
      async () => ((await svc.db.query('SELECT 1 FROM supplier_orders WHERE order_id = $1', [order.id])).rowCount ? true : undefined),
      20000,
      'the submit to be in flight',
    );
    await svc.call('DELETE', `/api/api-keys/${temp.id}`, { session: shop.owner.session });
    expect((await svc.call('GET', '/api/api-key/current', { key: temp.key })).status).toBe(401);
    await pending;
  } finally {
    await sandbox.control('DELETE', '/faults');
  }
  const so = await eventually(
    async () => {
      const o = await getOrder(shop, order.id);
      return o.supplierOrders[0]?.status === 'submitted' ? o.supplierOrders[0] : undefined;
    },
    15000,
    'the send to finish',
  );
  expect(so.events[0].actor).toEqual({ kind: 'key', id: temp.id });
});

test('store order routes refuse bad input with stable codes', async () => {
  const shop = await openShop(svc, sandbox, { page: 24 });
  const bad = await svc.call('POST', `/api/store-orders/${shop.storeId}`, {
    key: shop.owner.key,
    body: {
      items: [{ productId: shop.products[0].productId, variantId: shop.products[1].variantId, quantity: 1 }],
      destination: US_ADDRESS,
      paymentMethod: 'manual',
    },
  });
  expect(bad.status).toBe(400);
  expect(bad.body.error.details[0].field).toBe('body/items/0');
  const badMark = await svc.call('POST', `/api/store-orders/${shop.storeId}/${(await placeOrder(svc, shop)).id}/mark-paid`, {
    key: shop.owner.key,
    body: { kind: 'teleported' },
  });
  expect([badMark.status, badMark.body.error.code]).toEqual([400, 'validationFailed']);
});

leakScanTest();
