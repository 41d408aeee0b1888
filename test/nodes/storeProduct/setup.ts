/** The set-up of the store product operations' tests: a shop with two imported products. */
import { openShop } from '../../support/orders';
import { resourceFile } from '../support/world';

export function storeProductFile() {
  const file = resourceFile('storeProduct', 'storeProduct', (w) => openShop(w.svc, w.sandbox, { page: 11 }));
  return { ...file, products: () => `/api/store-products/${file.s.shop.storeId}` };
}
