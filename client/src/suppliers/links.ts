import type { Api, ProductLink, RequestOptions } from '../types.js';
import type { Transport } from '../transport.js';

/** Links between the store's products and supplier products. */
export class Links {
  constructor(private readonly t: Transport) {}

  async list(storeId: string, query: Api.ListProductLinks['query'] = {}, options?: RequestOptions): Promise<Api.ListProductLinks['result']> {
    return (await this.t.call('listProductLinks', { params: { storeId }, query }, options)).result;
  }

  /** Links a product the store already has to a supplier product (with `alternates`: backup supplier variants, tried in order). */
  async create(storeId: string, body: Api.CreateProductLink['body'], options?: RequestOptions): Promise<ProductLink> {
    return (await this.t.call('createProductLink', { params: { storeId }, body }, options)).result;
  }

  /** Changes a link's variants, alternates (the list given replaces them; `[]` removes them), price rule or sync switches. */
  async update(storeId: string, linkId: string, body: Api.UpdateProductLink['body'], options?: RequestOptions): Promise<Api.UpdateProductLink['result']> {
    return (await this.t.call('updateProductLink', { params: { storeId, linkId }, body }, options)).result;
  }

  /** Unlinks; the product stays as the store's own. */
  async delete(storeId: string, linkId: string, options?: RequestOptions): Promise<void> {
    await this.t.call('deleteProductLink', { params: { storeId, linkId } }, options);
  }

  /** Syncs one link now. */
  async sync(storeId: string, linkId: string, options?: RequestOptions): Promise<Api.SyncProductLink['result']> {
    return (await this.t.call('syncProductLink', { params: { storeId, linkId } }, options)).result;
  }
}
