/** The set-up of the report operations' tests: a shop with two products, an order of each sent to the supplier. */
import { eventually } from '../../support/harness';
import { openShop, placeOrder, submit } from '../../support/orders';
import { resourceFile } from '../support/world';

export function reportFile() {
  const file = resourceFile('report', 'report', async (w) => {
    const shop = await openShop(w.svc, w.sandbox, { page: 12, products: 2 });
    const parts: string[] = [];
    for (const productIndex of [0, 1]) {
      const order = await placeOrder(w.svc, shop, { productIndex, quantity: productIndex + 1 });
      const sent = await submit(w.svc, shop, order.id);
      if (sent.status !== 200 && sent.status !== 202) throw new Error(sent.text);
      parts.push(sent.body.result._id);
    }
    // The parts' own profit, once the supplier accepted each.
    const profits = await Promise.all(
      parts.map((id) =>
        eventually(
          async () => {
            const so = (await w.svc.call('GET', `/api/store-suppliers/${shop.storeId}/orders/${id}`, { key: shop.owner.key })).body.result;
            return so.profit?.complete ? so.profit : undefined;
          },
          60000,
          'the part accepted',
        ),
      ),
    );
    return { ...shop, profits };
  });
  return { ...file, base: () => `/api/store-suppliers/${file.s.shop.storeId}` };
}
