/**
 * supplierAlreadyShipped every time: a cancel that reaches the supplier after it shipped pauses the supplier order
 * with supplierAlreadyShipped and keeps the shipment's carrier and tracking, whether the service learnt of the
 * shipment before the cancel (the supplier's notification was read back first) or during it (the notification never
 * came; the cancel's own look at the supplier finds the shipment). Then both at once, racing, over several parts.
 */
import { eventually, leakScanTest, Sandbox, Service, startSandbox, startService } from '../support/harness';
import { openShop, placeOrder, readBacksDone, received, Shop, soAction, submit } from '../support/orders';

let sandbox: Sandbox;
let svc: Service;
beforeAll(async () => {
  sandbox = await startSandbox();
  // A public address: the sandbox's notifications reach the service unless an account is made silent.
  svc = await startService({ label: 'cancel-shipped', sandbox, publicBaseUrl: true });
});
afterAll(async () => {
  await svc?.stop();
  await sandbox?.close();
});

const getSo = (shop: Shop, id: string) =>
  svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key }).then((r) => r.body.result);
const getOrder = (shop: Shop, id: string) => svc.call('GET', `/api/store-orders/${shop.storeId}/${id}`, { key: shop.owner.key }).then((r) => r.body.result);

/** A part sent and paid at the supplier (pay now): its supplier order is confirmed. */
async function paidPart(shop: Shop) {
  const order = await placeOrder(svc, shop);
  const res = await submit(svc, shop, order.id, { payNow: true });
  expect(res.body.result.status).toBe('confirmed');
  return { order, so: res.body.result };
}

/** What every late cancel must leave: paused for a return, the shipment kept, the part shown shipped and needing a person, nothing cancelled at the supplier. */
async function expectPausedAsShipped(shop: Shop, orderId: string, so: any, tracking: string) {
  expect(so).toMatchObject({
    status: 'needsReview',
    reviewReason: 'supplierAlreadyShipped',
    retryable: false,
    shipping: { carrier: 'LatePost', trackingNumber: tracking },
  });
  expect(so.events.filter((e: any) => e.type === 'paused')).toEqual([
    expect.objectContaining({ to: 'needsReview', details: { reason: 'supplierAlreadyShipped' } }),
  ]);
  const order = await getOrder(shop, orderId);
  expect(order.fulfilmentGroups.find((g: any) => g.groupKey.startsWith('supplier:'))).toMatchObject({
    status: 'shipped',
    shipment: { carrier: 'LatePost', trackingNumber: tracking },
  });
  expect(order.fulfilmentSummary.needingAttention).toBe(1);
  expect((await received(sandbox)).all.orders.find((o: any) => o.orderNumber === so.supplierOrderNumber).status).toBe('shipped');
}

test('learnt before the cancel: the shipment was read back first; the cancel pauses it as supplierAlreadyShipped', async () => {
  const shop = await openShop(svc, sandbox, { page: 2 });
  const { order, so } = await paidPart(shop);
  await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'LatePost', trackingNumber: 'LP-BEFORE' });
  // The notification is read back: the service knows the order shipped before anyone asks to cancel it.
  await eventually(async () => ((await getSo(shop, so._id)).status === 'shipped' ? true : undefined), 20000, 'the shipment read back');
  const cancel = await soAction(svc, shop, so._id, 'cancel');
  expect(cancel.status).toBe(200);
  await expectPausedAsShipped(shop, order.id, cancel.body.result, 'LP-BEFORE');
  // Paused for a person: a later notification or a second cancel does not clear it.
  expect((await soAction(svc, shop, so._id, 'cancel')).body.result.reviewReason).toBe('supplierAlreadyShipped');
});

test('learnt during the cancel: the notification never came; the cancel finds the shipment at the supplier', async () => {
  const shop = await openShop(svc, sandbox, { page: 3 });
  const { order, so } = await paidPart(shop);
  await sandbox.control('POST', '/faults', { silentAccounts: [shop.account.accountId] });
  try {
    // A read-back queued by the create and pay notifications would learn of the shipment first: the first test's case.
    await readBacksDone(svc, so.supplierOrderId);
    await sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'LatePost', trackingNumber: 'LP-DURING' });
    expect((await getSo(shop, so._id)).status).toBe('confirmed');
    const cancel = await soAction(svc, shop, so._id, 'cancel');
    expect(cancel.status).toBe(200);
    await expectPausedAsShipped(shop, order.id, cancel.body.result, 'LP-DURING');
  } finally {
    await sandbox.control('POST', '/faults', { silentAccounts: [] });
  }
});

test('shipment and cancel racing, several parts: each ends either cancelled at the supplier or paused as supplierAlreadyShipped with its tracking', async () => {
  const shop = await openShop(svc, sandbox, { page: 4 });
  const parts = [];
  for (let i = 0; i < 6; i++) parts.push(await paidPart(shop));
  await Promise.all(
    parts.map(async ({ so }, i) => {
      const asked = svc.call('POST', `/api/store-suppliers/${shop.storeId}/orders/${so._id}/cancel`, {
        key: shop.owner.key,
        headers: { Prefer: 'respond-async' },
      });
      // The sandbox refuses to ship an order the cancel already withdrew; that part simply ends cancelled.
      const shipped = sandbox.control('POST', `/orders/${so.supplierOrderId}/ship`, { carrier: 'LatePost', trackingNumber: `LP-RACE-${i}` }).then(
        () => true,
        () => false,
      );
      expect((await asked).status).toBe(202);
      await shipped;
    }),
  );
  const atSupplier = new Map((await received(sandbox)).all.orders.map((o: any) => [o.orderNumber, o.status]));
  for (const [i, { order, so }] of parts.entries()) {
    const settled = await eventually(
      async () => {
        const now = await getSo(shop, so._id);
        return now.status === 'cancelled' || now.status === 'needsReview' ? now : undefined;
      },
      30000,
      `part ${i} settled`,
    );
    if (atSupplier.get(so.supplierOrderNumber) === 'cancelled') expect(settled).toMatchObject({ status: 'cancelled', reviewReason: null });
    else await expectPausedAsShipped(shop, order.id, settled, `LP-RACE-${i}`);
  }
});

leakScanTest();
