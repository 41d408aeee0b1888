import type { RequestContext, JsonSchema } from '../platform/http/route';
import type { OrderPayments } from './payments';
import type { OrderService } from './service';
import type { StoredPayment } from './sql/order-payments';
import type { StoreOrder } from './types';

/**
 * The supplier orders behind some store orders, as the supplier-order routes show them: the dispatch domain's reader,
 * injected (orders imports nothing of dispatch), with the schema of one supplier order for the document.
 */
export interface SupplierOrdersOfOrders {
  schema: JsonSchema;
  ofOrders(storeId: string, orderIds: string[], showCustomer: boolean): Promise<Array<{ orderId: string } & Record<string, unknown>>>;
  /** A store order's profit from its supplier orders (as `ofOrders` answers them) and the payment provider's fees; its schema. */
  profit: {
    schema: JsonSchema;
    ofOrder(
      supplierOrders: Array<Record<string, unknown>>,
      fees: Array<{ amountMinor: number; currency: string }>,
      refunded: { amountMinor: number; currency: string },
    ): unknown;
  };
}

const paymentView = (p: StoredPayment) => ({
  reference: p.reference,
  amountMinor: p.amountMinor,
  currency: p.currency,
  status: p.status,
  refundedMinor: p.refundedMinor,
  version: p.version,
  disputed: p.disputed,
  updatedAt: p.updatedAt.toISOString(),
});

/** A store order as its routes answer it, items and history included when `full`. */
export function orderViews(orders: OrderService, payments: OrderPayments, supplierOrders: SupplierOrdersOfOrders) {
  /** Order details; supplier orders only for callers who also hold suppliers.view, the address only with customers.view. */
  return async function details(ctx: Pick<RequestContext<unknown, unknown, unknown>, 'store'>, list: StoreOrder[], full: boolean) {
    const ids = list.map((o) => o.id);
    // A route's orders are all of its store: every read below is of that one store.
    const storeId = list[0]?.storeId ?? '';
    if (list.some((o) => o.storeId !== storeId)) throw new Error('orders of several stores in one answer');
    const allParts = await orders.parts(storeId, ids);
    const canSeeSuppliers = !!ctx.store?.permissions.has('suppliers.view');
    const showCustomer = !!ctx.store?.permissions.has('customers.view');
    const soViews = canSeeSuppliers && full && ids.length ? await supplierOrders.ofOrders(storeId, ids, showCustomer) : [];
    const history = full ? await payments.history(storeId, ids) : new Map();
    const records = full ? await payments.paymentsOf(storeId, ids) : new Map();
    const out = [];
    for (const o of list) {
      const items = full ? await orders.items(storeId, o.id) : [];
      const parts = allParts.filter((g) => g.orderId === o.id);
      out.push({
        id: o.id,
        storeId: o.storeId,
        number: o.number,
        status: o.status,
        paymentMethod: o.paymentMethod,
        paymentStatus: o.paymentStatus,
        markedPaidAt: o.markedPaidAt ? o.markedPaidAt.toISOString() : null,
        contractModel: o.contractModel,
        currency: o.currency,
        totalMinor: o.totalMinor,
        needsAttention: o.needsAttention,
        paymentAttention: o.paymentAttention ? { reason: o.paymentAttention.reason, since: o.paymentAttention.since.toISOString() } : null,
        ...(full
          ? { payments: history.get(o.id) ?? [], amountRefundedMinor: o.refundedMinor, providerPayments: (records.get(o.id) ?? []).map(paymentView) }
          : {}),
        ...(showCustomer ? { destination: o.destination, destinationRedacted: false } : { destinationRedacted: true }),
        ...(full
          ? {
              items: items.map((i) => ({
                id: i.id,
                productId: i.productId,
                variantId: i.variantId,
                sku: i.sku,
                title: i.title,
                productTitle: i.productTitle,
                quantity: i.quantity,
                unitPriceMinor: i.unitPriceMinor,
                groupKey: i.partKey, // the wire's name for the part key
              })),
            }
          : {}),
        fulfilmentGroups: parts.map((g) => ({
          groupKey: g.partKey, // the wire's name for the part key
          connectionId: g.connectionId,
          status: g.status,
          fulfilledByStore: g.fulfilledByStore,
          items: full ? items.filter((i) => i.partKey === g.partKey).map((i) => i.id) : [],
          shipment: g.shipment,
        })),
        fulfilmentSummary: {
          parts: parts.length,
          shipped: parts.filter((g) => g.status === 'shipped' || g.status === 'delivered').length,
          delivered: parts.filter((g) => g.status === 'delivered').length,
          needingAttention: parts.filter((g) => g.needsAttention).length,
        },
        ...(canSeeSuppliers && full ? { supplierOrders: soViews.filter((s) => s.orderId === o.id) } : {}),
        // Profit reads supplier costs: for the same callers, in order details.
        ...(canSeeSuppliers && full
          ? {
              profit: supplierOrders.profit.ofOrder(
                soViews.filter((s) => s.orderId === o.id),
                ((history.get(o.id) ?? []) as Array<{ fee?: { amountMinor: number; currency: string } }>).flatMap((e) => (e.fee ? [e.fee] : [])),
                { amountMinor: o.refundedMinor, currency: o.currency },
              ),
            }
          : {}),
        confirmedAt: o.confirmedAt ? o.confirmedAt.toISOString() : null,
        createdAt: o.createdAt.toISOString(),
        updatedAt: o.updatedAt.toISOString(),
      });
    }
    return out;
  };
}
