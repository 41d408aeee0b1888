import { walkPages } from './paging.js';
import type { Transport } from './transport.js';
import type { Api, CurrentApiKey, RequestOptions, StoreOrder } from './types.js';

/** The calling key. */
export class ApiKeys {
  constructor(private readonly t: Transport) {}

  /** Describes the calling key: the key (masked), its owner, the plan and the credits the account can spend. */
  async current(options?: RequestOptions): Promise<CurrentApiKey> {
    return (await this.t.call('getCurrentApiKey', {}, options)).result;
  }
}

export type StoreOrderPage = Api.ListStoreOrders['result'];

/** Store orders with their parts (and, for a caller holding suppliers.view, their supplier orders). */
export class StoreOrders {
  constructor(private readonly t: Transport) {}

  async get(storeId: string, orderId: string, options?: RequestOptions): Promise<StoreOrder> {
    return (await this.t.call('getStoreOrder', { params: { storeId, orderId } }, options)).result;
  }

  /** One page; `needsAttention: true` keeps orders with a part needing attention. */
  async list(storeId: string, query: Api.ListStoreOrders['query'] = {}, options?: RequestOptions): Promise<StoreOrderPage> {
    return (await this.t.call('listStoreOrders', { params: { storeId }, query }, options)).result;
  }

  /**
   * A person dealt with the order's payment needing attention (`paymentAttention`): clears it, keeping the note and
   * who in its payment history. Needs `payments.manage`; 409 `noPaymentAttention` when there is none.
   */
  async acknowledgePaymentAttention(storeId: string, orderId: string, note: string, options?: RequestOptions): Promise<StoreOrder> {
    return (await this.t.call('acknowledgeStoreOrderPaymentAttention', { params: { storeId, orderId }, body: { note } }, options)).result;
  }

  /** Every store order matching the filters, page after page. */
  iterate(storeId: string, filters: Omit<Api.ListStoreOrders['query'], 'cursor'> = {}, options?: RequestOptions): AsyncGenerator<StoreOrderPage['items'][number], void, undefined> {
    return walkPages((query, o) => this.list(storeId, query, o), filters, options);
  }
}
