/**
 * AliExpress orders in the contract's terms. One create can make several AliExpress orders (one per seller); the
 * supplier order is all of them: its id is their ids joined by commas, its status the slowest of those not cancelled
 * (cancelled only once all are), paid once all are paid, its costs their sum.
 */
import type { SupplierOrderSnapshot } from '../adapter';
import { asObj, Obj, optionalText, ShapeError, text } from '../http';
import { count, currencyOf, listOf, minor } from './readers';

type Status = SupplierOrderSnapshot['status'];

/** One AliExpress order as `aliexpress.trade.ds.order.get` answers it. */
export interface AeOrder {
  id: string;
  orderStatus: string;
  status: Status;
  paid: boolean;
  currency: string | null;
  totalMinor: number | null;
  itemsMinor: number | null;
  /** `logistics_info_list`: tracking numbers with the service that carries them. */
  logistics: Array<{ trackingNumber: string; carrier: string }>;
}

const PAID_WAITING = new Set(['PAYMENT_PROCESSING', 'WAIT_SELLER_EXAMINE_MONEY', 'RISK_CONTROL', 'RISK_CONTROL_HOLD']);
const RANK: Record<Status, number> = { created: 0, paid: 1, processing: 2, shipped: 3, delivered: 4, cancelled: 5 };

/** The note's mapping (docs/suppliers/aliexpress.md, Statuses); an order_status we do not know is a ShapeError. */
function statusOf(orderStatus: string, logisticsStatus: string, endReason: string | null): { status: Status; paid: boolean } {
  if (orderStatus === 'PLACE_ORDER_SUCCESS' || orderStatus === 'WAIT_GROUP' || orderStatus === 'WAIT_COMPLETE_ADDRESS')
    return { status: 'created', paid: false };
  if (PAID_WAITING.has(orderStatus)) return { status: 'created', paid: true };
  if (orderStatus === 'WAIT_SELLER_SEND_GOODS') return { status: 'paid', paid: true };
  if (orderStatus === 'SELLER_PART_SEND_GOODS') return { status: 'processing', paid: true };
  if (orderStatus === 'WAIT_BUYER_ACCEPT_GOODS') return { status: 'shipped', paid: true };
  if (orderStatus === 'FINISH')
    return endReason && logisticsStatus !== 'BUYER_ACCEPT_GOODS' ? { status: 'cancelled', paid: false } : { status: 'delivered', paid: true };
  // A cancel under way is not an end yet; read-back only moves forwards, so "created" changes nothing.
  if (orderStatus === 'IN_CANCEL') return endReason ? { status: 'cancelled', paid: false } : { status: 'created', paid: false };
  throw new ShapeError(`result.order_status ${orderStatus.slice(0, 40)} is not a known status`);
}

function amount(value: unknown, at: string, wanted: string): { minor: number; currency: string } | null {
  // A list of amounts (the user's currency first in some answers) or one amount object.
  const first = Array.isArray(value) ? value[0] : value;
  if (!first || typeof first !== 'object') return null;
  const o = first as Obj;
  const currency = currencyOf(o, wanted);
  return { minor: minor(o.amount, `${at}.amount`, currency), currency };
}

export function readOrder(id: string, result: unknown, wanted: string): AeOrder {
  const r = asObj(result, 'result');
  const orderStatus = text(r, 'order_status', 'result').toUpperCase();
  const { status, paid } = statusOf(orderStatus, (optionalText(r, 'logistics_status') ?? '').toUpperCase(), optionalText(r, 'end_reason'));
  const total = amount(r.order_amount, 'result.order_amount', wanted);
  let itemsMinor: number | null = 0;
  for (const [i, raw] of listOf(r.child_order_list, 'result.child_order_list').entries()) {
    const c = asObj(raw, `result.child_order_list[${i}]`);
    const price = amount(c.product_price, `result.child_order_list[${i}].product_price`, wanted);
    itemsMinor = price && itemsMinor !== null ? itemsMinor + price.minor * Math.max(1, count(c.product_count)) : null;
  }
  const logistics = listOf(r.logistics_info_list, 'result.logistics_info_list').flatMap((raw, i) => {
    const l = asObj(raw, `result.logistics_info_list[${i}]`);
    const trackingNumber = optionalText(l, 'logistics_no');
    return trackingNumber ? [{ trackingNumber, carrier: optionalText(l, 'logistics_service') ?? 'AliExpress' }] : [];
  });
  return { id, orderStatus, status, paid, currency: total?.currency ?? null, totalMinor: total?.minor ?? null, itemsMinor, logistics };
}

/** Tracking from `aliexpress.ds.order.tracking.get`, when it has any: carrier, number, and the first event's time. */
export function readTracking(result: unknown): { carrier: string; trackingNumber: string; shippedAt: string | null } | null {
  const r = asObj(result, 'result');
  const data = r.data && typeof r.data === 'object' ? (r.data as Obj) : {};
  const [line] = listOf(data.tracking_detail_line_list, 'result.data.tracking_detail_line_list');
  if (!line) return null;
  const l = asObj(line, 'result.data.tracking_detail_line_list[0]');
  const trackingNumber = optionalText(l, 'mail_no');
  if (!trackingNumber) return null;
  const times = listOf(l.detail_node_list, 'tracking.detail_node_list')
    .map((n) => (n && typeof n === 'object' ? Number((n as Obj).time_stamp) : NaN))
    .filter((t) => Number.isFinite(t) && t > 0);
  return {
    carrier: optionalText(l, 'carrier_name') ?? 'AliExpress',
    trackingNumber,
    shippedAt: times.length ? new Date(Math.min(...times)).toISOString() : null,
  };
}

export const joinIds = (ids: string[]) => ids.join(',');
export function splitIds(supplierOrderId: string): string[] | null {
  const ids = supplierOrderId.split(',');
  return ids.length <= 20 && ids.every((id) => /^\d{1,30}$/.test(id)) ? ids : null;
}

/** Several AliExpress orders of one create as one snapshot (see the top of this file). */
export function combine(
  orderNumber: string,
  orders: AeOrder[],
  tracking: Map<string, { carrier: string; trackingNumber: string; shippedAt: string | null }>,
): SupplierOrderSnapshot {
  const open = orders.filter((o) => o.status !== 'cancelled');
  const slowest = open.length ? open.reduce((a, b) => (RANK[b.status] < RANK[a.status] ? b : a)) : orders[0];
  const currencies = new Set(orders.map((o) => o.currency));
  const summable = currencies.size === 1 && orders.every((o) => o.totalMinor !== null && o.itemsMinor !== null);
  const total = summable ? orders.reduce((s, o) => s + (o.totalMinor ?? 0), 0) : 0;
  const items = summable ? orders.reduce((s, o) => s + (o.itemsMinor ?? 0), 0) : 0;
  const shipments = open.flatMap((o) => {
    const t = tracking.get(o.id);
    return t ? [t] : o.logistics.map((l) => ({ ...l, shippedAt: null }));
  });
  return {
    supplierOrderId: joinIds(orders.map((o) => o.id)),
    orderNumber,
    // AliExpress's own words, one per order, in the order of their ids.
    supplierStatus: orders.map((o) => o.orderStatus).join(','),
    status: slowest.status,
    paid: open.length > 0 && open.every((o) => o.paid),
    costs: summable ? { itemsMinor: items, shippingMinor: Math.max(0, total - items), totalMinor: total, currency: [...currencies][0] as string } : null,
    shipping: shipments.length
      ? {
          carrier: [...new Set(shipments.map((s) => s.carrier))].join(', '),
          trackingNumber: shipments.map((s) => s.trackingNumber).join(', '),
          shippedAt: shipments.find((s) => s.shippedAt)?.shippedAt ?? null,
        }
      : null,
  };
}

/** What a create answers before AliExpress lets it be read (about 10 s): created, not known to be paid. */
export function justCreated(orderNumber: string, ids: string[]): SupplierOrderSnapshot {
  return {
    supplierOrderId: joinIds(ids),
    orderNumber,
    supplierStatus: ids.map(() => 'PLACE_ORDER_SUCCESS').join(','),
    status: 'created',
    paid: false,
    costs: null,
    shipping: null,
  };
}
