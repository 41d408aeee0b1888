/**
 * Reading AliExpress orders back: each order of a supplier order by its id (`aliexpress.trade.ds.order.get`), tracking
 * for those shipped, all as one snapshot (orders.ts); and the look-up by our number, through the ids the service kept.
 */
import type { SupplierCallContext, SupplierOrderSnapshot } from '../adapter';
import { SupplierError } from '../errors';
import type { AeClient } from './client';
import { refusalOf } from './codes';
import { setting } from './description';
import type { AeRefusal } from './http';
import { AeOrder, combine, justCreated, readOrder, readTracking, splitIds } from './orders';

/** What order.get answers for an order it does not show (yet: orders are readable about 10 s after they are made). */
const NOT_SHOWN = new Set(['ORDER_NOT_FOUND', 'ORDER_NOT_EXIST', 'isv.order-not-exist']);

/** An order AliExpress named in its create answer but does not show yet: passing, and not AliExpress's fault. */
class NotShownYet extends SupplierError {
  constructor(subject: Record<string, string>) {
    super('unavailable', 'AliExpress does not show this order yet (orders are readable about 10 s after they are made)', subject, true);
  }
}

async function one(ae: AeClient, ctx: SupplierCallContext, id: string): Promise<AeOrder> {
  const subject = { supplierOrderId: id };
  // Our ids come from AliExpress's own create answer: an order it does not show is one it does not show yet.
  const notYet = (r: AeRefusal) => (NOT_SHOWN.has(r.code) || NOT_SHOWN.has(r.subCode) ? new NotShownYet(subject) : refusalOf(r, 'order', subject));
  // Built by hand: the id is digits that may pass 2^53.
  const answer = await ae.call(ctx, 'aliexpress.trade.ds.order.get', { single_order_query: `{"order_id":${id}}` }, 'order', subject, notYet);
  return ae.read('aliexpress.trade.ds.order.get', () => readOrder(id, answer.result, setting(ctx, 'currency', 'USD')));
}

export async function readOrders(ae: AeClient, ctx: SupplierCallContext, supplierOrderId: string): Promise<SupplierOrderSnapshot> {
  const ids = splitIds(supplierOrderId);
  if (!ids) throw new SupplierError('notFound', 'Not an AliExpress order id', { supplierOrderId });
  const orders: AeOrder[] = [];
  for (const id of ids) orders.push(await one(ae, ctx, id));
  const tracking = new Map<string, NonNullable<ReturnType<typeof readTracking>>>();
  for (const o of orders.filter((x) => x.status === 'shipped' || x.status === 'delivered')) {
    try {
      const body = await ae.call(ctx, 'aliexpress.ds.order.tracking.get', { ae_order_id: o.id, language: setting(ctx, 'language', 'en').slice(0, 2) }, 'order');
      const t = ae.read('aliexpress.ds.order.tracking.get', () => readTracking(body.result));
      if (t) tracking.set(o.id, t);
    } catch (err) {
      // Tracking is a detail: the order's own logistics numbers stand in, and the next read-back asks again.
      if (!(err instanceof SupplierError)) throw err;
    }
  }
  return combine('', orders, tracking);
}

/**
 * AliExpress cannot look an order up by our number: the ids it answered are kept by the service (ctx.orderNumbers).
 * An order it does not show yet is still there: its own create answer named it.
 */
export async function findByNumber(ae: AeClient, ctx: SupplierCallContext, orderNumber: string): Promise<SupplierOrderSnapshot | null> {
  const known = await ctx.orderNumbers?.recall(orderNumber);
  const ids = known ? splitIds(known) : null;
  if (!known || !ids) return null;
  try {
    return { ...(await readOrders(ae, ctx, known)), orderNumber };
  } catch (err) {
    if (err instanceof NotShownYet) return justCreated(orderNumber, ids);
    throw err;
  }
}
