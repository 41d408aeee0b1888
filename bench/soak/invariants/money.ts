/**
 * Nothing ordered twice, nothing paid twice, no shopper charged twice: read from the suppliers' and the payment
 * provider's own records. The service's records are used only to say which store order and part a supplier's order
 * was made for (its number) and what the service thinks of it, for the failure message.
 */
import { call } from '../api';
import type { Suppliers } from '../programs';
import { AtSupplier, Gathered, numberStem, ordersAtSuppliers } from '../records';
import type { PlacedOrder } from '../shoppers';
import { repeated, Verdict, verdict } from './verdict';

const describe = (o: AtSupplier) => `${o.supplier} order ${o.id} (account ${o.account}, number ${o.number}, ${o.status}${o.paid ? ', paid' : ''})`;

function serviceSays(g: Gathered, number: string): string {
  const so = g.byNumberStem.get(numberStem(number));
  return so
    ? `the service's supplier order ${so._id} (store ${so.store.index}, order ${so.orderId}, part ${so.fulfilmentGroupKey}) is ${so.status}, attempt ${so.attempt}, supplier order id ${so.supplierOrderId ?? 'none'}`
    : 'the service has no supplier order with that number';
}

/** 0 duplicate supplier orders: per supplier order number (at one supplier account), and per order part (live ones, across suppliers). */
export function noDuplicateSupplierOrders(g: Gathered): Verdict[] {
  const all = ordersAtSuppliers(g);
  const byNumber: string[] = [];
  for (const [key, orders] of repeated(all, (o) => `${o.supplier}|${o.account}|${o.number}`)) {
    byNumber.push(
      `${key.split('|')[0]} holds ${orders.length} orders numbered ${orders[0].number}: ${orders.map(describe).join('; ')}; ${serviceSays(g, orders[0].number)}`,
    );
  }
  const perPart: string[] = [];
  const partOf = (o: AtSupplier) => {
    const so = g.byNumberStem.get(numberStem(o.number));
    return so ? `${so.orderId}|${so.fulfilmentGroupKey}` : null;
  };
  for (const o of all) if (!partOf(o)) perPart.push(`${describe(o)} answers to no supplier order the service has: an order made and then forgotten`);
  for (const [key, orders] of repeated(
    all.filter((o) => o.live && partOf(o)),
    (o) => partOf(o)!,
  )) {
    const [orderId, partKey] = key.split('|');
    perPart.push(
      `order ${orderId}, part ${partKey} has ${orders.length} live orders at its suppliers: ${orders.map(describe).join('; ')}; ${serviceSays(g, orders[0].number)}`,
    );
  }
  return [
    verdict(
      'no duplicate supplier order per number',
      `${all.length} orders at the suppliers (sandbox ${g.sandbox.orders.length}, CJ ${g.cj.orders.length}, AliExpress ${g.aliexpress.length}, Printful ${g.printful.length})`,
      byNumber,
    ),
    verdict(
      'no duplicate supplier order per order part',
      `${all.length} orders at the suppliers against ${g.supplierOrders.size} supplier orders of the service`,
      perPart,
    ),
  ];
}

/** 0 double payments at any supplier: per supplier order (its payments, less refunds), and per order part. */
export function noDoublePayment(g: Gathered): Verdict {
  const failures: string[] = [];
  const refunds = new Map<string, number>();
  for (const r of g.sandbox.refunds) refunds.set(r.orderId, (refunds.get(r.orderId) ?? 0) + 1);
  for (const [orderId, pays] of repeated(g.sandbox.payments, (p) => p.orderId)) {
    if (pays.length - (refunds.get(orderId) ?? 0) > 1)
      failures.push(
        `the sandbox took ${pays.length} payments (${pays.map((p) => p.amountMinor).join(', ')}) for its order ${orderId} (number ${pays[0].orderNumber}), refunded ${refunds.get(orderId) ?? 0}; ${serviceSays(g, pays[0].orderNumber)}`,
      );
  }
  for (const [orderId, pays] of repeated(g.cj.payments, (p) => p.orderId)) {
    failures.push(
      `CJ took ${pays.length} payments (${pays.map((p) => `${p.amountCents} by ${p.source}`).join(', ')}) for its order ${orderId} (number ${pays[0].orderNumber}); ${serviceSays(g, pays[0].orderNumber)}`,
    );
  }
  // Printful: a draft confirmed (charged) twice, or a confirm asked for twice (the second is refused, but was sent).
  for (const o of g.printful.filter((x) => x.confirms > 1 || x.confirmCalls > 1)) {
    failures.push(
      `Printful was asked to confirm its order ${o.id} (number ${o.external_id}) ${o.confirmCalls} times and confirmed it ${o.confirms} times; ${serviceSays(g, o.external_id)}`,
    );
  }
  const paid = ordersAtSuppliers(g).filter((o) => o.paid && g.byNumberStem.has(numberStem(o.number)));
  for (const [, orders] of repeated(paid, (o) => {
    const so = g.byNumberStem.get(numberStem(o.number))!;
    return `${so.orderId}|${so.fulfilmentGroupKey}`;
  })) {
    failures.push(`one order part was paid ${orders.length} times at its suppliers: ${orders.map(describe).join('; ')}; ${serviceSays(g, orders[0].number)}`);
  }
  return verdict(
    'no double payment at any supplier',
    `${g.sandbox.payments.length} sandbox and ${g.cj.payments.length} CJ payments, ${g.aliexpress.filter((o) => o.paidAtCreate).length} AliExpress orders paid at creation, ${g.printful.filter((o) => o.confirms > 0).length} Printful orders confirmed`,
    failures,
  );
}

interface ProviderPayment {
  id: string;
  status: string;
  captures: Array<{ at: string; idempotencyKey: string | null; amountMinor: number }>;
  captureRequests: Array<{ at: string; idempotencyKey: string | null; status: number; replayed: boolean }>;
}

/** No shopper captured twice: the provider's own captures per payment, and per store order. */
export async function noShopperCapturedTwice(s: Suppliers, orders: PlacedOrder[]): Promise<Verdict> {
  const failures: string[] = [];
  let captures = 0;
  let requests = 0;
  for (const o of orders) {
    const a = await call<{ items: ProviderPayment[] }>(s.payments.control, 'GET', `/payments?orderId=${o.orderId}`);
    if (a.status !== 200) {
      failures.push(`the provider's records of order ${o.orderId} could not be read: ${a.status} ${a.text.slice(0, 200)}`);
      continue;
    }
    const taken = a.body.items.flatMap((p) => p.captures.map((c) => ({ ...c, payment: p })));
    captures += taken.length;
    requests += a.body.items.reduce((n, p) => n + p.captureRequests.length, 0);
    if (taken.length > 1) {
      failures.push(
        `the provider charged the shopper of order ${o.orderId} (store ${o.store.index}, ${o.contractModel}, ${o.totalMinor}) ${taken.length} times: ` +
          taken.map((c) => `payment ${c.payment.id} ${c.amountMinor} at ${c.at} (key ${c.idempotencyKey ?? 'none'})`).join('; ') +
          `; capture requests: ${a.body.items.flatMap((p) => p.captureRequests.map((r) => `${r.status}${r.replayed ? ' replayed' : ''} key ${r.idempotencyKey ?? 'none'}`)).join(', ') || 'none'}`,
      );
    }
  }
  return verdict(
    'no shopper captured twice',
    `${orders.length} store orders at the provider: ${captures} charges, ${requests} capture requests from the service`,
    failures,
  );
}
