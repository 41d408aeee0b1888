/**
 * What the fake CJ knows after shipping: a clock a test moves (times are answered as long ago as they are on it), each
 * shipped parcel's carrier scans on it (`logistic/trackInfo`, and LOGISTIC notifications), and disputes (CJ API 2.0,
 * "7 Dispute"): products open to one, the confirm info (reasons, most refunded, expected results), create under the
 * merchant's businessDisputeId (answered without the dispute's id, as observed), cancel, the list; decided by a test.
 */
import { randomUUID } from 'node:crypto';
import { minorToUsd } from '../../../server/suppliers/cj/money';
import { CjFail, chinaDate, type FakeOrder } from './state';

const HOUR = 3_600_000;
const PLAN = [
  { hours: 0, status: 1, activity: 'Departed the warehouse', location: 'Shenzhen' },
  { hours: 24, status: 3, activity: 'In transit to the destination country', location: 'Hong Kong' },
  { hours: 72, status: 6, activity: 'Arrived at the destination country', location: 'Destination' },
  { hours: 100, status: 12, activity: 'Delivered', location: 'Destination' },
] as const;
const REASONS = [
  { disputeReasonId: 101, reasonName: 'Order not received' },
  { disputeReasonId: 102, reasonName: 'Product damaged' },
  { disputeReasonId: 103, reasonName: 'Wrong product received' },
  { disputeReasonId: 104, reasonName: 'Missing products' },
  { disputeReasonId: 105, reasonName: 'Quality problem' },
];
export type ParcelException = 'customsHold' | 'returnedToSender' | 'failedDelivery';

interface Scan {
  at: number;
  status: number;
  activity: string;
  location: string;
}
interface Parcel {
  startedAt: number;
  scans: Scan[];
  next: number;
  stalledAt: number | null;
}
export interface FakeDispute {
  id: string;
  businessDisputeId: string;
  orderId: string;
  openId: string;
  disputeReasonId: number;
  expectType: number;
  messageText: string;
  productList: Array<{ lineItemId: string; quantity: number; price: number }>;
  status: 'PROCESSING' | 'FINISHED' | 'CANCELLED';
  finallyDeal: number | null;
  money: number | null;
  resendOrderCode: string | null;
  createdAt: number;
}

export class FakeCjAfterShipping {
  offsetMs = 0;
  private readonly parcels = new Map<string, Parcel>();
  readonly disputes: FakeDispute[] = [];
  /** Creates asked for, by businessDisputeId: the service sends each once. */
  readonly createsByKey: Record<string, number> = {};
  /** Reissue orders made for disputes, by dispute id. */
  readonly resends: Record<string, string> = {};

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** A time on the clock as CJ answers it: China time, as long ago as it is on the clock. */
  report(ms: number): string | null {
    return chinaDate(ms - this.offsetMs);
  }

  shipped(order: FakeOrder): Scan {
    const p: Parcel = { startedAt: this.now(), scans: [], next: 0, stalledAt: null };
    this.parcels.set(order.cjOrderId, p);
    return this.step(p);
  }

  /** Moves the clock; answers each parcel's new scans (the caller notifies, and delivers those scanned delivered). */
  advance(hours: number): Array<{ cjOrderId: string; scan: Scan }> {
    this.offsetMs += hours * HOUR;
    const out: Array<{ cjOrderId: string; scan: Scan }> = [];
    for (const [id, p] of this.parcels) {
      while (p.stalledAt === null && p.next < PLAN.length && p.startedAt + PLAN[p.next].hours * HOUR <= this.now())
        out.push({ cjOrderId: id, scan: this.step(p) });
    }
    return out;
  }

  stall(cjOrderId: string, stalled: boolean): boolean {
    const p = this.parcels.get(cjOrderId);
    if (!p) return false;
    if (stalled) p.stalledAt ??= this.now();
    else if (p.stalledAt !== null) {
      p.startedAt += this.now() - p.stalledAt;
      p.stalledAt = null;
    }
    return true;
  }

  exception(cjOrderId: string, kind: ParcelException): Scan | null {
    const p = this.parcels.get(cjOrderId);
    if (!p) return null;
    const scan = {
      at: this.now(),
      status: kind === 'returnedToSender' ? 14 : 13,
      activity: kind === 'customsHold' ? 'Exception: held by customs' : kind === 'failedDelivery' ? 'Exception: delivery failed' : 'Returned to sender',
      location: 'Destination',
    };
    p.scans.push(scan);
    p.stalledAt ??= this.now();
    return scan;
  }

  /** `logistic/trackInfo` for one tracking number (the documented fields): the latest scan's time and words. */
  trackInfo(order: FakeOrder): Record<string, unknown> {
    const p = this.parcels.get(order.cjOrderId);
    const last = p?.scans[p.scans.length - 1];
    return {
      trackingNumber: order.trackNumber,
      trackingFrom: order.fromCountryCode,
      trackingTo: order.shipping.shippingCountryCode,
      deliveryDay: p ? Math.floor((this.now() - p.startedAt) / (24 * HOUR)) : 0,
      deliveryTime: last ? this.report(last.at) : null,
      trackingStatus: last?.activity ?? 'Not found',
      lastMileCarrier: order.logisticName,
      lastTrackNumber: order.trackNumber,
    };
  }

  /** LOGISTIC's events (a JSON string, as CJ sends it). */
  events(cjOrderId: string): string {
    const p = this.parcels.get(cjOrderId);
    return JSON.stringify(
      (p?.scans ?? []).map((s) => ({ status: s.status, activity: s.activity, location: s.location, eventTime: this.report(s.at), statusDesc: s.activity })),
    );
  }

  // ---------------------------------------------------------------- disputes

  products(order: FakeOrder): Record<string, unknown> {
    const live = this.disputes.filter((d) => d.orderId === order.cjOrderId && d.status !== 'CANCELLED' && !(d.status === 'FINISHED' && d.finallyDeal === 3));
    return {
      orderId: order.cjOrderId,
      orderNumber: order.orderNumber,
      productInfoList: order.products.map((l) => {
        const claimed = live
          .flatMap((d) => d.productList)
          .filter((x) => x.lineItemId === l.lineItemId)
          .reduce((n, x) => n + x.quantity, 0);
        const open = live.some((d) => d.status === 'PROCESSING' && d.productList.some((x) => x.lineItemId === l.lineItemId));
        return {
          lineItemId: l.lineItemId,
          cjProductId: `P-${l.vid}`,
          cjVariantId: l.vid,
          canChoose: !open && claimed < l.quantity,
          price: Number(minorToUsd(l.unitCents)),
          quantity: l.quantity - claimed,
          cjProductName: l.vid,
          cjImage: null,
          sku: l.vid,
          supplierName: 'CJ',
        };
      }),
    };
  }

  confirmInfo(order: FakeOrder, lines: unknown): Record<string, unknown> {
    if (!Array.isArray(lines) || !lines.length) throw new CjFail(1600100, 'Param error');
    const cents = lines.reduce(
      (n: number, l: { lineItemId?: string; quantity?: number }) =>
        n + (order.products.find((p) => p.lineItemId === l.lineItemId)?.unitCents ?? 0) * Number(l.quantity ?? 0),
      0,
    );
    return {
      maxProductPrice: Number(minorToUsd(cents)),
      maxPostage: Number(minorToUsd(order.postageCents)),
      maxAmount: Number(minorToUsd(cents + order.postageCents)),
      expectResultOptionList: ['1', '2'],
      disputeReasonList: REASONS,
    };
  }

  create(order: FakeOrder, body: Record<string, unknown>): void {
    const key = typeof body.businessDisputeId === 'string' ? body.businessDisputeId : '';
    if (!key) throw new CjFail(1600100, 'Param error: businessDisputeId');
    this.createsByKey[key] = (this.createsByKey[key] ?? 0) + 1;
    if (this.disputes.some((d) => d.businessDisputeId === key)) throw new CjFail(1600100, 'Param error: the dispute exists');
    const lines = Array.isArray(body.productInfoList) ? (body.productInfoList as FakeDispute['productList']) : [];
    const open = this.products(order).productInfoList as Array<{ lineItemId: string; canChoose: boolean; quantity: number }>;
    for (const l of lines) {
      const o = open.find((x) => x.lineItemId === l.lineItemId);
      if (!o || !o.canChoose || o.quantity < l.quantity) throw new CjFail(1600100, `Param error: line ${l.lineItemId} cannot be disputed`);
    }
    const expectType = Number(body.expectType);
    if (expectType !== 1 && expectType !== 2) throw new CjFail(1600100, 'Param error: expectType');
    this.disputes.push({
      id: String(1_700_000 + this.disputes.length + 1),
      businessDisputeId: key,
      orderId: order.cjOrderId,
      openId: order.openId,
      disputeReasonId: Number(body.disputeReasonId),
      expectType,
      messageText: String(body.messageText ?? '').slice(0, 500),
      productList: lines,
      status: 'PROCESSING',
      finallyDeal: null,
      money: null,
      resendOrderCode: null,
      createdAt: Date.now(),
    });
  }

  list(order: FakeOrder, disputeId?: string): Record<string, unknown> {
    const rows = this.disputes.filter((d) => d.orderId === order.cjOrderId && (!disputeId || d.id === disputeId));
    return {
      pageNum: 1,
      pageSize: 20,
      total: rows.length,
      list: rows.map((d) => ({
        id: d.id,
        businessDisputeId: d.businessDisputeId,
        status: d.status,
        disputeReason: REASONS.find((r) => r.disputeReasonId === d.disputeReasonId)?.reasonName ?? '',
        replacementAmount: null,
        resendOrderCode: d.resendOrderCode,
        money: d.money,
        finallyDeal: d.finallyDeal,
        createDate: chinaDate(d.createdAt),
        productList: d.productList,
      })),
    };
  }

  cancel(order: FakeOrder, disputeId: unknown): void {
    const d = this.disputes.find((x) => x.orderId === order.cjOrderId && x.id === String(disputeId));
    if (!d) throw new CjFail(1600100, 'Param error: no such dispute');
    if (d.status !== 'PROCESSING') throw new CjFail(1600100, 'Param error: the dispute is finished');
    d.status = 'CANCELLED';
  }

  /** A test decides: 1 refund (money in USD), 2 reissue (CJ makes the resend order: `resend`), 3 rejected. */
  decide(id: string, finallyDeal: number, money: number | null, resend: (d: FakeDispute) => string): FakeDispute {
    const d = this.disputes.find((x) => x.id === id);
    if (!d) throw new CjFail(1600300, `No dispute ${id}`, 404);
    if (d.status !== 'PROCESSING') throw new CjFail(1600300, `Dispute ${id} is ${d.status}`, 409);
    d.status = 'FINISHED';
    d.finallyDeal = finallyDeal;
    d.money = finallyDeal === 1 ? money : null;
    if (finallyDeal === 2) d.resendOrderCode = this.resends[d.id] = resend(d);
    return d;
  }

  private step(p: Parcel): Scan {
    const plan = PLAN[p.next++];
    const scan = { at: p.startedAt + plan.hours * HOUR, status: plan.status, activity: plan.activity, location: plan.location };
    p.scans.push(scan);
    return scan;
  }
}

export const newMessageId = () => randomUUID().replace(/-/g, '');
