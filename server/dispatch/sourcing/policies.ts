import type { RoutingRule } from '../../connections';
import { formatMoney } from '../../platform/money';
import type { RateSource } from '../../rates/service';
import type { RerouteRequest, RerouteTry, RoutingChoice, RoutingQuote } from '../supplier-order';
import { elsewhere, firstPerConnection, here } from './candidates';
import type { Evaluation } from './offer';
import { type Candidate, isRefusal, type Money, type Offer, Refusal } from './types';

// Three small policies over the one evaluation (./offer.ts): send here, rank by the rule, take the first under the
// ceiling. Each only decides; what it decides is carried out by the job (the send), or by the one move (./move.ts).

/** A quote routing made is taken as the chosen order's offer for this long: the part is judged once, not twice. */
export const QUOTE_KEPT_MS = 10 * 60 * 1000;

/**
 * Send here: the part's supplier now, judged against what the part was priced at there (the link's cost, or what a
 * move accepted, each in its own currency): a changed cost pauses (costChanged) unless a person accepted it, then the
 * maximum buy prices and the cost limit, which an accepted cost waives too. The order a move made takes the quote
 * that chose it while fresh (no second read).
 */
export async function sendHere(ev: Evaluation): Promise<Offer | Refusal> {
  const { so } = ev.work;
  const routed = so.routing && so.routing.supplierOrderId !== so.id && so.routing.connectionId === so.connectionId ? so.routing : null;
  const chosen = routed?.candidates.find((q) => q.connectionId === so.connectionId);
  if (chosen?.shippingService && chosen.quotedAt && Date.now() - Date.parse(chosen.quotedAt) < QUOTE_KEPT_MS && so.attempt === 1 && so.retriesUsed === 0)
    return offerOf(chosen);
  const c = here(ev.work);
  if (isRefusal(c)) return c;
  const r = await ev.offer(c);
  const offer = isRefusal(r) ? r.offer : r;
  if (!offer) return r as Refusal;
  const accepted = so.acceptedCostMinor !== null && so.acceptedCostMinor === offer.itemsMinor;
  if (!accepted) {
    const changed = await costChanged(ev, offer);
    if (changed) return changed;
  }
  return isRefusal(r) && !accepted ? r : offer;
}

/** Whether the supplier's cost moved from what the part was priced at: in one currency as they are, else in the store's. */
async function costChanged(ev: Evaluation, offer: Offer): Promise<Refusal | null> {
  const { so, items } = ev.work;
  const was = new Map<string, number>();
  for (const i of items) {
    const now = offer.items.find((x) => x.id === i.id)!;
    const currency = i.linkCostMinor === null ? offer.currency : (i.linkCurrency ?? offer.currency);
    was.set(currency, (was.get(currency) ?? 0) + (i.linkCostMinor ?? now.unitCostMinor) * i.quantity);
  }
  const since = so.earlier.length ? 'the part was moved to it' : 'import';
  const current = { amountMinor: offer.itemsMinor, currency: offer.currency };
  if (was.size === 1 && was.has(offer.currency)) {
    const before = was.get(offer.currency)!;
    if (before === offer.itemsMinor) return null;
    const words = `The supplier's cost moved from ${await ev.words({ amountMinor: before, currency: offer.currency })} to ${await ev.words(current)} since ${since}.`;
    return new Refusal('costChanged', words, { recordedCostMinor: before, currentCostMinor: offer.itemsMinor, currency: offer.currency });
  }
  let beforeStore = 0;
  for (const [currency, amountMinor] of was) beforeStore += await ev.inStore({ amountMinor, currency });
  const nowStore = await ev.inStore(current);
  if (beforeStore === nowStore) return null;
  const store = (n: number) => formatMoney(n, ev.storeCurrency);
  const words = `The supplier's cost moved from ${store(beforeStore)} to ${store(nowStore)} (in the store's currency) since ${since}; it now prices in ${offer.currency}: ${await ev.words(current)}.`;
  const rate = { rate: offer.rate.rate, rateSource: offer.rate.source, rateAsOf: offer.rate.asOfDate, storeCurrency: ev.storeCurrency };
  return new Refusal('costChanged', words, {
    recordedStoreCostMinor: beforeStore,
    currentStoreCostMinor: nowStore,
    currentCostMinor: offer.itemsMinor,
    currency: offer.currency,
    ...rate,
  });
}

/** Routing's rule over the part's candidates, each quoted at once within the time limit; the offers kept for the move. */
export async function rankByRule(ev: Evaluation, rule: Exclude<RoutingRule, { rule: 'primary' }>, timeoutMs: number) {
  const now = here(ev.work);
  const candidates = [...(isRefusal(now) ? [] : [now]), ...firstPerConnection(elsewhere(ev.work).filter((c) => c.position !== -1))];
  const settled = await Promise.all(candidates.map(async (c) => ({ c, r: await timed(ev.offer(c), timeoutMs) })));
  const offers = settled.flatMap((s) => (isRefusal(s.r) ? [] : [s.r]));
  // Cheapest first; equal totals keep the listed order (the part's own supplier first).
  offers.sort((a, b) => a.storeTotalMinor - b.storeTotalMinor);
  const excluded = settled.flatMap(({ c, r }) =>
    isRefusal(r) ? [{ connectionId: c.connectionId, supplierKey: c.conn?.supplierKey ?? 'unknown', why: r.why }] : [],
  );
  const base = {
    rule: rule.rule,
    ...(rule.rule === 'fastest' ? { maxCostAboveCheapestPercent: rule.maxCostAboveCheapestPercent } : {}),
    candidates: offers.map(quoteOf),
    excluded,
  };
  const choose = (connectionId: string, why: string) => ({ choice: { ...base, connectionId, why } as Omit<RoutingChoice, 'supplierOrderId'>, offers });
  if (!offers.length) return choose(ev.work.so.connectionId, 'No candidate could be quoted: the part stays with its supplier.');
  const cheapest = offers[0];
  const total = (o: Offer) => formatMoney(o.storeTotalMinor, o.storeCurrency);
  if (rule.rule === 'lowestLandedCost') {
    const next = offers[1];
    return choose(
      cheapest.connectionId,
      `The lowest landed cost: ${total(cheapest)}${next ? ` (next ${next.supplierKey} at ${total(next)})` : ' (the only candidate)'}.`,
    );
  }
  const cap = Math.floor((cheapest.storeTotalMinor * (100 + rule.maxCostAboveCheapestPercent)) / 100);
  const days = (o: Offer) => o.shipping.maxDays ?? Number.POSITIVE_INFINITY;
  const fastest = offers.filter((o) => o.storeTotalMinor <= cap).sort((a, b) => days(a) - days(b) || a.storeTotalMinor - b.storeTotalMinor)[0];
  const overCap = offers.filter((o) => o.storeTotalMinor > cap && days(o) < days(fastest));
  const capWords = `within ${rule.maxCostAboveCheapestPercent}% of the cheapest (${total(cheapest)}, cap ${formatMoney(cap, cheapest.storeCurrency)})`;
  const dayWords =
    fastest.shipping.maxDays === null
      ? 'no candidate quotes its delivery time, so the cheapest'
      : `at most ${fastest.shipping.maxDays} days for ${total(fastest)}`;
  const excludedWords = overCap.length ? `; above the cap: ${overCap.map((o) => `${o.supplierKey} (${o.shipping.maxDays} days, ${total(o)})`).join(', ')}` : '';
  return choose(fastest.connectionId, `The fastest ${capWords}: ${dayWords}${excludedWords}.`);
}

/**
 * The reroute's pick: the part's other candidates in order (a routed part's in the order routing ranked them), each
 * once across the chain, never one the part was at before unless a person names it; the first whose items cost at
 * most the ceiling above what was recorded when the order was taken (anchored, so hops do not compound). Each one
 * passed over is added to `tried` with why.
 */
export async function firstUnderCeiling(ev: Evaluation, request: RerouteRequest, tried: RerouteTry[]): Promise<{ offer: Offer; candidate: Candidate } | null> {
  const { so, conn } = ev.work;
  const done = new Set(so.rerouteTried.map((t) => `${t.connectionId}#${t.position}`));
  const left = new Set(so.earlier.map((e) => e.connectionId));
  const named = request.connectionId;
  const rank = (c: Candidate) => so.routing?.candidates.findIndex((q) => q.connectionId === c.connectionId) ?? -1;
  const candidates = elsewhere(ev.work)
    .filter((c) => (named ? c.connectionId === named : c.position !== -1 && !left.has(c.connectionId)) && !done.has(`${c.connectionId}#${c.position}`))
    .sort((a, b) => (so.routing ? (rank(a) < 0 ? 1e9 : rank(a)) - (rank(b) < 0 ? 1e9 : rank(b)) : 0));
  const percent = conn.automation.reroute.maxCostIncreasePercent;
  for (const c of candidates) {
    const r = await ev.offer(c);
    const passOver = (why: string) =>
      tried.push({ connectionId: c.connectionId, position: c.position ?? 0, supplierKey: c.conn?.supplierKey ?? 'unknown', why });
    if (isRefusal(r)) {
      passOver(r.why);
      continue;
    }
    const over = await aboveCeiling(ev, r, percent);
    if (over) passOver(over);
    else return { offer: r, candidate: c };
  }
  return null;
}

/** Why the offer's items cost too much against the cost recorded when the order was taken, or null. */
async function aboveCeiling(ev: Evaluation, offer: Offer, percent: number): Promise<string | null> {
  const recorded = new Map<string, number>();
  for (const i of ev.work.items) {
    if (i.recordedCostMinor === null || !i.recordedCurrency) return `No cost was recorded for ${i.sku} when the order was taken.`;
    recorded.set(i.recordedCurrency, (recorded.get(i.recordedCurrency) ?? 0) + i.recordedCostMinor * i.quantity);
  }
  const same = recorded.size === 1 && recorded.has(offer.currency);
  try {
    const currency = same ? offer.currency : ev.storeCurrency;
    let was = 0;
    for (const [c, amountMinor] of recorded) was += same ? amountMinor : await ev.inStore({ amountMinor, currency: c });
    const cost = same ? offer.itemsMinor : await ev.inStore({ amountMinor: offer.itemsMinor, currency: offer.currency });
    const ceiling = Math.floor((was * (100 + percent)) / 100);
    if (cost <= ceiling) return null;
    const m = (n: number) => formatMoney(n, currency);
    const own = same ? '' : ` (${await ev.words({ amountMinor: offer.itemsMinor, currency: offer.currency })})`;
    return `It costs ${m(cost)}${own}, above the ceiling of ${m(ceiling)} (${percent}% above the recorded cost of ${m(was)}).`;
  } catch (err) {
    if (err instanceof Refusal) return err.why;
    throw err;
  }
}

/** The cost difference of a move: in the one currency of both, else in the store's. */
export async function difference(ev: Evaluation, offer: Offer): Promise<Money> {
  const recorded = ev.work.items.map((i) => ({ amountMinor: (i.recordedCostMinor ?? 0) * i.quantity, currency: i.recordedCurrency ?? offer.currency }));
  if (recorded.every((r) => r.currency === offer.currency))
    return { amountMinor: offer.itemsMinor - recorded.reduce((n, r) => n + r.amountMinor, 0), currency: offer.currency };
  let was = 0;
  for (const r of recorded) was += await ev.inStore(r);
  return { amountMinor: (await ev.inStore({ amountMinor: offer.itemsMinor, currency: offer.currency })) - was, currency: ev.storeCurrency };
}

export function quoteOf(o: Offer): RoutingQuote {
  return {
    connectionId: o.connectionId,
    supplierKey: o.supplierKey,
    items: o.items.map(({ unitCostMinor, ...i }) => ({ ...i, linkCostMinor: unitCostMinor })),
    currency: o.currency,
    itemsMinor: o.itemsMinor,
    shippingMinor: o.shipping.costMinor,
    totalMinor: o.totalMinor,
    storeCurrency: o.storeCurrency,
    storeTotalMinor: o.storeTotalMinor,
    rate: o.rate.rate,
    rateSource: o.rate.source,
    rateAsOf: o.rate.asOfDate,
    maxDays: o.shipping.maxDays,
    shippingService: o.shipping.service,
    ...(o.shipping.services ? { shippingServices: o.shipping.services } : {}),
    quotedAt: o.quotedAt,
  };
}

function offerOf(q: RoutingQuote): Offer {
  return {
    connectionId: q.connectionId,
    supplierKey: q.supplierKey,
    items: q.items.map(({ linkCostMinor, ...i }) => ({ ...i, unitCostMinor: linkCostMinor })),
    currency: q.currency,
    itemsMinor: q.itemsMinor,
    totalMinor: q.totalMinor,
    shipping: { service: q.shippingService!, ...(q.shippingServices ? { services: q.shippingServices } : {}), costMinor: q.shippingMinor, maxDays: q.maxDays },
    storeCurrency: q.storeCurrency,
    storeTotalMinor: q.storeTotalMinor,
    rate: { available: true, rate: q.rate, source: q.rateSource as RateSource, asOfDate: q.rateAsOf, fetchedAt: null },
    quotedAt: q.quotedAt!,
  };
}

function timed(p: Promise<Offer | Refusal>, ms: number): Promise<Offer | Refusal> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<Refusal>((resolve) => {
    timer = setTimeout(() => resolve(new Refusal('connectionUnhealthy', `Its quote did not come within ${ms} ms.`)), ms);
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}
