import { type OutboxEvent, snapshotOf } from '../events';
import { type Actor, planIncludesDropshipping } from '../identity/permissions';
import type { OrderService } from '../orders';
import { ApiError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { moveOf } from './state-machine';
import type { DispatchCommands } from './commands';
import type { DispatchQueue } from './queues';
import type { SupplierOrderRecords } from './records';

/** The store order events dispatch reacts to (recorded by the orders domain with the change), and its reaction's name. */
export const STORE_ORDER_REACTIONS = ['storeOrder.confirmed', 'storeOrder.authorised', 'storeOrder.captureFailed'];
export const SEND_ON_ORDER_EVENTS = 'dispatch.storeOrder';

/** A store order event as the orders domain records it: the order, what happened, who did it, and the store owner's plan then. */
interface StoreOrderEvent {
  /** The event's own store (the outbox row's). */
  storeId: string;
  orderId: string;
  kind: 'confirmed' | 'authorised' | 'captureFailed';
  actor: Actor;
  ownerPlan: string;
}

/** The event as the outbox keeps it (orders' `storeOrderEvent`: its type names the kind, its snapshot the order and actor). */
export function storeOrderEventOf(e: OutboxEvent): StoreOrderEvent {
  const { orderId, actor, ownerPlan } = snapshotOf<{ orderId: string; actor: Actor; ownerPlan: string }>(e);
  return { storeId: e.storeId, orderId, actor, kind: e.type.slice('storeOrder.'.length) as StoreOrderEvent['kind'], ownerPlan };
}

/**
 * What dispatch does when a store order changes (an internal subscriber of the events domain, at least once: a
 * reaction that runs twice makes nothing twice, since `ensure` makes one supplier order per part and the queue holds
 * one job per part): with an automatic level a supplier part is sent once the order is confirmed; under promise to
 * sell, once the shopper's payment is authorised; and when the provider fails that payment, a supplier order already
 * paid on the promise pauses with customerCaptureFailed.
 */
export class DispatchSubscriptions {
  constructor(
    private readonly orders: OrderService,
    private readonly records: SupplierOrderRecords,
    private readonly commands: DispatchCommands,
    private readonly queue: DispatchQueue,
    private readonly log: Logger,
  ) {}

  async onStoreOrderEvent(e: StoreOrderEvent): Promise<void> {
    const order = await this.orders.byId(e.storeId, e.orderId);
    if (!order) return;
    if (e.kind === 'captureFailed') return this.captureFailed(order.storeId, order.id);
    if (e.kind === 'confirmed' && order.contractModel === 'promiseToSell') return; // sent on authorisation instead
    if (e.kind === 'authorised' && order.contractModel !== 'promiseToSell') return;
    let planChecked = false;
    for (const part of await this.orders.parts(order.storeId, [order.id])) {
      if (!part.connectionId || part.fulfilledByStore) continue;
      const conn = await this.records.connection(order.storeId, part.connectionId);
      if (!conn) continue;
      if (e.kind === 'confirmed' ? conn.automation.level !== 'automatic' : conn.automation.level === 'off') continue;
      // Sending is plan-gated: an automatic send acts for the store under the owner's plan when the order was confirmed
      // (or authorised), not when the automation was set.
      if (!planChecked && !planIncludesDropshipping(e.ownerPlan)) {
        this.log.warn({ orderId: order.id, storeId: order.storeId }, "automatic send skipped: the store owner's plan does not include dropshipping");
        return;
      }
      planChecked = true;
      const { so } = await this.commands.ensure(order, part, e.actor, { payNow: false, trigger: e.kind === 'confirmed' ? 'confirmation' : 'authorisation' });
      if (so.status === 'queued') await this.queue.request(so);
    }
  }

  /** The provider failed the shopper's payment: each part whose supplier was paid on the promise is paused (at most a few tries if it moves meanwhile). */
  private async captureFailed(storeId: string, orderId: string): Promise<void> {
    const message = "The payment provider reported that the shopper's payment failed.";
    for (const part of await this.orders.parts(storeId, [orderId])) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const so = await this.records.forPart(storeId, orderId, part.partKey);
        if (!so || so.contractModel !== 'promiseToSell' || !moveOf(so.status, so.paymentStatus, 'captureFailed')) break;
        try {
          await this.records.change(so, { type: 'captureFailed', message });
          break;
        } catch (err) {
          if (!(err instanceof ApiError && err.code === 'concurrentChange')) throw err;
          this.log.debug({ supplierOrderId: so.id }, 'capture failure met a concurrent change; looking again');
        }
      }
    }
  }
}
