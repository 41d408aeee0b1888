/**
 * The set-up of the return operations' tests: a shop of its own on the supplier order folder's world (so no service of
 * its own), and a part shipped at the sandbox and learnt by a late cancel (no notifications reach that world's
 * service): paused as supplierAlreadyShipped with its shipment, a part that can be returned.
 */
import { openShop, placeOrder, Shop, submit } from '../../support/orders';
import { rl, type Credentials } from '../support/context';
import { credentialsOf, setUp } from '../support/world';

export function returnFile(page: number) {
  const s = setUp('supplierOrder', (w) => openShop(w.svc, w.sandbox, { page }));
  const base = () => `/api/store-suppliers/${s.shop.storeId}`;
  return {
    s,
    base,
    creds: (): Credentials => credentialsOf(s.world.svc, s.shop.owner.key),
    params: (p: Record<string, unknown>) => ({ resource: 'return', store: rl(s.shop.storeId), ...p }),
    async shippedPart(shop: Shop = s.shop) {
      const order = await placeOrder(s.world.svc, shop);
      const sent = (await submit(s.world.svc, shop, order.id, { payNow: true })).body.result;
      await s.world.sandbox.control('POST', `/orders/${sent.supplierOrderId}/ship`, {});
      const late = await s.world.svc.call('POST', `${base()}/orders/${sent._id}/cancel`, { key: shop.owner.key });
      if (late.body?.result?.reviewReason !== 'supplierAlreadyShipped') throw new Error(late.text);
      return { order, so: late.body.result };
    },
    /** A return recorded through the API on a fresh shipped part (no refund: the world's orders are paid by hand). */
    async returned() {
      const { order, so } = await this.shippedPart();
      const r = await s.world.svc.call('POST', `${base()}/orders/${so._id}/returns`, {
        key: s.shop.owner.key,
        body: { reason: 'cancelledAfterShipping', items: [{ itemId: order.items[0].id, quantity: 1 }] },
      });
      if (r.status !== 201) throw new Error(r.text);
      return { order, so, ret: r.body.result };
    },
  };
}
