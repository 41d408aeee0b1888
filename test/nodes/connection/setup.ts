/** The set-up of the connection operations' tests: a shop with one product, and a test-mode connection beside its live one. */
import { openShop } from '../../support/orders';
import { connectTestMode } from '../../support/backup';
import { resourceFile } from '../support/world';

export function connectionFile(opts: { testConnection?: boolean } = {}) {
  const file = resourceFile('connection', 'connection', async (w) => {
    const shop = await openShop(w.svc, w.sandbox, { page: 5, products: 1 });
    return { ...shop, testConnId: opts.testConnection ? await connectTestMode(w.svc, shop) : '' };
  });
  return { ...file, base: () => `/api/store-suppliers/${file.s.shop.storeId}` };
}
