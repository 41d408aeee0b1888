import type { AccountService } from '../identity/accounts';
import { ListCounts1764288000010 } from '../migrations/1764288000010-ListCounts';
import { StoreKeysExpand1764979200350 } from '../migrations/1764979200350-StoreKeysExpand';
import { StoreKeysContract1764979200351 } from '../migrations/1764979200351-StoreKeysContract';
import { StoreKeysWrittenByCode1764979200352 } from '../migrations/1764979200352-StoreKeysWrittenByCode';
import { domainModule, type Platform } from '../platform/domain';
import { ProductService } from './products';
import { storeRoutes } from './routes';
import { StoreService } from './stores';

/** Stores, their staff and their products. */
export const storesModule = domainModule({
  name: 'stores',
  needs: ['identity'],
  provides: ['stores', 'products', 'storeDropshipping'],
  // Every store table keyed by its store (server/migrations/store-keys.ts): the store is the unit of distribution.
  migrations: [ListCounts1764288000010, StoreKeysExpand1764979200350, StoreKeysContract1764979200351, StoreKeysWrittenByCode1764979200352],
  build(p: Platform, deps: { identity: { accounts: AccountService } }) {
    const stores = new StoreService(p.db);
    const products = new ProductService(p.db, p.cursors);
    return {
      stores,
      products,
      storeDropshipping: (storeId: string) => stores.dropshipping(storeId),
      routes: storeRoutes(stores, products, deps.identity.accounts),
    };
  },
});
