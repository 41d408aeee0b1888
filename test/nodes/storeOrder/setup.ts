/** The set-up of the store order operations' tests: a shop whose supplier balance is 0, and an order of its own when asked. */
import { openShop, placeOrder } from '../../support/orders';
import { resourceFile } from '../support/world';

export function storeOrderFile(opts: { order?: 'pending' | 'paid' } = {}) {
  const file = resourceFile('storeOrder', 'storeOrder', async (w) => {
    const shop = await openShop(w.svc, w.sandbox, { balanceMinor: 0, page: 11 });
    if (!opts.order) return { ...shop, orderId: '', orderNumber: '' };
    const order = await placeOrder(w.svc, shop);
    if (opts.order === 'paid') {
      const paid = await w.svc.call('POST', `/api/store-orders/${shop.storeId}/${order.id}/mark-paid`, { key: shop.owner.key, body: { reference: 'set-up' } });
      if (paid.status !== 200) throw new Error(paid.text);
    }
    return { ...shop, orderId: order.id as string, orderNumber: order.number as string };
  });
  return { ...file, orders: () => `/api/store-orders/${file.s.shop.storeId}` };
}
