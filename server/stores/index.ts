import type { AccountService } from '../identity/accounts';
import { domain, type Platform } from '../platform/domain';
import { ProductService } from './products';
import { storeRoutes } from './routes';
import { StoreService } from './stores';

/** Stores, their staff and their products. */
export function storesDomain(p: Platform, deps: { accounts: AccountService }) {
  const stores = new StoreService(p.db);
  const products = new ProductService(p.db, p.cursors);
  return domain({ stores, products, routes: storeRoutes(stores, products, deps.accounts) });
}
