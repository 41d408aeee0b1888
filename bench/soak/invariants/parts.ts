/**
 * Every confirmed part in a final or paused state: each supplier part of every order a shopper paid (or authorised,
 * for promise-to-sell) has its supplier order shipped, delivered, cancelled or paused for a person (`needsReview`),
 * and none is left `queued`, `failed`, `submitted`, `confirmed` or `processing` after the settle phase. A part left
 * so is reported with its job (pg-boss's own table, read-only) and the supplier's own record of its order.
 */
import { Gathered, numberStem, ordersAtSuppliers, ServiceSupplierOrder, storeOrder } from '../records';
import type { PlacedOrder } from '../shoppers';
import { Verdict, verdict } from './verdict';

export const SETTLED = new Set(['shipped', 'delivered', 'cancelled', 'needsReview']);

/** The dispatch job of a supplier order, as pg-boss holds it: its state, or `none`. */
async function jobOf(o: PlacedOrder, so: ServiceSupplierOrder): Promise<string> {
  try {
    const r = await o.store.deployment.reader.query<{ state: string; retry_count: number; start_after: Date }>(
      `SELECT state, retry_count, start_after FROM pgboss.job WHERE name = 'dispatch.supplier-order' AND data->>'supplierOrderId' = $1 ORDER BY created_on DESC LIMIT 1`,
      [so._id],
    );
    const j = r.rows[0];
    return j ? `${j.state} (retries ${j.retry_count}, due ${j.start_after.toISOString()})` : 'none';
  } catch (err) {
    return `unreadable (${err instanceof Error ? err.message : String(err)})`;
  }
}

export async function confirmedPartsSettled(g: Gathered, orders: PlacedOrder[]): Promise<Verdict> {
  const failures: string[] = [];
  const atSuppliers = ordersAtSuppliers(g);
  const bySo = new Map<string, ServiceSupplierOrder[]>();
  for (const so of g.supplierOrders.values())
    bySo.set(`${so.orderId}|${so.fulfilmentGroupKey}`, [...(bySo.get(`${so.orderId}|${so.fulfilmentGroupKey}`) ?? []), so]);
  let parts = 0;
  for (const o of orders) {
    if (!o.paymentId) continue;
    const order = await storeOrder(o.store, o.orderId);
    if (!order) {
      failures.push(`order ${o.orderId} of store ${o.store.index} could not be read back`);
      continue;
    }
    for (const part of order.fulfilmentGroups.filter((p) => p.groupKey.startsWith('supplier:'))) {
      parts++;
      const sos = bySo.get(`${o.orderId}|${part.groupKey}`) ?? [];
      const where = `order ${o.orderId} (store ${o.store.index}, ${o.contractModel}, ${order.status}, payment ${order.paymentStatus}), part ${part.groupKey} (${part.status})`;
      if (!sos.length) {
        const event = o.eventDelivered ? 'delivered' : 'not delivered';
        failures.push(
          `${where} has no supplier order; the provider's ${o.contractModel === 'promiseToSell' ? 'authorisation' : 'payment'} event was ${event} to the service`,
        );
        continue;
      }
      for (const so of sos.filter((x) => !SETTLED.has(x.status))) {
        const there = atSuppliers.filter((x) => numberStem(x.number) === numberStem(so.supplierOrderNumber));
        const supplierSays = there.length
          ? there.map((x) => `${x.supplier} order ${x.id} is ${x.status}${x.paid ? ', paid' : ', unpaid'}`).join('; ')
          : 'the supplier has no order with its number';
        failures.push(
          `${where}: supplier order ${so._id} is ${so.status} (payment ${so.payment.status}, attempt ${so.attempt}), its job: ${await jobOf(o, so)}; ${supplierSays}`,
        );
      }
    }
  }
  return verdict(
    'every confirmed part final or paused',
    `${parts} supplier parts of ${orders.filter((o) => o.paymentId).length} paid or authorised orders`,
    failures,
  );
}
