import type { RoutingRule, SupplierConnection, SupplierGateway } from '../connections';
import { formatMoney } from '../platform/money';
import { convertMinor } from '../rates/decimal';
import type { ShippingQuote, SupplierProduct } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { StoreRates } from './landed';
import type { SupplierOrderRecords, Work } from './records';
import type { WorkAlternate } from './supplier-order';
import crypto from 'node:crypto';
import { failpoint } from '../platform/failpoints';
import type { RoutingChoice, RoutingQuote, SupplierOrder } from './supplier-order';

// Routing at dispatch (issue 42; docs/decisions.md "Routing at dispatch"): before a part's first create, its rule
// chooses among the link's primary and alternates by live quotes in the store's currency.

/** The part's rule: its link's own (the first item's link that sets one), else the store's, else `primary`. */
export function ruleOf(w: Work): RoutingRule {
  return w.items.find((i) => i.linkRouting)?.linkRouting ?? w.storeRouting ?? { rule: 'primary' };
}

/**
 * Whether the rule may still choose: the part was never routed, nothing was ever asked of a supplier for it (queued
 * on its first attempt, no retry, no reroute), and it is still at its link's primary with every item linked.
 */
export function routable(w: Work): boolean {
  const { so } = w;
  return (
    so.status === 'queued' && so.routing === null && so.attempt === 1 && so.retriesUsed === 0 && !so.numberKnownAbsent && !so.cancelRequested && !so.rerouteRequest && !so.rerouteTried.length &&
    w.items.length > 0 && w.items.every((i) => i.linkConnectionId === so.connectionId && i.supplierVariantId && i.supplierProductId)
  );
}

/** Why a candidate cannot take the part (it counts as no candidate). */
class NotCandidate extends Error {}

interface Candidate {
  connectionId: string;
  conn: SupplierConnection | null;
  items: Array<{ id: string; sku: string; quantity: number; supplierProductId: string; supplierVariantId: string; maxBuyPrice: Work['items'][number]['maxBuyPrice'] }>;
}

export class DispatchRouting {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly gateway: SupplierGateway,
    private readonly rates: StoreRates,
    private readonly quoteTimeoutMs: number,
    /** Asks for the dispatch job of a record made here (the chosen supplier's order). */
    private readonly request: (so: SupplierOrder) => Promise<void>,
  ) {}

  /**
   * Routing, before the part's first create (./routing.ts). The choice is never written on its own: the part's current
   * connection chosen, it is answered (`carry`) and the send's next write carries it (./carry.ts);
   * another chosen, the items move to its order in one transaction (the reroute's) that writes the choice on both
   * records, and that order is sent. Until then nothing is written, so a run after a crash quotes again. Answers the
   * record changed (`written`: the loop looks again), the choice to carry, or null: nothing to do, send here.
   */
  async route(w: Work, fail: (err: SupplierError, carry: RoutingChoice | null) => Promise<SupplierOrder>): Promise<{ written: SupplierOrder } | { carry: RoutingChoice } | null> {
    const { so } = w;
    // A choice an earlier release wrote on its own, before its move: carried out as it was made.
    if (so.routing) {
      const choice = so.routing;
      // Only the order that made the choice carries it out; those made by its move or a reroute only keep it.
      if (choice.supplierOrderId !== so.id || so.status !== 'queued' || so.reroutedTo || choice.connectionId === so.connectionId || so.attempt !== 1 || so.retriesUsed !== 0) return null;
      const written = await this.move(w, choice, await this.records.connection(so.storeId, choice.connectionId), false, fail);
      return written ? { written } : null;
    }
    const rule = ruleOf(w);
    if (rule.rule === 'primary' || !routable(w)) return null;
    const choice: RoutingChoice = { ...(await this.choose(w, rule)), supplierOrderId: so.id };
    failpoint('dispatch.routeAfterChoice', so.id);
    if (choice.connectionId === so.connectionId) return { carry: choice };
    const written = await this.move(w, choice, w.alternateConnections.find((c) => c.id === choice.connectionId) ?? null, true, fail);
    // Not moved (the current supplier holds our number already): the part is sent here, the choice with it.
    return written ? { written } : { carry: choice };
  }

  /**
   * The items to the chosen connection's new order, in the reroute's transaction, `so` routed away (with the choice
   * when `chosenNow`), and that order sent. Null: not moved, send here.
   */
  private async move(w: Work, choice: RoutingChoice, target: SupplierConnection | null, chosenNow: boolean, fail: (err: SupplierError, carry: RoutingChoice | null) => Promise<SupplierOrder>): Promise<SupplierOrder | null> {
    const { so, conn } = w;
    const quote = choice.candidates.find((q) => q.connectionId === choice.connectionId);
    if (!quote || !target) return null;
    // Our number is asked of this supplier first where it can be: an order it holds (a create before the rule was
    // set, then a crash) is recorded by the send, never left live beside the chosen supplier's.
    if (conn.enabled && conn.credentialsSealed && !conn.disconnectedAt && !(conn.circuitOpenUntil && conn.circuitOpenUntil.getTime() > Date.now())) {
      try {
        if (await this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber))) return null;
      } catch (err) {
        if (err instanceof SupplierError) return fail(err, chosenNow ? choice : null);
        throw err;
      }
    }
    const first = `supplier:${target.id}`;
    const groupKey = (await this.records.forPart(so.storeId, so.orderId, first)) ? `${first}:${so.id}` : first;
    const id = crypto.randomUUID();
    const details = {
      from: { supplierOrderId: so.id, connectionId: conn.id, supplierKey: conn.supplierKey },
      to: { supplierOrderId: id, connectionId: target.id, supplierKey: target.supplierKey, groupKey },
      rule: choice.rule, storeTotalMinor: quote.storeTotalMinor, storeCurrency: quote.storeCurrency,
    };
    const { first: written, second } = await this.records.reroute(so, {
      rerouted: { type: 'routedAway', to: id, details },
      record: {
        id, storeId: so.storeId, orderId: so.orderId, groupKey, connectionId: target.id, supplierKey: target.supplierKey, orderNumber: so.orderNumber, contractModel: so.contractModel,
        destination: so.destination, payNow: so.payNow, createdByAccountId: so.createdByAccountId, createdByKeyId: so.createdByKeyId,
      },
      tried: [],
      items: quote.items.map(({ id: itemId, supplierVariantId, linkCostMinor }) => ({ id: itemId, supplierVariantId, linkCostMinor })),
      routing: choice,
      chosenNow,
    });
    failpoint('dispatch.routeAfterMove', so.id);
    await this.request(second);
    return written;
  }

  /** Every candidate quoted at once (each within the time limit), and the rule's choice among those quoted. */
  async choose(w: Work, rule: Exclude<RoutingRule, { rule: 'primary' }>): Promise<Omit<RoutingChoice, 'supplierOrderId'>> {
    const candidates = this.candidates(w);
    const settled = await Promise.all(candidates.map((c) => this.timed(this.quote(w, c)).then((q) => ({ c, q, why: null as string | null }), (err: unknown) => ({ c, q: null, why: whyNot(err) }))));
    const quoted = settled.flatMap((s) => (s.q ? [s.q] : []));
    // Cheapest first; equal costs keep the listed order (the primary first).
    quoted.sort((a, b) => a.storeTotalMinor - b.storeTotalMinor);
    const excluded = settled.flatMap((s) => (s.q ? [] : [{ connectionId: s.c.connectionId, supplierKey: s.c.conn?.supplierKey ?? 'unknown', why: s.why! }]));
    const base = { rule: rule.rule, ...(rule.rule === 'fastest' ? { maxCostAboveCheapestPercent: rule.maxCostAboveCheapestPercent } : {}), candidates: quoted, excluded };
    if (!quoted.length) return { ...base, connectionId: w.so.connectionId, why: 'No candidate could be quoted: the part stays with its primary supplier.' };
    const cheapest = quoted[0];
    const money = (q: RoutingQuote) => formatMoney(q.storeTotalMinor, q.storeCurrency);
    if (rule.rule === 'lowestLandedCost') {
      const next = quoted[1];
      return { ...base, connectionId: cheapest.connectionId, why: `The lowest landed cost: ${money(cheapest)}${next ? ` (next ${next.supplierKey} at ${money(next)})` : ' (the only candidate)'}.` };
    }
    const cap = Math.floor((cheapest.storeTotalMinor * (100 + rule.maxCostAboveCheapestPercent)) / 100);
    const within = quoted.filter((q) => q.storeTotalMinor <= cap);
    const days = (q: RoutingQuote) => q.maxDays ?? Number.POSITIVE_INFINITY;
    const fastest = [...within].sort((a, b) => days(a) - days(b) || a.storeTotalMinor - b.storeTotalMinor)[0];
    const overCap = quoted.filter((q) => q.storeTotalMinor > cap && days(q) < days(fastest));
    const capWords = `within ${rule.maxCostAboveCheapestPercent}% of the cheapest (${money(cheapest)}, cap ${formatMoney(cap, cheapest.storeCurrency)})`;
    const dayWords = fastest.maxDays === null ? 'no candidate quotes its delivery time, so the cheapest' : `at most ${fastest.maxDays} days for ${money(fastest)}`;
    const excludedWords = overCap.length ? `; above the cap: ${overCap.map((q) => `${q.supplierKey} (${q.maxDays} days, ${money(q)})`).join(', ')}` : '';
    return { ...base, connectionId: fastest.connectionId, why: `The fastest ${capWords}: ${dayWords}${excludedWords}.` };
  }

  /**
   * The primary with the part's items as linked, then each alternate connection with its first alternate of each item:
   * the alternates and their connections come with the work's one read (`records.work`), so this reads nothing.
   */
  private candidates(w: Work): Candidate[] {
    const { so } = w;
    const primary: Candidate = {
      connectionId: so.connectionId, conn: w.conn,
      items: w.items.map((i) => ({ id: i.id, sku: i.sku, quantity: i.quantity, supplierProductId: i.supplierProductId!, supplierVariantId: i.supplierVariantId!, maxBuyPrice: i.maxBuyPrice })),
    };
    const byConn = new Map<string, WorkAlternate[]>();
    for (const a of w.alternates) if (a.connectionId !== so.connectionId) byConn.set(a.connectionId, [...(byConn.get(a.connectionId) ?? []), a]);
    const others = [...byConn].map(([connectionId, alts]): Candidate | null => {
      const items = w.items.map((i) => {
        const a = alts.find((x) => x.itemId === i.id);
        return a ? { id: i.id, sku: i.sku, quantity: i.quantity, supplierProductId: a.supplierProductId, supplierVariantId: a.supplierVariantId, maxBuyPrice: i.maxBuyPrice } : null;
      });
      // A connection that has no alternate for every item cannot take the part whole.
      if (items.some((i) => !i)) return null;
      return { connectionId, conn: w.alternateConnections.find((c) => c.id === connectionId) ?? null, items: items as Candidate['items'] };
    });
    return [primary, ...others.filter((c): c is Candidate => c !== null)];
  }

  private timed<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new NotCandidate(`its quote did not come within ${this.quoteTimeoutMs} ms`)), this.quoteTimeoutMs);
    });
    return Promise.race([p, limit]).finally(() => clearTimeout(timer));
  }

  /** The candidate's checks, its supplier's products and shipping quote now, and the total in the store's currency. */
  private async quote({ so, storeCurrency }: Work, c: Candidate): Promise<RoutingQuote> {
    const conn = c.conn;
    if (!conn || conn.storeId !== so.storeId) throw new NotCandidate('not a connection of this store');
    if (conn.disconnectedAt || !conn.credentialsSealed) throw new NotCandidate('the connection was removed');
    if (!conn.enabled) throw new NotCandidate('the connection is switched off');
    if (conn.automation.level === 'off') throw new NotCandidate('its automation is off');
    if (conn.circuitOpenUntil && conn.circuitOpenUntil.getTime() > Date.now()) throw new NotCandidate('it is paused after repeated errors');
    const country = so.destination.country.toUpperCase();
    if (conn.automation.excludedCountries.includes(country)) throw new NotCandidate(`the store excluded ${country} for it`);
    const ids = [...new Set(c.items.map((i) => i.supplierProductId))];
    const input = { items: c.items.map((i) => ({ variantId: i.supplierVariantId, quantity: i.quantity })), destination: so.destination };
    const [products, shipping] = await Promise.all([
      Promise.all(ids.map((id) => this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, id)))),
      this.gateway.call(conn, (a, ctx) => (a.quoteShipping ? a.quoteShipping(ctx, input) : Promise.resolve(null as ShippingQuote | null))),
    ]);
    const byId = new Map<string, SupplierProduct>(products.map((p, i) => [ids[i], p]));
    let currency = '';
    let itemsMinor = 0;
    const items: RoutingQuote['items'] = [];
    const inStore = async (amountMinor: number, from: string) => {
      const r = await this.rates.rateFor(from, storeCurrency);
      if (!r.available) throw new NotCandidate(`no exchange rate from ${from} to ${storeCurrency}`);
      return { amountMinor: convertMinor(amountMinor, from, storeCurrency, r.rate), rate: r };
    };
    for (const item of c.items) {
      const product = byId.get(item.supplierProductId)!;
      const v = product.variants.find((x) => x.id === item.supplierVariantId);
      if (!v || !v.available) throw new NotCandidate(`it does not offer variant ${item.supplierVariantId} (${item.sku})`);
      if (v.stock < item.quantity) throw new NotCandidate(`it has ${v.stock} of ${item.sku}; the order needs ${item.quantity}`);
      if (!product.shipsTo.includes(country)) throw new NotCandidate(`it does not deliver to ${country}`);
      if (currency && currency !== v.cost.currency) throw new NotCandidate(`it prices the items in ${currency} and ${v.cost.currency}`);
      currency = v.cost.currency;
      const max = item.maxBuyPrice;
      if (max && (max.currency === currency ? v.cost.amountMinor > max.amountMinor : (await inStore(v.cost.amountMinor, currency)).amountMinor > (await inStore(max.amountMinor, max.currency)).amountMinor)) {
        throw new NotCandidate(`${item.sku} costs ${formatMoney(v.cost.amountMinor, currency)}, above its maximum buy price of ${formatMoney(max.amountMinor, max.currency)}`);
      }
      itemsMinor += v.cost.amountMinor * item.quantity;
      items.push({ id: item.id, supplierProductId: item.supplierProductId, supplierVariantId: v.id, linkCostMinor: v.cost.amountMinor });
    }
    const limit = conn.automation.costLimit;
    if (limit && (limit.currency === currency ? itemsMinor > limit.amountMinor : (await inStore(itemsMinor, currency)).amountMinor > (await inStore(limit.amountMinor, limit.currency)).amountMinor)) {
      throw new NotCandidate(`the items cost ${formatMoney(itemsMinor, currency)}, above its cost limit of ${formatMoney(limit.amountMinor, limit.currency)}`);
    }
    if (shipping && shipping.cost.currency !== currency) throw new NotCandidate(`it quotes shipping in ${shipping.cost.currency} and the items in ${currency}`);
    const shippingMinor = shipping?.cost.amountMinor ?? 0;
    const total = itemsMinor + shippingMinor;
    const converted = await inStore(total, currency);
    return {
      connectionId: conn.id, supplierKey: conn.supplierKey, items, currency, itemsMinor, shippingMinor, totalMinor: total, storeCurrency, storeTotalMinor: converted.amountMinor,
      rate: converted.rate.rate, rateSource: converted.rate.source, rateAsOf: converted.rate.asOfDate, maxDays: shipping?.maxDays ?? null,
    };
  }
}

function whyNot(err: unknown): string {
  if (err instanceof NotCandidate) return err.message;
  if (err instanceof SupplierError) return err.kind === 'notFound' ? 'it no longer offers the product' : `its quote failed (${err.kind})`;
  throw err;
}
