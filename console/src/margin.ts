/**
 * Cost and margin of an order and of each of its parts, in the order's currency (the store's): what the part sold for
 * against what its supplier order costs (items and shipping). A cost in another currency is named, never added up.
 */
import { h } from './dom.js';
import { money } from './format.js';
import type { SupplierOrder } from './supplier-order.js';
import type { OrderPart, StoreOrder } from './types.js';

type Order = StoreOrder & { supplierOrders?: SupplierOrder[] };

/** A part's cost: known in the order's currency, known in another one, or not known (and why). */
export type PartCost =
  | { kind: 'known'; soldMinor: number; costMinor: number }
  | { kind: 'otherCurrency'; soldMinor: number; costMinor: number; currency: string }
  | { kind: 'unknown'; soldMinor: number; why: string };

const supplierPart = (p: OrderPart) => p.groupKey !== 'store' && !p.fulfilledByStore;

export function partCost(order: Order, part: OrderPart): PartCost {
  const soldMinor = (order.items ?? []).filter((i) => i.groupKey === part.groupKey).reduce((sum, i) => sum + i.unitPriceMinor * i.quantity, 0);
  if (!supplierPart(part)) return { kind: 'unknown', soldMinor, why: 'you ship these items yourself, and their cost is not kept here' };
  if (!order.supplierOrders) return { kind: 'unknown', soldMinor, why: 'your access does not include supplier orders (suppliers.view)' };
  const so = order.supplierOrders.find((s) => s.fulfilmentGroupKey === part.groupKey);
  if (!so) return { kind: 'unknown', soldMinor, why: 'the supplier says it once the part is sent' };
  if (so.status === 'cancelled') return { kind: 'unknown', soldMinor, why: 'its supplier order was cancelled' };
  if (!so.costs) return { kind: 'unknown', soldMinor, why: 'the supplier has not said it yet' };
  if (so.costs.currency !== order.currency) return { kind: 'otherCurrency', soldMinor, costMinor: so.costs.totalMinor, currency: so.costs.currency };
  return { kind: 'known', soldMinor, costMinor: so.costs.totalMinor };
}

/** "margin $38.33 (44.6%)", in red when the part sells at a loss. */
function marginOf(soldMinor: number, costMinor: number, currency: string): HTMLElement {
  const m = soldMinor - costMinor;
  const share = soldMinor ? ` (${((m / soldMinor) * 100).toFixed(1)}%)` : '';
  return h('strong', { class: m < 0 ? 'neg' : 'pos' }, `margin ${money(m, currency)}${share}`);
}

const otherCurrency = (c: { costMinor: number; currency: string }, order: Order) =>
  `the supplier charges ${money(c.costMinor, c.currency)}, in ${c.currency}, and the order is in ${order.currency}: the two are not added up, so no margin is shown`;

/** One part's line: sold for, the supplier's cost (items and shipping) and the margin. */
export function partMarginLine(order: Order, part: OrderPart): HTMLElement {
  const c = partCost(order, part);
  const sold = `Sold for ${money(c.soldMinor, order.currency)} · `;
  const line = h('p', { class: 'margin', 'data-cost': c.kind });
  if (c.kind === 'known') line.append(sold, `supplier cost ${money(c.costMinor, order.currency)} · `, marginOf(c.soldMinor, c.costMinor, order.currency));
  else if (c.kind === 'otherCurrency') line.append(sold, `${otherCurrency(c, order)}.`);
  else line.append(sold, `cost not known: ${c.why}.`);
  return line;
}

/** The order's line: its supplier parts together, or why they cannot be added up; the store's own items are left out. */
export function orderMargin(order: Order): HTMLElement {
  const parts = order.fulfilmentGroups.filter(supplierPart).map((p) => partCost(order, p));
  const own = order.fulfilmentGroups.filter((p) => !supplierPart(p)).map((p) => partCost(order, p).soldMinor).reduce((a, b) => a + b, 0);
  const out = h('span', { class: 'margin', 'data-cost': 'unknown' });
  const ownNote = own ? ` Your own items (sold for ${money(own, order.currency)}) are left out: their cost is not kept here.` : '';
  if (!parts.length) return (out.append('Not known: every item is shipped by you, and their cost is not kept here.'), out);
  const foreign = parts.filter((c) => c.kind === 'otherCurrency');
  if (foreign.length) {
    out.dataset.cost = 'otherCurrency';
    out.append(`Not added up: ${[...new Set(foreign.map((c) => c.currency))].join(', ')} supplier costs and an order in ${order.currency} (see each part).${ownNote}`);
    return out;
  }
  const known = parts.filter((c): c is Extract<PartCost, { kind: 'known' }> => c.kind === 'known');
  if (known.length < parts.length) {
    out.append(`Not known yet: ${known.length} of ${parts.length} supplier part${parts.length === 1 ? ' has' : 's have'} a cost so far.${ownNote}`);
    return out;
  }
  const sold = known.reduce((a, c) => a + c.soldMinor, 0);
  const cost = known.reduce((a, c) => a + c.costMinor, 0);
  out.dataset.cost = 'known';
  out.append(`${own ? 'Supplier parts: sold' : 'Sold'} for ${money(sold, order.currency)} · supplier cost ${money(cost, order.currency)} · `, marginOf(sold, cost, order.currency), ownNote ? `.${ownNote}` : '');
  return out;
}
