import type { DataSource } from 'typeorm';
import { Cursors, keysetList, Page } from '../platform/pagination';
import { errors } from '../platform/errors';
import { type PartMoney, partProfit } from './landed';
import * as sql from './sql/reads';
import { supplierOrderOf } from './sql/rows';
import type { SupplierOrder, SupplierOrderEvent, SupplierOrderFilters } from './supplier-order';

export type { SupplierOrderEvent } from './supplier-order';

/** The list's filters as the API names them (the spec calls a connection's id `integrationId`). */
type SupplierOrderQuery = Omit<SupplierOrderFilters, 'connectionId'> & { integrationId?: string };

/** A supplier order as a list page answers it (./sql/rows.ts, `LISTED_OF_S`): the fields its view reads, times as ISO 8601 text, its history. */
export type ListedSupplierOrder = Pick<
  SupplierOrder,
  | 'id'
  | 'storeId'
  | 'orderId'
  | 'orderNumber'
  | 'partKey'
  | 'connectionId'
  | 'supplierKey'
  | 'contractModel'
  | 'status'
  | 'reviewReason'
  | 'reviewMessage'
  | 'retryable'
  | 'supplierOrderNumber'
  | 'supplierOrderId'
  | 'supplierStatus'
  | 'costs'
  | 'paymentStatus'
  | 'shipping'
  | 'attempt'
  | 'destination'
  | 'delivery'
  | 'reshipOf'
> & { createdAt: string; updatedAt: string; events: SupplierOrderEvent[] };

/** What a view of a supplier order reads: a whole record, or a list page's row (times already ISO text, its history along). */
type Shown = SupplierOrder | ListedSupplierOrder;
const iso = (at: Date | string): string => (typeof at === 'string' ? at : at.toISOString());

/** Reads of supplier orders: one, and the cursor-paged list with its exact totalCount. */
/** What a person does next where the route table has it: a cancel that came after the supplier shipped is handled as a return. */
function nextActionOf(so: Shown) {
  if (so.status !== 'needsReview' || so.reviewReason !== 'supplierAlreadyShipped') return null;
  return {
    action: 'return' as const,
    operationId: 'recordSupplierOrderReturn',
    method: 'POST' as const,
    path: `/api/store-suppliers/${so.storeId}/orders/${so.id}/returns`,
  };
}

export class SupplierOrderReads {
  constructor(
    private readonly db: DataSource,
    private readonly cursors: Cursors,
  ) {}

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<SupplierOrder> {
    const so = await sql.supplierOrderById(this.db, id, storeId);
    if (!so || (ownKeyId && so.createdByKeyId !== ownKeyId)) throw errors.notFound('The supplier order');
    return so;
  }

  /** Each record's history, oldest first, as (history id, entry). */
  private async history(records: Array<{ id: string; storeId: string }>): Promise<Map<string, Array<[number, SupplierOrderEvent]>>> {
    const out = new Map<string, Array<[number, SupplierOrderEvent]>>(records.map((r) => [r.id, []]));
    // One read per store (in practice one): each stays on its store's shard.
    const byStore = new Map<string, string[]>();
    for (const r of records) byStore.set(r.storeId, [...new Set([...(byStore.get(r.storeId) ?? []), r.id])]);
    const found = (await Promise.all([...byStore].map(([storeId, ids]) => sql.eventsOf(this.db, storeId, ids))))
      .flat()
      .sort((a, b) => Number(a.id) - Number(b.id));
    for (const r of found) {
      out
        .get(r.supplier_order_id)!
        .push([
          Number(r.id),
          { at: r.at.toISOString(), actor: { kind: r.actor_kind, id: r.actor_id }, type: r.type, from: r.from_status, to: r.to_status, details: r.details },
        ]);
    }
    return out;
  }

  async events(records: Array<{ id: string; storeId: string }>): Promise<Map<string, SupplierOrderEvent[]>> {
    const history = await this.history(records);
    return new Map([...history].map(([id, entries]) => [id, entries.map(([, e]) => e)]));
  }

  /** Supplier orders as one write left them, each with its history up to the entry that write made (an event's data), in one read. */
  async asWritten(written: Array<{ so: SupplierOrder; historyId: number }>, showCustomer: boolean) {
    const history = await this.history(written.map((w) => w.so));
    const money = await this.money(written.map((w) => w.so));
    return written.map((w) =>
      this.view(
        w.so,
        history
          .get(w.so.id)!
          .filter(([id]) => id <= w.historyId)
          .map(([, e]) => e),
        showCustomer,
        money.get(w.so.id),
      ),
    );
  }

  /** Each part's landed costs and what its profit is made of (one read per store; a page is one store's). */
  private async money(records: Array<{ id: string; storeId: string }>): Promise<Map<string, PartMoney>> {
    const out = new Map<string, PartMoney>();
    for (const storeId of new Set(records.map((r) => r.storeId))) {
      for (const [id, m] of await sql.moneyOf(
        this.db,
        storeId,
        records.filter((r) => r.storeId === storeId).map((r) => r.id),
      ))
        out.set(id, m);
    }
    return out;
  }

  view(so: Shown, events: SupplierOrderEvent[], showCustomer: boolean, money?: PartMoney) {
    return {
      _id: so.id,
      storeId: so.storeId,
      orderId: so.orderId,
      orderNumber: so.orderNumber,
      fulfilmentGroupKey: so.partKey, // the wire's name for the part key
      integrationId: so.connectionId,
      supplierKey: so.supplierKey,
      contractModel: so.contractModel,
      status: so.status,
      reviewReason: so.reviewReason,
      reviewMessage: so.reviewMessage,
      retryable: so.retryable ?? false,
      nextAction: nextActionOf(so),
      supplierOrderNumber: so.supplierOrderNumber,
      supplierOrderId: so.supplierOrderId,
      supplierStatus: so.supplierStatus,
      costs: so.costs,
      payment: { status: so.paymentStatus },
      shipping: so.shipping,
      // After shipping (./delivery/, ./claims/): what the watch raised, the carrier's scans, and the claim a reship serves.
      deliveryAttention: so.delivery?.attention ?? null,
      tracking: so.delivery
        ? { events: so.delivery.scans, lastScanAt: so.delivery.lastScanAt, exception: so.delivery.exception, promisedMaxDays: so.delivery.promisedMaxDays }
        : null,
      reshipOf: so.reshipOf ?? null,
      attempt: so.attempt,
      events,
      landedCosts: money?.landedCosts ?? [],
      supplierCredits: money?.credits ?? [],
      profit: money ? partProfit(money) : null,
      ...(showCustomer ? { destination: so.destination, destinationRedacted: false } : { destinationRedacted: true }),
      createdAt: iso(so.createdAt),
      updatedAt: iso(so.updatedAt),
    };
  }

  async views(rows: Shown[], showCustomer: boolean) {
    // Rows of a list page brought their events along; others read them in one query.
    const read = rows.every((r) => 'events' in r) ? null : await this.events(rows);
    const money = await this.money(rows);
    return rows.map((r) => this.view(r, 'events' in r ? r.events : read!.get(r.id)!, showCustomer, money.get(r.id)));
  }

  /** The supplier orders of some store orders, with their events, as the routes show them: one read. */
  async ofOrders(storeId: string, orderIds: string[], showCustomer: boolean) {
    if (!orderIds.length) return [];
    const found = await sql.supplierOrdersOfOrders(this.db, storeId, orderIds);
    const money = await sql.moneyOf(
      this.db,
      storeId,
      found.map((r) => r.id),
    );
    return found.map((r) => this.view(supplierOrderOf(r), r.events, showCustomer, money.get(r.id)));
  }

  /**
   * A page in one statement: the supplier orders, their events and the exact totalCount (from the counts
   * the database keeps; own-scope keys and orderId count their rows). The events ride along to `views`.
   */
  async list(storeId: string, ownKeyId: string | null, q: SupplierOrderQuery & { cursor?: string; pageSize: number }): Promise<Page<ListedSupplierOrder>> {
    const { integrationId, ...rest } = q;
    const f = { ...rest, connectionId: integrationId };
    return keysetList<ListedSupplierOrder, ListedSupplierOrder>(this.db, this.cursors, f, sql.supplierOrderList(storeId, ownKeyId, f), (r) => r);
  }
}
