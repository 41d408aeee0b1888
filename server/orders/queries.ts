import type { DataSource } from 'typeorm';
import { Cursors, keysetList, Page } from '../platform/pagination';
import type { Destination, OrderPart, StoreOrder } from './types';
import * as sql from './sql/orders';

/** A store order as the list shows it: its parts and their summary, without items or supplier orders. */
interface StoreOrderListItem {
  id: string;
  storeId: string;
  number: string;
  status: StoreOrder['status'];
  paymentMethod: StoreOrder['paymentMethod'];
  paymentStatus: StoreOrder['paymentStatus'];
  markedPaidAt: string | null;
  contractModel: StoreOrder['contractModel'];
  currency: string;
  totalMinor: number;
  needsAttention: boolean;
  paymentAttention: { reason: string; since: string } | null;
  destination?: Destination;
  destinationRedacted: boolean;
  fulfilmentGroups: Array<{
    groupKey: string; // the wire's name of partKey
    connectionId: string | null;
    status: OrderPart['status'];
    fulfilledByStore: boolean;
    items: string[];
    shipment: OrderPart['shipment'];
  }>;
  fulfilmentSummary: { parts: number; shipped: number; delivered: number; needingAttention: number };
  confirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The store order list: a page, its parts and its exact totalCount in one statement. */
export class StoreOrderQueries {
  constructor(
    private readonly db: DataSource,
    private readonly cursors: Cursors,
  ) {}

  async list(
    storeId: string,
    ownKeyId: string | null,
    q: { cursor?: string; pageSize: number; needsAttention?: boolean; status?: string; customer?: string },
    showCustomer: boolean,
  ): Promise<Page<StoreOrderListItem>> {
    const statement = sql.orderList({ storeId, ownKeyId, needsAttention: q.needsAttention, status: q.status, customer: q.customer });
    return keysetList<sql.OrderListRow, StoreOrderListItem>(this.db, this.cursors, q, statement, (o) => ({
      id: o.id,
      storeId: o.store_id,
      number: o.number,
      status: o.status,
      paymentMethod: o.payment_method,
      paymentStatus: o.payment_status,
      markedPaidAt: o.marked_paid_at ? o.marked_paid_at.toISOString() : null,
      contractModel: o.contract_model,
      currency: o.currency,
      totalMinor: Number(o.total_minor),
      needsAttention: o.needs_attention,
      paymentAttention: o.payment_attention ? { reason: o.payment_attention, since: o.payment_attention_at!.toISOString() } : null,
      ...(showCustomer ? { destination: o.destination, destinationRedacted: false } : { destinationRedacted: true }),
      fulfilmentGroups: o.parts.map((g) => ({
        groupKey: g.partKey, // the wire's name
        connectionId: g.connectionId,
        status: g.status,
        fulfilledByStore: g.fulfilledByStore,
        items: [],
        shipment: g.shipment,
      })),
      fulfilmentSummary: {
        parts: o.parts.length,
        shipped: o.parts.filter((g) => g.status === 'shipped' || g.status === 'delivered').length,
        delivered: o.parts.filter((g) => g.status === 'delivered').length,
        needingAttention: o.attention,
      },
      confirmedAt: o.confirmed_at ? o.confirmed_at.toISOString() : null,
      createdAt: o.created_at.toISOString(),
      updatedAt: o.updated_at.toISOString(),
    }));
  }
}
