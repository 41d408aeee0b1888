import { api } from './api.js';

/** Supplier names by key, from the store's catalogue; read once per store while the page is open. */
const cache = new Map<string, Promise<Map<string, string>>>();

export function supplierNames(storeId: string): Promise<Map<string, string>> {
  let names = cache.get(storeId);
  if (!names) {
    names = api<Array<{ key: string; name: string }>>('GET', `/api/store-suppliers/${storeId}/catalogue`).then(
      (r) => new Map(r.result.map((e) => [e.key, e.name])),
    );
    names.catch(() => cache.delete(storeId));
    cache.set(storeId, names);
  }
  return names;
}
