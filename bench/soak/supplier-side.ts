/**
 * What happens at the suppliers by themselves, through their control APIs: CJ and AliExpress ship what was paid (the
 * sandbox ships on its own after 15 s, Printful on its clock), and stock moves (the sandbox and CJ notify every connected store of it, so
 * link syncs follow). Keeping stock up also keeps orders from pausing as `variantUnavailable` for want of it.
 * Also the records the invariants are checked against: what each supplier holds, in its own words.
 */
import { control } from './api';
import type { Product } from './catalogues';
import type { Suppliers } from './programs';

export interface SandboxRecords {
  orders: Array<{ id: string; accountId: string; orderNumber: string; status: string; paid: boolean }>;
  payments: Array<{ orderId: string; orderNumber: string; amountMinor: number; accountId: string }>;
  refunds: Array<{ orderId: string }>;
}
export interface CjRecords {
  orders: Array<{ orderId: string; cjOrderId: string; orderNumber: string; openId: string; status: string }>;
  payments: Array<{ orderId: string; orderNumber: string; openId: string; amountCents: number; source: string }>;
}
export interface AeOrder {
  id: string;
  userId: string;
  outOrderId: string;
  orderStatus: string;
  endReason: string | null;
  paidAtCreate: boolean;
  createdAt: number;
}

export interface PfOrder {
  id: number;
  storeId: number;
  external_id: string;
  status: string;
  confirms: number;
  confirmCalls: number;
  cancels: number;
  createCalls: number;
}

export const sandboxRecords = (s: Suppliers) => control<SandboxRecords>(s.sandbox.control, 'GET', '/received');
export const cjRecords = (s: Suppliers) => control<CjRecords>(s.cj.control, 'GET', '/received');
export const aeOrders = (s: Suppliers) => control<AeOrder[]>(s.aliexpress.control, 'GET', '/orders');
/** Read through the control API, which also moves confirmed orders on the fake's clock (shipping them, with webhooks). */
export const pfOrders = (s: Suppliers) => control<PfOrder[]>(s.printful.control, 'GET', '/orders');

export class SupplierSide {
  shipped = 0;
  stockMoves = 0;
  private readonly pfShipped = new Set<number>();

  constructor(
    private readonly s: Suppliers,
    private readonly random: () => number,
  ) {}

  /** Ships at CJ and AliExpress what was paid a few seconds ago or more. */
  async ship(): Promise<void> {
    for (const o of (await cjRecords(this.s)).orders.filter((x) => x.status === 'UNSHIPPED')) {
      await control(this.s.cj.control, 'POST', `/orders/${o.orderId}/ship`, {}).catch(() => undefined);
      this.shipped++;
    }
    const now = Date.now();
    for (const o of (await aeOrders(this.s)).filter((x) => x.orderStatus === 'WAIT_SELLER_SEND_GOODS' && now - x.createdAt > 12000)) {
      const tracking = `LP${String(Math.floor(this.random() * 1e12)).padStart(12, '0')}`;
      await control(this.s.aliexpress.control, 'POST', `/orders/${o.id}`, {
        orderStatus: 'WAIT_BUYER_ACCEPT_GOODS',
        logisticsStatus: 'SELLER_SEND_GOODS',
        trackingNumber: tracking,
      }).catch(() => undefined);
      this.shipped++;
    }
    // Printful ships confirmed orders on its own clock, once they are looked at (the read moves them).
    for (const o of (await pfOrders(this.s)).filter((x) => x.status === 'fulfilled' && !this.pfShipped.has(x.id))) {
      this.pfShipped.add(o.id);
      this.shipped++;
    }
  }

  /** Stock of a few products the stores sell goes back up at their supplier (with the notifications that go with it). */
  async moveStock(inUse: Product[]): Promise<void> {
    const stock = 400 + Math.floor(this.random() * 200);
    for (const p of inUse.filter(() => this.random() < 0.1).slice(0, 8)) {
      if (p.supplier === 'sandbox') await control(this.s.sandbox.control, 'POST', `/variants/${p.supplierVariantId}`, { stock }).catch(() => undefined);
      else if (p.supplier === 'cj') await control(this.s.cj.control, 'POST', `/variants/${p.supplierVariantId}`, { stock }).catch(() => undefined);
      // Printful prints on demand: no stock to move.
      else if (p.supplier === 'printful') continue;
      else
        await control(this.s.aliexpress.control, 'POST', `/products/${p.supplierProductId}`, {
          skus: [{ skuId: p.supplierVariantId.split(':')[1], stock }],
        }).catch(() => undefined);
      this.stockMoves++;
    }
  }
}
