import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { routing as listImportJobs } from '../actions/import/getJobs.operation';
import { routing as listProductLinks } from '../actions/productLink/getAll.operation';
import { routing as listStoreOrders } from '../actions/storeOrder/getAll.operation';
import { routing as listStoreProducts } from '../actions/storeProduct/getAll.operation';
import { routing as listSupplierOrders } from '../actions/supplierOrder/getAll.operation';
import { apiRequest } from '../transport';
import { connectionName, connectionsOf, newestOf, searchResults, text } from './records';

interface Store {
  id: string;
  name: string;
  role?: string;
}

/** The From List searches of the node's resource locators (actions/locator.ts), and the trigger's store. */
export const listSearch = {
  /** Stores the key's owner owns or works on (GET /api/stores). */
  async searchStores(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
    const stores = (await apiRequest.call(this, 'GET', '/api/stores')) as Store[];
    return searchResults(
      stores,
      filter,
      (s) => [s.name, s.id],
      (s) => ({ name: s.role === 'staff' ? `${s.name} (staff)` : s.name, value: s.id }),
    );
  },

  /** The chosen store's supplier connections. */
  async searchConnections(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
    const rows = await connectionsOf.call(this);
    return searchResults(
      rows,
      filter,
      (c) => [c.supplierKey, c.accountLabel, c.id, c.mode],
      (c) => ({ name: connectionName(c), value: c.id }),
    );
  },
};

/** Pickers for records only an ID names otherwise: the newest of each, searchable by their texts. */
export const recordSearch = {
  /** Supplier orders: those waiting for review first (with their reason), then the newest others. */
  async searchSupplierOrders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
    const paused = await newestOf.call(this, listSupplierOrders, { needsReview: true });
    const others = (await newestOf.call(this, listSupplierOrders)).filter((o) => o.status !== 'needsReview');
    return searchResults(
      [...paused, ...others],
      filter,
      (o) => [o._id, o.orderNumber, o.supplierKey, o.status, o.reviewReason],
      (o) => ({
        name: `${text(o.orderNumber)} · ${text(o.supplierKey)} · ${o.status === 'needsReview' ? `needs review: ${text(o.reviewReason)}` : text(o.status)}`,
        value: text(o._id),
      }),
    );
  },

  /** Product links, newest first. */
  async searchProductLinks(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
    const rows = await newestOf.call(this, listProductLinks);
    return searchResults(
      rows,
      filter,
      (l) => [l.id, l.supplierProductId, l.productId, l.supplierKey],
      (l) => ({
        name: `${text(l.supplierProductId)} → product ${text(l.productId).slice(0, 8)}`,
        value: text(l.id),
      }),
    );
  },

  /** Import jobs, newest first, with their progress. */
  async searchImportJobs(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
    const rows = await newestOf.call(this, listImportJobs);
    return searchResults(
      rows,
      filter,
      (j) => [j.id, j.status],
      (j) => ({
        name: `${text(j.createdAt).slice(0, 16).replace('T', ' ')} · ${text(j.status)} · ${text(j.done)}/${text(j.total)}`,
        value: text(j.id),
      }),
    );
  },

  /** Store orders: those needing attention first, then the newest others. */
  async searchStoreOrders(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
    const attention = await newestOf.call(this, listStoreOrders, { needsAttention: true });
    const others = (await newestOf.call(this, listStoreOrders)).filter((o) => !o.needsAttention);
    return searchResults(
      [...attention, ...others],
      filter,
      (o) => [o.id, o.number, o.status],
      (o) => ({
        name: `${text(o.number)} · ${text(o.status)}${o.needsAttention ? ' · needs attention' : ''}`,
        value: text(o.id),
      }),
    );
  },

  /** Store products, newest first. */
  async searchStoreProducts(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
    const rows = await newestOf.call(this, listStoreProducts);
    return searchResults(
      rows,
      filter,
      (p) => [p.id, p.title],
      (p) => ({ name: text(p.title), value: text(p.id) }),
    );
  },
};
