/**
 * Margin of an order and of each of its parts, in the store's currency, from the service's `profit`: what the part
 * sold for, its landed cost (items and shipping, converted at a recorded rate), the payment provider's fee and the
 * result. A figure that is not final says so and names what is missing; every converted amount shows its rate, source
 * and as-of date on hover.
 */
import { h } from './dom.js';
import { money } from './format.js';
import type { SupplierOrder } from './supplier-order.js';
import type { LandedCost, OrderPart, Profit, StoreOrder } from './types.js';

type Order = StoreOrder & { supplierOrders?: SupplierOrder[] };

const supplierPart = (p: OrderPart) => p.groupKey !== 'store' && !p.fulfilledByStore;

/** What each name of `profit.missing` means to a merchant. */
export const MISSING: Record<string, string> = {
  acceptedCost: 'the supplier has not accepted the order yet, so the cost is the one read at confirmation',
  landedCost: 'no landed cost is recorded yet',
  shipping: 'the supplier quoted no shipping before the order, so shipping is not in the cost yet',
  revenueInStoreCurrency: "the order is not in the store's currency, so what it sold for is not counted",
  paymentFeeInStoreCurrency: "the payment provider's fee is in another currency than the store's",
  supplierOrders: 'no part has been sent to a supplier yet',
};

const STAGE: Record<string, string> = { confirmation: 'at confirmation', accepted: 'when the supplier accepted the order', paid: 'when the supplier was paid' };
const SOURCE: Record<string, string> = { ecb: "the European Central Bank's reference rate", pinned: 'a rate the operator pinned' };

/** The hover text of a converted amount: from what, at which rate, from which source, as of when. */
export function rateTitle(l: LandedCost): string {
  const recorded = `Recorded ${STAGE[l.stage] ?? l.stage}.`;
  if (l.rateSource === 'identity' || l.currency === l.storeCurrency)
    return `${money(l.totalMinor, l.currency)}: the supplier charges in the store's currency (${l.storeCurrency}), nothing converted. ${recorded}`;
  return `${money(l.totalMinor, l.currency)} (${l.currency}) converted to ${l.storeCurrency} at 1 ${l.currency} = ${l.rate} ${l.storeCurrency}, ${SOURCE[l.rateSource] ?? l.rateSource} as of ${l.rateAsOf}. ${recorded}`;
}

/** The landed cost a profit is taken from (its stage), with its rate. */
const landedOf = (so: SupplierOrder): LandedCost | undefined =>
  so.profit?.landedCostStage ? so.landedCosts?.find((l) => l.stage === so.profit!.landedCostStage) : undefined;

/** An amount in the store's currency that was converted: its rate on hover. */
function converted(amountMinor: number, currency: string, titles: string[]): HTMLElement {
  return h('span', { class: 'converted', title: titles.join('\n'), tabindex: 0 }, money(amountMinor, currency));
}

/** "margin $38.33 (44.6%)", in red at a loss. */
function marginOf(p: Profit): HTMLElement {
  const m = p.resultMinor!;
  const share = p.revenueMinor ? ` (${((m / p.revenueMinor) * 100).toFixed(1)}%)` : '';
  return h('strong', { class: m < 0 ? 'neg' : 'pos' }, `margin ${money(m, p.currency)}${share}`);
}

const notFinal = (p: Profit) => (p.complete ? null : h('span', { class: 'missing' }, ` · not final: ${p.missing.map((m) => MISSING[m] ?? m).join('; ')}.`));

/** The figures of a profit in one line: sold for, landed cost (rate on hover), the fee (orders only), the margin. */
function profitLine(el: HTMLElement, p: Profit, soldText: string, titles: string[], fee: boolean): HTMLElement {
  el.dataset.cost = p.complete ? 'known' : 'partial';
  el.append(`${soldText} · `);
  el.append(p.landedCostMinor === null ? 'landed cost not known' : h('span', {}, 'landed cost ', converted(p.landedCostMinor, p.currency, titles)));
  if (fee && p.paymentFeeMinor) el.append(` · payment fee ${money(p.paymentFeeMinor, p.currency)}`);
  if (p.supplierCreditMinor) el.append(` · supplier credit ${money(p.supplierCreditMinor, p.currency)} (off the landed cost)`);
  if (p.resultMinor !== null) el.append(' · ', marginOf(p));
  else el.append(' · no margin yet');
  const nf = notFinal(p);
  if (nf) el.append(nf);
  return el;
}

const soldFor = (order: Order, part: OrderPart) =>
  (order.items ?? []).filter((i) => i.groupKey === part.groupKey).reduce((sum, i) => sum + i.unitPriceMinor * i.quantity, 0);

/** One part's line: sold for, its landed cost in the store's currency, the margin, and whether it is final. */
export function partMarginLine(order: Order, part: OrderPart): HTMLElement {
  const sold = `Sold for ${money(soldFor(order, part), order.currency)}`;
  const line = h('p', { class: 'margin', 'data-cost': 'unknown' });
  const unknown = (why: string) => (line.append(`${sold} · cost not known: ${why}.`), line);
  if (!supplierPart(part)) return unknown('you ship these items yourself, and their cost is not kept here');
  if (!order.supplierOrders) return unknown('your access does not include supplier orders (suppliers.view)');
  const so = order.supplierOrders.find((s) => s.fulfilmentGroupKey === part.groupKey);
  if (!so) return unknown('the supplier says it once the part is sent');
  if (so.status === 'cancelled') return unknown('its supplier order was cancelled');
  if (!so.profit) return unknown('the supplier has not said it yet');
  const l = landedOf(so);
  return profitLine(line, so.profit, sold, l ? [rateTitle(l)] : [], false);
}

/** The order's line: its supplier parts together less the payment provider's fee; the store's own items are left out. */
export function orderMargin(order: Order): HTMLElement {
  const own = order.fulfilmentGroups
    .filter((p) => !supplierPart(p))
    .map((p) => soldFor(order, p))
    .reduce((a, b) => a + b, 0);
  const ownNote = own ? ` Your own items (sold for ${money(own, order.currency)}) are left out: their cost is not kept here.` : '';
  const out = h('span', { class: 'margin', 'data-cost': 'unknown' });
  if (!order.fulfilmentGroups.some(supplierPart)) return (out.append('Not known: every item is shipped by you, and their cost is not kept here.'), out);
  if (order.profit === undefined || !order.supplierOrders)
    return (out.append('Not known: your access does not include supplier orders (suppliers.view).'), out);
  if (!order.profit) return (out.append(`Not known yet: no supplier part has a cost so far (the supplier says it once the part is sent).${ownNote}`), out);
  const p = order.profit;
  const live = order.supplierOrders.filter((s) => s.status !== 'cancelled');
  const titles = live.flatMap((so) => {
    const l = landedOf(so);
    return l ? [`${so.supplierOrderNumber}: ${rateTitle(l)}`] : [];
  });
  profitLine(
    out,
    p,
    `${own ? 'Supplier parts: sold' : 'Sold'} for ${p.revenueMinor === null ? "an amount not in the store's currency" : money(p.revenueMinor, p.currency)}`,
    titles,
    true,
  );
  if (ownNote) out.append(ownNote);
  return out;
}
