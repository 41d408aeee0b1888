import type { DataSource } from 'typeorm';
import { countsFor, Cursors, keysetPage, keysetStatement, ListFilter, Page, runKeyset } from '../platform/pagination';
import type { Destination, FulfilmentGroup, StoreOrder } from './entities';

/** A store order as the list shows it: its parts and their summary, without items or supplier orders. */
export interface StoreOrderListItem {
  id: string;
  storeId: string;
  number: string;
  status: StoreOrder['status'];
  paymentMethod: StoreOrder['paymentMethod'];
  paymentStatus: StoreOrder['paymentStatus'];
  contractModel: StoreOrder['contractModel'];
  currency: string;
  totalMinor: number;
  needsAttention: boolean;
  destination?: Destination;
  destinationRedacted: boolean;
  fulfilmentGroups: Array<{ groupKey: string; connectionId: string | null; status: FulfilmentGroup['status']; fulfilledByStore: boolean; items: string[]; shipment: FulfilmentGroup['shipment'] }>;
  fulfilmentSummary: { parts: number; shipped: number; delivered: number; needingAttention: number };
  confirmedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  store_id: string;
  number: string;
  status: StoreOrder['status'];
  payment_method: StoreOrder['paymentMethod'];
  payment_status: StoreOrder['paymentStatus'];
  contract_model: StoreOrder['contractModel'];
  currency: string;
  total_minor: string;
  needs_attention: boolean;
  destination: Destination;
  confirmed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  parts: Array<{ groupKey: string; connectionId: string | null; status: FulfilmentGroup['status']; fulfilledByStore: boolean; shipment: FulfilmentGroup['shipment'] }>;
  attention: number;
  cursorAt: string;
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
    q: { cursor?: string; pageSize: number; needsAttention?: boolean; status?: string },
    showCustomer: boolean,
  ): Promise<Page<StoreOrderListItem>> {
    const filters: ListFilter[] = [{ column: 'store_id', countColumn: 'store_id', value: storeId }];
    if (ownKeyId) filters.push({ column: 'created_by_key_id', countColumn: 'key_id', value: ownKeyId });
    if (q.needsAttention !== undefined) filters.push({ column: 'needs_attention', countColumn: 'needs_attention', value: q.needsAttention });
    if (q.status) filters.push({ column: 'status', countColumn: 'status', value: q.status });
    return keysetPage<Row, StoreOrderListItem>({
      cursors: this.cursors,
      list: 'storeOrders',
      filters: { storeId, ownKeyId, needsAttention: q.needsAttention ?? null, status: q.status ?? null },
      cursor: q.cursor,
      pageSize: q.pageSize,
      fetch: async (pos, limit) => {
        const { rows, totalCount } = await runKeyset<Row & { cursor_at: string }>(
          this.db,
          keysetStatement({
            table: 'store_orders',
            alias: 'o',
            filters,
            pos,
            limit,
            // needingAttention: the order's supplier orders waiting for review or failed.
            columns: `o.*,
              (SELECT coalesce(json_agg(json_build_object('groupKey', g.group_key, 'connectionId', g.connection_id, 'status', g.status,
                                          'fulfilledByStore', g.fulfilled_by_store, 'shipment', g.shipment) ORDER BY g.group_key), '[]')
                 FROM fulfilment_groups g WHERE g.order_id = o.id) AS parts,
              (SELECT count(*)::int FROM fulfilment_groups g WHERE g.order_id = o.id AND g.needs_attention) AS attention`,
            counts: countsFor(filters, { table: 'store_order_counts', sum: 'n' }),
          }),
        );
        return { rows: rows.map((r) => Object.assign(r, { cursorAt: r.cursor_at })), totalCount };
      },
      map: (o) => ({
        id: o.id,
        storeId: o.store_id,
        number: o.number,
        status: o.status,
        paymentMethod: o.payment_method,
        paymentStatus: o.payment_status,
        contractModel: o.contract_model,
        currency: o.currency,
        totalMinor: Number(o.total_minor),
        needsAttention: o.needs_attention,
        ...(showCustomer ? { destination: o.destination, destinationRedacted: false } : { destinationRedacted: true }),
        fulfilmentGroups: o.parts.map((g) => ({ groupKey: g.groupKey, connectionId: g.connectionId, status: g.status, fulfilledByStore: g.fulfilledByStore, items: [], shipment: g.shipment })),
        fulfilmentSummary: {
          parts: o.parts.length,
          shipped: o.parts.filter((g) => g.status === 'shipped' || g.status === 'delivered').length,
          delivered: o.parts.filter((g) => g.status === 'delivered').length,
          needingAttention: o.attention,
        },
        confirmedAt: o.confirmed_at ? o.confirmed_at.toISOString() : null,
        createdAt: o.created_at.toISOString(),
        updatedAt: o.updated_at.toISOString(),
      }),
    });
  }
}
