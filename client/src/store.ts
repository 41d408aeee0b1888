import { walkPages } from './paging.js';
import type { Transport } from './transport.js';
import type { Api, CurrentApiKey, RequestOptions, StoreOrder } from './types.js';

export type PaymentAttentionReason = Api.AcknowledgeStoreOrderPaymentAttention['body']['reason'];

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
   * A person dealt with the order's payment needing attention for `reason` (its `paymentAttention.reason` as they saw
   * it): clears it, keeping the note and who in its payment history. Needs `payments.manage`; 409 `attentionChanged`
   * when the order's reason is another now, `noPaymentAttention` when there is none.
   */
  async acknowledgePaymentAttention(
    storeId: string,
    orderId: string,
    reason: PaymentAttentionReason,
    note: string,
    options?: RequestOptions,
  ): Promise<StoreOrder> {
    return (await this.t.call('acknowledgeStoreOrderPaymentAttention', { params: { storeId, orderId }, body: { reason, note } }, options)).result;
  }

  /**
   * Refunds the shopper, the whole order or `amountMinor` of it, through the store's payment provider (202: the
   * provider took it; the order's `providerPayments`, `amountRefundedMinor` and `paymentStatus` move on its signed
   * event). Needs `payments.manage`; 409 `nothingToRefund`, `refundExceedsPayment`, `refundRefused`.
   */
  async refund(storeId: string, orderId: string, body: Api.RefundStoreOrder['body'], options?: RequestOptions): Promise<Api.RefundStoreOrder['result']> {
    return (await this.t.call('refundStoreOrder', { params: { storeId, orderId }, body }, options)).result;
  }

  /** Every store order matching the filters, page after page. */
  iterate(
    storeId: string,
    filters: Omit<Api.ListStoreOrders['query'], 'cursor'> = {},
    options?: RequestOptions,
  ): AsyncGenerator<StoreOrderPage['items'][number], void, undefined> {
    return walkPages((query, o) => this.list(storeId, query, o), filters, options);
  }
}
