import type { Api, RequestOptions } from '../types.js';
import type { Transport } from '../transport.js';

/**
 * The store's event subscriptions: addresses the service POSTs signed events to (verify each with
 * `webhooks.verify`), their delivery log and redelivery.
 */
export class EventSubscriptions {
  constructor(private readonly t: Transport) {}

  /** Subscribes an address; the answer's `secret` (`whsec_…`) is shown only here and when rotated. */
  async create(storeId: string, body: Api.CreateEventSubscription['body'], options?: RequestOptions): Promise<Api.CreateEventSubscription['result']> {
    return (await this.t.call('createEventSubscription', { params: { storeId }, body }, options)).result;
  }

  async list(storeId: string, query: Api.ListEventSubscriptions['query'] = {}, options?: RequestOptions): Promise<Api.ListEventSubscriptions['result']> {
    return (await this.t.call('listEventSubscriptions', { params: { storeId }, query }, options)).result;
  }

  async get(storeId: string, subscriptionId: string, options?: RequestOptions): Promise<Api.GetEventSubscription['result']> {
    return (await this.t.call('getEventSubscription', { params: { storeId, subscriptionId } }, options)).result;
  }

  /** Changes the address, event types or description, or switches it on (`enabled: true` after a switch-off) or off. */
  async update(
    storeId: string,
    subscriptionId: string,
    body: Api.UpdateEventSubscription['body'],
    options?: RequestOptions,
  ): Promise<Api.UpdateEventSubscription['result']> {
    return (await this.t.call('updateEventSubscription', { params: { storeId, subscriptionId }, body }, options)).result;
  }

  async delete(storeId: string, subscriptionId: string, options?: RequestOptions): Promise<void> {
    await this.t.call('deleteEventSubscription', { params: { storeId, subscriptionId } }, options);
  }

  /** A new secret; the old one keeps signing beside it for `keepOldSeconds` (default a day). */
  async rotateSecret(
    storeId: string,
    subscriptionId: string,
    body: Api.RotateEventSubscriptionSecret['body'] = {},
    options?: RequestOptions,
  ): Promise<Api.RotateEventSubscriptionSecret['result']> {
    return (await this.t.call('rotateEventSubscriptionSecret', { params: { storeId, subscriptionId }, body }, options)).result;
  }

  /** Sends a `subscription.test` event to this subscription alone; answers its delivery. */
  async test(storeId: string, subscriptionId: string, options?: RequestOptions): Promise<Api.TestEventSubscription['result']> {
    return (await this.t.call('testEventSubscription', { params: { storeId, subscriptionId } }, options)).result;
  }

  async deliveries(
    storeId: string,
    subscriptionId: string,
    query: Api.ListEventDeliveries['query'] = {},
    options?: RequestOptions,
  ): Promise<Api.ListEventDeliveries['result']> {
    return (await this.t.call('listEventDeliveries', { params: { storeId, subscriptionId }, query }, options)).result;
  }

  /** Sends a delivery's event again, with the same `webhook-id`. */
  async redeliver(storeId: string, subscriptionId: string, deliveryId: string, options?: RequestOptions): Promise<Api.RedeliverEvent['result']> {
    return (await this.t.call('redeliverEvent', { params: { storeId, subscriptionId, deliveryId } }, options)).result;
  }
}
