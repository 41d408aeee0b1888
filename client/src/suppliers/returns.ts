import type { Transport } from '../transport.js';
import type { Api, PartReturn, RequestOptions } from '../types.js';

/**
 * Returns on the store's side of a shipped supplier order: which items, why, the claim with the supplier it goes with,
 * and whether the shopper is refunded (through the store's payment provider, under the return's own key: asked again,
 * it refunds once). More than was sent is ApiError returnInvalid (422); an item returned already, alreadyReturned (409).
 */
export class Returns {
  constructor(private readonly t: Transport) {}

  async create(storeId: string, supplierOrderId: string, body: Api.RecordSupplierOrderReturn['body'], options?: RequestOptions): Promise<PartReturn> {
    return (await this.t.call('recordSupplierOrderReturn', { params: { storeId, supplierOrderId }, body }, options)).result;
  }

  /** The supplier order's returns, oldest first. */
  async list(storeId: string, supplierOrderId: string, options?: RequestOptions): Promise<PartReturn[]> {
    return (await this.t.call('listSupplierOrderReturns', { params: { storeId, supplierOrderId } }, options)).result.items;
  }

  async get(storeId: string, supplierOrderId: string, returnId: string, options?: RequestOptions): Promise<PartReturn> {
    return (await this.t.call('getSupplierOrderReturn', { params: { storeId, supplierOrderId, returnId } }, options)).result;
  }

  /** A refund whose answer was not had (`refund.status` sending), asked again under the same key; any other answered as it is. */
  async sendRefund(storeId: string, supplierOrderId: string, returnId: string, options?: RequestOptions): Promise<PartReturn> {
    return (await this.t.call('sendSupplierOrderReturnRefund', { params: { storeId, supplierOrderId, returnId } }, options)).result;
  }
}
