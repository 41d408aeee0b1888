/** The set-up of the supplier product operations' tests: a shop with one imported product. */
import { openShop } from '../../support/orders';
import { rl } from '../support/context';
import { resourceFile } from '../support/world';

export function supplierProductFile() {
  const file = resourceFile('supplierProduct', 'supplierProduct', (w) => openShop(w.svc, w.sandbox, { page: 6, products: 1 }));
  return {
    ...file,
    products: () => `/api/store-suppliers/${file.s.shop.storeId}/${file.s.shop.connId}/products`,
    /** The parameters of an operation on the shop's connection. */
    onConnection: (p: Record<string, unknown>) => file.params({ connection: rl(file.s.shop.connId), ...p }),
  };
}
