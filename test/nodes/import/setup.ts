/** The set-up of the import operations' tests: a shop with one imported product, and the supplier's catalogue. */
import { ServiceClient, Sandbox } from '../../support/harness';
import { openShop, Shop } from '../../support/orders';
import { rl } from '../support/context';
import { resourceFile } from '../support/world';

export type CatalogueProduct = { id: string; variants: Array<{ id: string }> };

export async function catalogue(sandbox: Sandbox, page: number): Promise<CatalogueProduct[]> {
  return (await sandbox.v1('sbx_live_demo', 'GET', `/products?pageSize=100&page=${page}`)).body.items;
}

/** A background import (more than 50 products), started through the service. */
export async function importJob(svc: ServiceClient, sandbox: Sandbox, shop: Shop): Promise<string> {
  const products = (await catalogue(sandbox, 9)).slice(0, 51).map((p) => ({ supplierProductId: p.id }));
  const res = await svc.call('POST', `/api/store-suppliers/${shop.storeId}/${shop.connId}/import`, { key: shop.owner.key, body: { products } });
  if (res.status !== 202) throw new Error(res.text);
  return res.body.result.id;
}

export function importFile(opts: { job?: boolean } = {}) {
  const file = resourceFile('import', 'import', async (w) => {
    const shop = await openShop(w.svc, w.sandbox, { page: 7, products: 1 });
    return { ...shop, jobId: opts.job ? await importJob(w.svc, w.sandbox, shop) : '' };
  });
  return {
    ...file,
    base: () => `/api/store-suppliers/${file.s.shop.storeId}`,
    /** The parameters of an operation on the shop's connection. */
    onConnection: (p: Record<string, unknown>) => file.params({ connection: rl(file.s.shop.connId), ...p }),
  };
}
