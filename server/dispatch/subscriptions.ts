import type { OrderService } from '../orders/service';
import type { StoreOrderEvent } from '../orders/events';
import { ApiError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { moveOf } from './state-machine';
import type { DispatchCommands } from './commands';
import type { DispatchQueue } from './queues';
import type { SupplierOrderRecords } from './records';

/**
 * What dispatch does when a store order changes (the orders domain publishes the event in the transaction that
 * changed the order): with an automatic level a supplier part is sent once the order is confirmed; under promise to
 * sell, once the shopper's payment is authorised; and when the provider fails that payment, a supplier order already
 * paid on the promise pauses with customerCaptureFailed.
 */
export class DispatchSubscriptions {
  constructor(
    private readonly orders: OrderService,
    private readonly records: SupplierOrderRecords,
    private readonly commands: DispatchCommands,
    private readonly queue: DispatchQueue,
    private readonly storeDropshipping: (storeId: string) => Promise<boolean>,
    private readonly log: Logger,
  ) {}

  async onStoreOrderEvent(e: StoreOrderEvent): Promise<void> {
    const order = await this.orders.byId(e.orderId);
    if (!order) return;
    if (e.kind === 'captureFailed') return this.captureFailed(order.id);
    if (e.kind === 'confirmed' && order.contractModel === 'promiseToSell') return; // sent on authorisation instead
    if (e.kind === 'authorised' && order.contractModel !== 'promiseToSell') return;
    let planChecked = false;
    for (const group of await this.orders.groups([order.id])) {
      if (!group.connectionId || group.fulfilledByStore) continue;
      const conn = await this.records.connection(group.connectionId);
      if (!conn) continue;
      if (e.kind === 'confirmed' ? conn.automation.level !== 'automatic' : conn.automation.level === 'off') continue;
      // Sending is plan-gated: an automatic send acts for the store, so the owner's plan is read now, not when the automation was set.
      if (!planChecked && !(await this.storeDropshipping(order.storeId))) {
        this.log.warn({ orderId: order.id, storeId: order.storeId }, 'automatic send skipped: the store owner\'s plan does not include dropshipping');
        return;
      }
      planChecked = true;
      const { so } = await this.commands.ensure(order, group, e.actor, { payNow: false, trigger: e.kind === 'confirmed' ? 'confirmation' : 'authorisation' });
      if (so.status === 'queued') await this.queue.request(so);
    }
  }

  /** The provider failed the shopper's payment: each part whose supplier was paid on the promise is paused (at most a few tries if it moves meanwhile). */
  private async captureFailed(orderId: string): Promise<void> {
    const message = 'The payment provider reported that the shopper\'s payment failed.';
    for (const group of await this.orders.groups([orderId])) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const so = await this.records.forPart(orderId, group.groupKey);
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
