import { isoTime } from '../../platform/pagination';
import type { SupplierOrder } from '../supplier-order';

// The dispatch domain's data module (this folder): every statement on its tables (supplier orders, their history).
// This file: a supplier order's row, its columns as the statements name them, and its mapping to the domain's type.

export interface SupplierOrderRow {
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
  capture_requested: boolean;
  store_takes_over: boolean;
  accepted_cost_minor: string | null;
  reroute_request: SupplierOrder['rerouteRequest'];
  reroute_tried: SupplierOrder['rerouteTried'];
  routing?: SupplierOrder['routing'];
  earlier?: SupplierOrder['earlier'] | null;
  rerouted_to: string | null;
  returns: SupplierOrder['returns'] | null;
  delivery?: SupplierOrder['delivery'];
  delivery_due_at?: Date | string | null;
  reship_of?: SupplierOrder['reshipOf'];
  destination: SupplierOrder['destination'];
  retries_used: number;
  next_retry_at: Date | null;
  created_by_account_id: string;
  created_by_key_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * `returns` came with a later migration (SupplierOrderReturns): read through the row's JSON, so a release answering
 * before its migrations ran (docs/scaling.md) reads none rather than failing. No comma in it: lists split on commas.
 */
const returnsOf = (row: string) => `to_jsonb(${row}) -> 'returns' AS returns`;
/** `routing` too (SupplierOrderRouting), and `earlier` (SupplierOrderEarlier), the same way. */
const routingOf = (row: string) => `to_jsonb(${row}) -> 'routing' AS routing`;
const earlierOf = (row: string) => `to_jsonb(${row}) -> 'earlier' AS earlier`;
/** The delivery watch's and a reship's columns (DeliveryWatch), the same way. */
const deliveryOf = (row: string) => `to_jsonb(${row}) -> 'delivery' AS delivery`;
const dueOf = (row: string) => `(to_jsonb(${row}) ->> 'delivery_due_at')::timestamptz AS delivery_due_at`;
const reshipOf = (row: string) => `to_jsonb(${row}) -> 'reship_of' AS reship_of`;
const NAMES = `id, store_id, order_id, group_key, connection_id, supplier_key, order_number, contract_model, status, review_reason, review_message,
  retryable, supplier_order_number, number_known_absent, supplier_order_id, supplier_status, costs, payment_status, shipping, attempt, pay_now, pay_requested,
  cancel_requested, payment_due, capture_requested, store_takes_over, accepted_cost_minor, reroute_request, reroute_tried, rerouted_to, returns, routing, earlier, delivery, delivery_due_at, reship_of, destination, retries_used, next_retry_at, created_by_account_id,
  created_by_key_id, created_at, updated_at`;
/** A supplier order's columns, named (the hot statements are prepared: their result may not change with the table). */
export const COLUMNS_READ = NAMES.replace(/\breturns\b/, returnsOf('supplier_orders'))
  .replace(/\brouting\b/, routingOf('supplier_orders'))
  .replace(/\bearlier\b/, earlierOf('supplier_orders'))
  .replace(/\bdelivery\b/, deliveryOf('supplier_orders'))
  .replace(/\bdelivery_due_at\b/, dueOf('supplier_orders'))
  .replace(/\breship_of\b/, reshipOf('supplier_orders'));
/** The same, by name alone: what a statement's own `so` gives. */
export const COLUMN_NAMES = NAMES.replace(/\s+/g, ' ');
const READ_AS: Record<string, (row: string) => string> = {
  returns: returnsOf,
  routing: routingOf,
  earlier: earlierOf,
  delivery: deliveryOf,
  delivery_due_at: dueOf,
  reship_of: reshipOf,
};
export const OF_S = NAMES.split(',')
  .map((c) => READ_AS[c.trim()]?.('s') ?? `s.${c.trim()}`)
  .join(', ');
export const LISTED_OF_S = `${'id store_id order_id order_number group_key connection_id supplier_key contract_model status review_reason review_message retryable supplier_order_number supplier_order_id supplier_status costs payment_status shipping attempt destination'
  .split(' ')
  .map((c) => `s.${c} AS "${c === 'group_key' ? 'partKey' : c.replace(/_(\w)/g, (_, x: string) => x.toUpperCase())}"`) // group_key: the code's partKey
  .join(
    ', ',
  )}, to_jsonb(s) -> 'delivery' AS "delivery", to_jsonb(s) -> 'reship_of' AS "reshipOf", ${isoTime('s.created_at')} AS "createdAt", ${isoTime('s.updated_at')} AS "updatedAt"`;

/** A supplier order's history as JSON, oldest first, each `at` in ISO 8601 as answered (for `s`, a supplier order row). */
export const EVENTS_OF_S = `(SELECT coalesce(json_agg(json_build_object('at', ${isoTime('e.at')}, 'actor', json_build_object('kind', e.actor_kind, 'id', e.actor_id), 'type', e.type,
                              'from', e.from_status, 'to', e.to_status, 'details', e.details) ORDER BY e.id), '[]')
                      FROM supplier_order_events e WHERE e.store_id = s.store_id AND e.supplier_order_id = s.id)`;

export function supplierOrderOf(r: SupplierOrderRow): SupplierOrder {
  return {
    id: r.id,
    storeId: r.store_id,
    orderId: r.order_id,
    partKey: r.group_key, // the column's name for the part key
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
    captureRequested: r.capture_requested,
    storeTakesOver: r.store_takes_over,
    acceptedCostMinor: r.accepted_cost_minor === null ? null : Number(r.accepted_cost_minor),
    rerouteRequest: r.reroute_request,
    rerouteTried: r.reroute_tried ?? [],
    reroutedTo: r.rerouted_to,
    returns: r.returns ?? [],
    routing: r.routing ?? null,
    earlier: r.earlier ?? [],
    delivery: r.delivery ?? null,
    deliveryDueAt: r.delivery_due_at ? new Date(r.delivery_due_at) : null,
    reshipOf: r.reship_of ?? null,
    destination: r.destination,
    retriesUsed: r.retries_used,
    nextRetryAt: r.next_retry_at,
    createdByAccountId: r.created_by_account_id,
    createdByKeyId: r.created_by_key_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
