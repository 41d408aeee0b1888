/**
 * The AliExpress-format server's orders: `aliexpress.ds.order.create` (one order per seller, `out_order_id` guarded
 * for 24 hours, paid at once when `try_to_pay` and the buyer can pay), `aliexpress.trade.ds.order.get` (readable only
 * some time after creation), tracking, and the status moves /control makes.
 */
import { decimal, FakeProduct, freightOptions } from './catalogue';
import type { Buyer } from './signin';
import { AeFail } from './verify';

export interface FakeOrderLine {
  productId: string;
  skuId: string;
  skuAttr: string;
  count: number;
  priceCents: number;
  service: string;
  feeCents: number;
}

export interface FakeOrder {
  id: string;
  userId: string;
  outOrderId: string;
  createdAt: number;
  orderStatus: string;
  logisticsStatus: string;
  endReason: string | null;
  currency: string;
  lines: FakeOrderLine[];
  paidAtCreate: boolean;
  tracking: { number: string; carrier: string; at: number } | null;
}

/** What a create was asked, whether or not it was taken. */
export interface CreateRecord {
  outOrderId: string;
  userId: string;
  tryToPay: boolean;
  items: Array<{ productId: string; skuAttr: string; service: string; count: number }>;
  address: Record<string, unknown>;
  accepted: boolean;
  errorCode: string | null;
}

/** 24 hours: after that a repeated out_order_id makes a new order, as the note says. */
export const GUARD_MS = 86_400_000;

export class FakeOrders {
  readonly byId = new Map<string, FakeOrder>();
  private readonly guard = new Map<string, { ids: string[]; at: number }>();
  // Above 2^53 on purpose: readers must take ids from the text, not from JSON numbers.
  private next = 9_100_000_000_000_001n;

  constructor(private readonly product: (id: string) => FakeProduct | undefined) {}

  /** The guard's 24 hours passed for every out_order_id (the control API's stand-in for a day going by). */
  forgetGuard(): void {
    this.guard.clear();
  }

  /** The place-order request, checked as AliExpress would; answers the new order ids (or throws the result's error code). */
  create(buyer: Buyer, place: Record<string, unknown>, tryToPay: boolean, currency: string, now: number, record: CreateRecord): string[] {
    const out = typeof place.out_order_id === 'string' ? place.out_order_id : '';
    const guardKey = `${buyer.userId}:${out}`;
    const held = out ? this.guard.get(guardKey) : undefined;
    if (held && now - held.at < GUARD_MS)
      throw Object.assign(new AeFail('REPEATED_ORDER_ERROR', 'The order is repeated: it was placed before with this out_order_id'), { ids: held.ids });
    if (buyer.blacklisted) throw new AeFail('BLACKLIST_BUYER_IN_LIST', 'The buyer is in the blacklist');
    if (buyer.disabled) throw new AeFail('USER_ACCOUNT_DISABLED', 'The user account is disabled');
    const address = place.logistics_address && typeof place.logistics_address === 'object' ? (place.logistics_address as Record<string, unknown>) : {};
    for (const f of ['address', 'city', 'country', 'zip', 'full_name'])
      if (!address[f]) throw new AeFail('B_DROPSHIPPER_DELIVERY_ADDRESS_VALIDATE_FAIL', `The delivery address has no ${f}`);
    if (address.country === 'BR' && !address.cpf) throw new AeFail('B_DROPSHIPPER_DELIVERY_ADDRESS_CPF_CN_INVALID', 'A CPF is required for Brazil');
    const items = Array.isArray(place.product_items) ? place.product_items : [];
    if (!items.length) throw new AeFail('ERROR_WHEN_BUILD_FOR_PLACE_ORDER', 'No product items');
    const bySeller = new Map<string, FakeOrderLine[]>();
    for (const raw of items) {
      const it = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
      const p = this.product(String(it.product_id ?? ''));
      if (!p || p.status !== 'onSelling') throw new AeFail('ERROR_WHEN_BUILD_FOR_PLACE_ORDER', `Product ${String(it.product_id)} cannot be ordered`);
      const sku = p.skus.find((s) => s.skuAttr === it.sku_attr);
      if (!sku) throw new AeFail('ERROR_WHEN_BUILD_FOR_PLACE_ORDER', 'The sku_attr matches no sku of the product');
      const count = Number(it.product_count);
      if (!Number.isInteger(count) || count < 1) throw new AeFail('ERROR_WHEN_BUILD_FOR_PLACE_ORDER', 'product_count must be a whole number');
      if (sku.stock < count) throw new AeFail('INVENTORY_HOLD_ERROR', 'Not enough stock to hold for this order');
      const option = freightOptions(p, count).find((o) => o.code === it.logistics_service_name);
      if (!option) throw new AeFail('DELIVERY_METHOD_NOT_EXIST', `The delivery method ${String(it.logistics_service_name)} does not exist for this item`);
      record.items.push({ productId: p.productId, skuAttr: sku.skuAttr, service: option.code, count });
      const lines = bySeller.get(p.sellerId) ?? [];
      lines.push({
        productId: p.productId,
        skuId: sku.skuId,
        skuAttr: sku.skuAttr,
        count,
        priceCents: sku.priceCents,
        service: option.code,
        feeCents: option.feeCents,
      });
      bySeller.set(p.sellerId, lines);
    }
    const paid = tryToPay && !buyer.paymentFails;
    const ids: string[] = [];
    for (const lines of bySeller.values()) {
      for (const l of lines) this.product(l.productId)!.skus.find((s) => s.skuId === l.skuId)!.stock -= l.count;
      const id = String(this.next++);
      this.byId.set(id, {
        id,
        userId: buyer.userId,
        outOrderId: out,
        createdAt: now,
        orderStatus: paid ? 'WAIT_SELLER_SEND_GOODS' : 'PLACE_ORDER_SUCCESS',
        logisticsStatus: paid ? 'WAIT_SELLER_SEND_GOODS' : 'DEFAULT',
        endReason: null,
        currency,
        lines,
        paidAtCreate: paid,
        tracking: null,
      });
      ids.push(id);
    }
    if (out) this.guard.set(guardKey, { ids, at: now });
    return ids;
  }

  /** An order of this buyer that AliExpress shows now (none before `readableAfterMs`). */
  shown(buyer: Buyer, id: string, now: number, readableAfterMs: number): FakeOrder {
    const o = this.byId.get(id);
    if (!o || o.userId !== buyer.userId || now - o.createdAt < readableAfterMs) throw new AeFail('ORDER_NOT_FOUND', 'The order does not exist');
    return o;
  }

  answer(o: FakeOrder): Record<string, unknown> {
    const money = (cents: number) => ({ amount: decimal(cents), currency_code: o.currency });
    const total = o.lines.reduce((s, l) => s + l.priceCents * l.count + l.feeCents, 0);
    return {
      gmt_create: new Date(o.createdAt).toISOString().replace('T', ' ').slice(0, 19),
      order_status: o.orderStatus,
      logistics_status: o.logisticsStatus,
      ...(o.endReason ? { end_reason: o.endReason } : {}),
      order_amount: money(total),
      child_order_list: {
        aeop_child_order_info: o.lines.map((l) => ({
          product_id: Number(l.productId),
          product_count: l.count,
          product_price: money(l.priceCents),
          sku_id: l.skuId,
        })),
      },
      logistics_info_list: { aeop_order_logistics_info: o.tracking ? [{ logistics_no: o.tracking.number, logistics_service: o.lines[0].service }] : [] },
    };
  }

  trackingAnswer(o: FakeOrder): Record<string, unknown> {
    const lines = o.tracking
      ? [
          {
            mail_no: o.tracking.number,
            carrier_name: o.tracking.carrier,
            detail_node_list: [{ time_stamp: o.tracking.at, tracking_name: 'Picked up', tracking_detail_desc: 'The parcel left the seller' }],
          },
        ]
      : [];
    return { ret: true, code: 200, data: { tracking_detail_line_list: lines } };
  }

  /** The merchant paid on the website. */
  pay(o: FakeOrder): void {
    if (o.orderStatus !== 'PLACE_ORDER_SUCCESS') throw new AeFail('ORDER_NOT_PAYABLE', `The order is ${o.orderStatus}`);
    o.orderStatus = 'WAIT_SELLER_SEND_GOODS';
    o.logisticsStatus = 'WAIT_SELLER_SEND_GOODS';
  }

  set(
    o: FakeOrder,
    to: { orderStatus?: string; logisticsStatus?: string; endReason?: string | null; trackingNumber?: string; carrier?: string },
    now: number,
  ): void {
    if (to.orderStatus) o.orderStatus = to.orderStatus;
    if (to.logisticsStatus) o.logisticsStatus = to.logisticsStatus;
    if (to.endReason !== undefined) o.endReason = to.endReason;
    if (to.trackingNumber) o.tracking = { number: to.trackingNumber, carrier: to.carrier ?? 'Cainiao', at: now };
  }
}
