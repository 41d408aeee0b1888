import type { DataSource } from 'typeorm';
import { Cursors, keysetList, Page } from '../platform/pagination';
import { errors } from '../platform/errors';
import type { SupplierOrder } from './entities';
import { SupplierOrder as SupplierOrderEntity } from './entities';
import * as sql from './sql';

export interface SupplierOrderEvent {
  at: string;
  actor: { kind: string; id: string | null };
  type: string;
  from: string | null;
  to: string | null;
  details: Record<string, unknown>;
}

/** The list's filters as the API names them (the spec calls a connection's id `integrationId`). */
export interface SupplierOrderQuery {
  status?: string;
  needsReview?: boolean;
  integrationId?: string;
  orderId?: string;
  contractModel?: string;
}

/** The same filters in the code's words. */
export type SupplierOrderFilters = Omit<SupplierOrderQuery, 'integrationId'> & { connectionId?: string };

/** Reads of supplier orders: one, and the cursor-paged list with its exact totalCount. */
export class SupplierOrderReads {
  constructor(
    private readonly db: DataSource,
    private readonly cursors: Cursors,
  ) {}

  /** Events read by the list statement, keyed by the row objects it answered. */
  private readonly prefetched = new WeakMap<SupplierOrder, SupplierOrderEvent[]>();

  async get(storeId: string, id: string, ownKeyId: string | null): Promise<SupplierOrder> {
    const so = await this.db.getRepository(SupplierOrderEntity).findOneBy({ id, storeId });
    if (!so || (ownKeyId && so.createdByKeyId !== ownKeyId)) throw errors.notFound('The supplier order');
    return so;
  }

  async events(ids: string[]): Promise<Map<string, SupplierOrderEvent[]>> {
    const out = new Map<string, SupplierOrderEvent[]>(ids.map((id) => [id, []]));
    if (!ids.length) return out;
    const rows = await sql.eventsOf(this.db, ids);
    for (const r of rows) out.get(r.supplier_order_id)!.push({ at: r.at.toISOString(), actor: { kind: r.actor_kind, id: r.actor_id }, type: r.type, from: r.from_status, to: r.to_status, details: r.details });
    return out;
  }

  view(so: SupplierOrder, events: SupplierOrderEvent[], showCustomer: boolean) {
    return {
      _id: so.id,
      storeId: so.storeId,
      orderId: so.orderId,
      orderNumber: so.orderNumber,
      fulfilmentGroupKey: so.groupKey,
      integrationId: so.connectionId,
      supplierKey: so.supplierKey,
      contractModel: so.contractModel,
      status: so.status,
      reviewReason: so.reviewReason,
      reviewMessage: so.reviewMessage,
      retryable: so.retryable ?? false,
      supplierOrderNumber: so.supplierOrderNumber,
      supplierOrderId: so.supplierOrderId,
      supplierStatus: so.supplierStatus,
      costs: so.costs,
      payment: { status: so.paymentStatus },
      shipping: so.shipping,
      attempt: so.attempt,
      events,
      ...(showCustomer ? { destination: so.destination, destinationRedacted: false } : { destinationRedacted: true }),
      createdAt: so.createdAt.toISOString(),
      updatedAt: so.updatedAt.toISOString(),
    };
  }

  async views(rows: SupplierOrder[], showCustomer: boolean) {
    // Rows of a list page brought their events along; others read them in one query.
    const events = rows.every((r) => this.prefetched.has(r)) ? new Map(rows.map((r) => [r.id, this.prefetched.get(r)!])) : await this.events(rows.map((r) => r.id));
    return rows.map((r) => this.view(r, events.get(r.id)!, showCustomer));
  }

  /**
   * A page in one statement: the supplier orders, their events and the exact totalCount (from the counts
   * the database keeps; own-scope keys and orderId count their rows). The events ride along to `views`.
   */
  async list(storeId: string, ownKeyId: string | null, q: SupplierOrderQuery & { cursor?: string; pageSize: number }): Promise<Page<SupplierOrder>> {
    const { integrationId, ...rest } = q;
    const f = { ...rest, connectionId: integrationId };
    return keysetList<SupplierOrderRow, SupplierOrder>(this.db, this.cursors, f, sql.supplierOrderList(storeId, ownKeyId, f), (r) => {
      const so = supplierOrderOf(r);
      this.prefetched.set(so, r.events.map((e) => ({ ...e, at: new Date(e.at).toISOString() })));
      return so;
    });
  }
}

interface SupplierOrderRow {
  id: string;
  store_id: string;
  order_id: string;
  group_key: string;
  connection_id: string;
  supplier_key: string;
  order_number: string;
  contract_model: SupplierOrder['contractModel'];
  status: SupplierOrder['status'];
  review_reason: SupplierOrder['reviewReason'];
  review_message: string | null;
  retryable: boolean | null;
  supplier_order_number: string;
  number_known_absent: boolean;
  supplier_order_id: string | null;
  supplier_status: string | null;
  costs: SupplierOrder['costs'];
  payment_status: SupplierOrder['paymentStatus'];
  shipping: SupplierOrder['shipping'];
  attempt: number;
  pay_now: boolean;
  pay_requested: boolean;
  cancel_requested: boolean;
  payment_due: boolean;
  shopper_captured: boolean;
  step_due: boolean;
  store_takes_over: boolean;
  accepted_cost_minor: string | null;
  destination: SupplierOrder['destination'];
  retries_used: number;
  next_retry_at: Date | null;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date;
  updated_at: Date;
  events: SupplierOrderEvent[];
}

/** A row of the list statement as the entity's shape, without TypeORM's hydration. */
function supplierOrderOf(r: SupplierOrderRow): SupplierOrder {
  return {
    id: r.id,
    storeId: r.store_id,
    orderId: r.order_id,
    groupKey: r.group_key,
    connectionId: r.connection_id,
    supplierKey: r.supplier_key,
    orderNumber: r.order_number,
    contractModel: r.contract_model,
    status: r.status,
    reviewReason: r.review_reason,
    reviewMessage: r.review_message,
    retryable: r.retryable,
    supplierOrderNumber: r.supplier_order_number,
    numberKnownAbsent: r.number_known_absent,
    supplierOrderId: r.supplier_order_id,
    supplierStatus: r.supplier_status,
    costs: r.costs,
    paymentStatus: r.payment_status,
    shipping: r.shipping,
    attempt: r.attempt,
    payNow: r.pay_now,
    payRequested: r.pay_requested,
    cancelRequested: r.cancel_requested,
    paymentDue: r.payment_due,
    shopperCaptured: r.shopper_captured,
    stepDue: r.step_due,
    storeTakesOver: r.store_takes_over,
    acceptedCostMinor: r.accepted_cost_minor === null ? null : Number(r.accepted_cost_minor),
    destination: r.destination,
    retriesUsed: r.retries_used,
    nextRetryAt: r.next_retry_at,
    createdByAccountId: r.created_by_account_id,
    createdByKeyId: r.created_by_key_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
