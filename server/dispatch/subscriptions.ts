import type { OrderService } from '../orders/service';
import type { StoreOrderEvent } from '../orders/events';
import type { DispatchCommands } from './commands';
import type { DispatchQueue } from './queues';
import type { SupplierOrderRecords } from './records';

/**
 * What dispatch does when a store order changes (the orders domain publishes the event in the transaction that
 * changed the order): with an automatic level a supplier part is sent once the order is confirmed; under promise to
 * sell, once the shopper's payment is authorised.
 */
export class DispatchSubscriptions {
  constructor(
    private readonly orders: OrderService,
    private readonly records: SupplierOrderRecords,
    private readonly commands: DispatchCommands,
    private readonly queue: DispatchQueue,
  ) {}

  async onStoreOrderEvent(e: StoreOrderEvent): Promise<void> {
    const order = await this.orders.byId(e.orderId);
    if (!order) return;
    if (e.kind === 'confirmed' && order.contractModel === 'promiseToSell') return; // sent on authorisation instead
    if (e.kind === 'authorised' && order.contractModel !== 'promiseToSell') return;
    for (const group of await this.orders.groups([order.id])) {
      if (!group.connectionId || group.fulfilledByStore) continue;
      const conn = await this.records.connection(group.connectionId);
      if (!conn) continue;
      if (e.kind === 'confirmed' ? conn.automation.level !== 'automatic' : conn.automation.level === 'off') continue;
      const { so } = await this.commands.ensure(order, group, e.actor, { payNow: false, trigger: e.kind === 'confirmed' ? 'confirmation' : 'authorisation' });
      if (so.status === 'queued') await this.queue.request(so);
    }
  }
}
