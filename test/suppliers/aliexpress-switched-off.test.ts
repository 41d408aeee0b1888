/**
 * A switched-off AliExpress connection still follows the orders it already placed. AliExpress sends no notifications,
 * so the read-back safety net is the only way a shipment reaches the service; switching the connection off (the
 * service itself, when AliExpress refuses the buyer account, or the merchant) stops new orders, not the orders that
 * are paid and on their way. Found by the 30-minute soak: three paid orders stayed `confirmed` after they shipped.
 */
import { eventually } from '../support/harness';
import { placeOrder, submit } from '../support/orders';
import { AeShop, AeWorld, startAeWorld } from './aliexpress-support';

/* eslint-disable @typescript-eslint/no-explicit-any */

let w: AeWorld;
beforeAll(async () => {
  w = await startAeWorld('aliexpress-switched-off');
});
afterAll(async () => w?.close());
afterEach(async () => w.control('DELETE', '/faults'));

const AUTOMATION = { automation: { automaticPayment: true, allowUnpaidOrders: true } };

/** An order sent and paid at AliExpress: answers the service's supplier order and AliExpress's order id. */
async function paidOrder(shop: AeShop): Promise<{ id: string; aeId: string }> {
  const res = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
  const so = await w.settles(shop, res.body.result._id, 'confirmed');
  return { id: so._id, aeId: so.supplierOrderId };
}

const connectionOf = async (shop: AeShop) =>
  (await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}`, { key: shop.owner.key })).body.result.find((c: any) => c.id === shop.connId);

/** AliExpress ships the order; the service must learn it from a read-back alone, within a few intervals (2 s here). */
async function shipsAndIsReadBack(shop: AeShop, order: { id: string; aeId: string }, tracking: string): Promise<void> {
  // Read-backs queued while the connection was still on are done first: only one asked for since may see the shipment.
  const { now } = (await w.svc.db.query('SELECT now() AS now')).rows[0];
  const waitingFromBefore = `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'readback.supplier-order' AND state IN ('created', 'retry', 'active')
                               AND data->>'supplierOrderId' = $1 AND created_on <= $2`;
  // Up to a minute: one of them may wait for its queue's retry (30 s), as a quiet CI run once saw.
  await eventually(
    async () => ((await w.svc.db.query(waitingFromBefore, [order.aeId, now])).rows[0].n === 0 ? true : undefined),
    60000,
    'the read-backs asked for before',
  );
  await w.control('POST', `/orders/${order.aeId}`, {
    orderStatus: 'WAIT_BUYER_ACCEPT_GOODS',
    logisticsStatus: 'SELLER_SEND_GOODS',
    trackingNumber: tracking,
    carrier: 'Cainiao',
  });
  const shipped = await w.settles(shop, order.id, 'shipped', 30000);
  expect(shipped.shipping).toMatchObject({ carrier: 'Cainiao', trackingNumber: tracking });
  expect(shipped.events.at(-1)).toMatchObject({ type: 'readBack', from: 'confirmed', to: 'shipped' });
}

test("the soak's refusal: a blacklisted-buyer answer switches the connection off; an order already paid still reaches shipped", async () => {
  const shop = await w.openShop(AUTOMATION);
  const paid = await paidOrder(shop);
  // The soak's "supplier refusal" at AliExpress: the next create answers BLACKLIST_BUYER_IN_LIST.
  await w.control('POST', '/faults', { failNext: [{ method: 'aliexpress.ds.order.create', code: 'BLACKLIST_BUYER_IN_LIST', inResult: true, count: 1 }] });
  const refused = await submit(w.svc, shop, (await placeOrder(w.svc, shop)).id);
  await w.pausedAs(shop, refused.body.result._id, 'connectionMissing');
  expect(await connectionOf(shop)).toMatchObject({
    enabled: false,
    health: { status: 'unhealthy', message: expect.stringContaining('BLACKLIST_BUYER_IN_LIST') },
  });

  await shipsAndIsReadBack(shop, paid, 'LP00000000018CN');
  // Still off, and still saying why: the read-backs since (answered fine) do not make its health "healthy".
  expect(await connectionOf(shop)).toMatchObject({
    enabled: false,
    health: { status: 'unhealthy', message: expect.stringContaining('BLACKLIST_BUYER_IN_LIST') },
  });
  const creates = (await w.control('GET', '/received')).creates.filter((c: any) => c.userId === shop.buyer.userId);
  expect(creates.map((c: any) => c.accepted)).toEqual([true, false]);
}, 150000);

test('switched off by the merchant: its paid orders are still read back', async () => {
  const shop = await w.openShop(AUTOMATION);
  const paid = await paidOrder(shop);
  const off = await w.svc.call('PUT', `/api/store-suppliers/${shop.storeId}/${shop.connId}/enabled`, { key: shop.owner.key, body: { enabled: false } });
  expect(off.status).toBe(200);
  await shipsAndIsReadBack(shop, paid, 'LP00000000019CN');
}, 150000);
