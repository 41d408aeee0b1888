import { SupplierOrderPausedError } from '../errors.js';
import { walkPages } from '../paging.js';
import type { Answer, Transport } from '../transport.js';
import type { Api, DispatchOptions, RequestOptions, Rerouted, SupplierOrder, SupplierOrderFilters, SupplierOrderPage } from '../types.js';

/** Supplier orders: list, follow, submit, retry, reroute, pay, cancel, take a part over by hand, acknowledge a delivery attention. */
export class SupplierOrders {
  constructor(private readonly t: Transport) {}

  /** One page, newest first. Repeat with `cursor: page.pagination.nextCursor`, or use `iterate`. */
  async list(storeId: string, query: Api.ListSupplierOrders['query'] = {}, options?: RequestOptions): Promise<SupplierOrderPage> {
    return (await this.t.call('listSupplierOrders', { params: { storeId }, query }, options)).result;
  }

  /** Every supplier order matching the filters, page after page. Read them all before acting on rows. */
  iterate(storeId: string, filters: SupplierOrderFilters = {}, options?: RequestOptions): AsyncGenerator<SupplierOrder, void, undefined> {
    return walkPages((query, o) => this.list(storeId, query, o), filters, options);
  }

  /** One supplier order with its history. */
  async get(storeId: string, supplierOrderId: string, options?: RequestOptions): Promise<SupplierOrder> {
    return (await this.t.call('getSupplierOrder', { params: { storeId, supplierOrderId } }, options)).result;
  }

  /**
   * Sends one part of an order to its supplier now. Called twice, the service still makes one supplier
   * order, so the client retries it like a read. Throws SupplierOrderPausedError when the order paused.
   */
  async submit(storeId: string, orderId: string, groupKey: string, body: Api.SubmitOrderPart['body'] = {}, options?: DispatchOptions): Promise<SupplierOrder> {
    return notPaused(
      await this.t.call('submitOrderPart', { params: { storeId, orderId, groupKey }, body, retrySafe: true, headers: prefer(options) }, options),
    );
  }

  /** Tries a queued, paused or failed supplier order again. Throws SupplierOrderPausedError when it paused (again). */
  async retry(storeId: string, supplierOrderId: string, body: Api.RetrySupplierOrder['body'] = {}, options?: DispatchOptions): Promise<SupplierOrder> {
    return notPaused(await this.t.call('retrySupplierOrder', { params: { storeId, supplierOrderId }, body, headers: prefer(options) }, options));
  }

  /**
   * Sends a paused order's items to a backup supplier: the link's alternates in order, or only those on
   * `body.connectionId`, once the first supplier provably holds no live order for them. Answers the order, now
   * `cancelled`, its history's `rerouted` entry naming the new one (read it with `rerouted`). When no alternate could
   * take the items the pause stands: SupplierOrderPausedError, its reviewMessage listing the alternates tried. With
   * `respondAsync` (or while the job works) it answers the order as it is, still paused: follow it with `get`.
   */
  async reroute(storeId: string, supplierOrderId: string, body: Api.RerouteSupplierOrder['body'] = {}, options?: DispatchOptions): Promise<SupplierOrder> {
    const answer = await this.t.call('rerouteSupplierOrder', { params: { storeId, supplierOrderId }, body, headers: prefer(options) }, options);
    return answer.status === 202 ? answer.result : notPaused(answer);
  }

  /** The `rerouted` entry of a supplier order's history (from, to, reason, cost difference), or null when it was not rerouted. */
  rerouted(so: SupplierOrder): Rerouted | null {
    const entry = so.events.find((e) => e.type === 'rerouted');
    // The history's details are free-form in the schema; a `rerouted` entry always has this shape (docs/events.md).
    return entry ? (entry.details as unknown as Rerouted) : null;
  }

  /** Pays a supplier order that was created but not paid. Throws SupplierOrderPausedError when it paused. */
  async pay(storeId: string, supplierOrderId: string, options?: DispatchOptions): Promise<SupplierOrder> {
    return notPaused(await this.t.call('paySupplierOrder', { params: { storeId, supplierOrderId }, headers: prefer(options) }, options));
  }

  /** Withdraws the order at the supplier where it still allows it; after shipping it answers the order paused with supplierAlreadyShipped. */
  async cancel(storeId: string, supplierOrderId: string, options?: DispatchOptions): Promise<SupplierOrder> {
    return (await this.t.call('cancelSupplierOrder', { params: { storeId, supplierOrderId }, headers: prefer(options) }, options)).result;
  }

  /**
   * Acknowledges a sent order's delivery attention, naming the reason seen (ApiError attentionChanged, 409, when it is
   * another now): it clears, and is not raised again for that reason until its threshold passes anew.
   */
  async acknowledgeDeliveryAttention(
    storeId: string,
    supplierOrderId: string,
    body: Api.AcknowledgeDeliveryAttention['body'],
    options?: RequestOptions,
  ): Promise<SupplierOrder> {
    return (await this.t.call('acknowledgeDeliveryAttention', { params: { storeId, supplierOrderId }, body }, options)).result;
  }

  /** Takes a part over so the store ships it itself. */
  async fulfilManually(storeId: string, orderId: string, groupKey: string, options?: RequestOptions): Promise<Api.FulfilOrderPartManually['result']> {
    return (await this.t.call('fulfilOrderPartManually', { params: { storeId, orderId, groupKey } }, options)).result;
  }
}

function prefer(options: DispatchOptions | undefined): Record<string, string> | undefined {
  return options?.respondAsync ? { Prefer: 'respond-async' } : undefined;
}

/** A paused order is an answer of 200, but a program must not take it for a sent one. */
function notPaused(answer: Answer<SupplierOrder>): SupplierOrder {
  if (answer.result?.status === 'needsReview') throw new SupplierOrderPausedError(answer.result);
  return answer.result;
}
