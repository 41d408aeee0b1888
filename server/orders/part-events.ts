import type { Queryable } from '../platform/db';
import { type EventRenderer, snapshotOf } from '../events';
import { partsWithItems } from './sql/parts';
import type { PartStatus, Shipment } from './types';

/** What `partMove` keeps of a move for its event: the part as written, with its order's number. */
interface Snapshot {
  order_id: string;
  order_number: string;
  group_key: string;
  connection_id: string | null;
  status: PartStatus;
  shipment: Shipment | null;
  fulfilled_by_store: boolean;
}

/** Order part events' data: the part as a store order's `fulfilmentGroups[]` shows it, with its order's id and number. */
export function orderPartRenderer(db: Queryable): EventRenderer {
  return {
    permission: 'orders.view',
    async render(events) {
      const parts = events.map((e) => snapshotOf<Snapshot>(e));
      // Each store's parts in a statement of its own (a subscription's batch is one store's).
      const items = new Map<string, string[]>();
      for (const storeId of new Set(events.map((e) => e.storeId))) {
        const ofStore = parts.filter((_, i) => events[i].storeId === storeId);
        for (const [key, ids] of await partsWithItems(db, storeId, ofStore)) items.set(`${storeId}:${key}`, ids);
      }
      return parts.map((g, i) => ({
        orderId: g.order_id,
        orderNumber: g.order_number,
        groupKey: g.group_key, // the event's wire name
        connectionId: g.connection_id,
        status: g.status,
        fulfilledByStore: g.fulfilled_by_store,
        items: items.get(`${events[i].storeId}:${g.order_id}:${g.group_key}`) ?? [],
        shipment: g.shipment,
      }));
    },
  };
}

/**
 * `storeOrder.paymentChanged` data: the order's id and number, its payment status now and before, the provider's event
 * kind that moved it, and whether the order needs a person (no customer data: the order's payment only).
 */
export const storeOrderPaymentRenderer: EventRenderer = {
  permission: 'orders.view',
  render: async (events) => events.map((e) => e.snapshot),
};
