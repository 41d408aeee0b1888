import type { Api, RequestOptions } from '../types.js';
import type { Transport } from '../transport.js';

/** The supplier's catalogue as seen through one connection (`id`). */
export class Products {
  constructor(private readonly t: Transport) {}

  /** Browses or searches the supplier's catalogue, one page at a time. */
  async search(
    storeId: string,
    id: string,
    query: Api.SearchSupplierProducts['query'] = {},
    options?: RequestOptions,
  ): Promise<Api.SearchSupplierProducts['result']> {
    return (await this.t.call('searchSupplierProducts', { params: { storeId, id }, query }, options)).result;
  }

  /** One supplier product with variants, costs and stock. */
  async get(storeId: string, id: string, supplierProductId: string, options?: RequestOptions): Promise<Api.GetSupplierProduct['result']> {
    return (await this.t.call('getSupplierProduct', { params: { storeId, id, supplierProductId } }, options)).result;
  }

  /** Turns a pasted product link into the supplier's product id. */
  async resolveUrl(storeId: string, id: string, url: string, options?: RequestOptions): Promise<Api.ResolveSupplierProductUrl['result']> {
    // Changes nothing, so it is as safe to send again as a read.
    return (await this.t.call('resolveSupplierProductUrl', { params: { storeId, id }, body: { url }, retrySafe: true }, options)).result;
  }
}
