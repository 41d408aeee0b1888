import crypto from 'node:crypto';
import type { SupplierConnection, SupplierGateway } from '../connections';
import { failpoint } from '../platform/failpoints';
import { formatMoney } from '../platform/money';
import type { SupplierOrderSnapshot, SupplierProduct } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierOrderRecords, Work } from './records';
import { cleanReviewMessage, type ReviewReason } from './review-reasons';
import type { AlternateOfItem } from './sql/reroute';
import type { StoreRates } from './landed';
import { convertMinor } from '../rates/decimal';
import type { RerouteRequest, RerouteTry, SupplierOrder } from './supplier-order';
import { type DispatchEvent, SYSTEM } from './transition';

/** Where the items go: the alternate connection, each item's alternate variant and cost, and the total. */
interface Plan {
  conn: SupplierConnection;
  items: Array<{ id: string; supplierVariantId: string; linkCostMinor: number }>;
  costMinor: number;
  currency: string;
  /** The alternate's cost less the recorded one: in their currency when both are in one, else in the store's. */
  difference: { amountMinor: number; currency: string };
}

/** A reason the alternate cannot take the part, in words for the review message. */
class Refusal extends Error {}

/** The pause a rule turns into a reroute request: the reason is in the connection's rule and an item names alternates. */
export function pausedFor(w: Work, reason: ReviewReason, message: string, more: Omit<Extract<DispatchEvent, { type: 'paused' }>, 'type' | 'reason' | 'message'> = {}): DispatchEvent {
  const rule = w.conn.automation.reroute;
  const reroutes = rule.reasons.some((r) => r === reason) && w.items.some((i) => i.hasAlternates);
  const reroute: RerouteRequest | undefined = reroutes ? { by: 'rule', reason, connectionId: null, actor: SYSTEM } : undefined;
  return { type: 'paused', reason, message, ...more, ...(reroute ? { reroute } : {}) };
}

/**
 * The reroute step of a paused supplier order. A rule's reroute acts for the store under its owner's plan as it is
 * now. The first supplier must provably hold no live order for the part: its create was refused, a look-up finds
 * none, or it confirms the cancel of the one it holds; only then are the alternates tried in order, each checked
 * at its supplier (offered, in stock, delivered there, under the cost ceiling). The first that passes takes the
 * items in one transaction (this order cancelled, the items moved, the alternate's order made), and is sent like
 * any other. None: the pause stands, its message listing each alternate tried and why.
 */
export class Rerouter {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly gateway: SupplierGateway,
    private readonly send: (so: SupplierOrder) => Promise<void>,
    private readonly storeDropshipping: (storeId: string) => Promise<boolean>,
    private readonly rates: StoreRates,
  ) {}

  async run(w: Work): Promise<SupplierOrder> {
    const { so } = w;
    const request = so.rerouteRequest!;
    if (request.by === 'rule' && !(await this.storeDropshipping(so.storeId))) return this.end(so, [], "Not rerouted: the store owner's plan does not include dropshipping now.");
    const proof = await this.proveAbsent(w);
    if (!('absent' in proof)) return proof.ended;
    const alternates = withRoutingCandidates(so, await this.records.alternatesOfPart(so));
    // Each alternate in the order listed (a connection with several, each of its places), once across the chain.
    const done = new Set(so.rerouteTried.map((t) => `${t.connectionId}#${t.position}`));
    const candidates = [...new Map(alternates.map((a) => [`${a.connectionId}#${a.position}`, a])).values()].filter(
      (a) => !done.has(`${a.connectionId}#${a.position}`) && a.connectionId !== so.connectionId && (!request.connectionId || a.connectionId === request.connectionId),
    );
    // A routed part's remaining candidates go in landed-cost order (as routing quoted them), the rest after.
    if (so.routing) {
      const rank = (a: AlternateOfItem) => {
        const i = so.routing!.candidates.findIndex((q) => q.connectionId === a.connectionId);
        return i < 0 ? Number.MAX_SAFE_INTEGER : i;
      };
      candidates.sort((a, b) => rank(a) - rank(b));
    }
    const tried: RerouteTry[] = [];
    for (const { connectionId, position } of candidates) {
      const conn = await this.records.connection(so.storeId, connectionId);
      try {
        // Each item's alternate on that connection: the one at this place, else its first there.
        const onConn = alternates.filter((a) => a.connectionId === connectionId).sort((a, b) => Number(b.position === position) - Number(a.position === position) || a.position - b.position);
        const plan = await this.check(w, conn, onConn);
        return await this.move(w, plan, proof.answer, tried);
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        tried.push({ connectionId, position, supplierKey: conn?.supplierKey ?? 'unknown', why: err.message });
      }
    }
    return this.end(so, tried, candidates.length ? 'Not rerouted: no alternate could take the part.' : 'Not rerouted: no alternate is left to try.');
  }

  private end(so: SupplierOrder, tried: RerouteTry[], message: string, reason?: ReviewReason): Promise<SupplierOrder> {
    return this.records.change(so, { type: 'rerouteEnded', tried, message, ...(reason ? { reason } : {}) });
  }

  /** Whether the first supplier provably holds no live order for the part (cancelling the one it holds, if it can). */
  private async proveAbsent({ so, conn }: Work): Promise<{ absent: true; answer: SupplierOrderSnapshot | null } | { ended: SupplierOrder }> {
    if (so.numberKnownAbsent) return { absent: true, answer: null };
    const stop = async (message: string) => ({ ended: await this.end(so, [], `Not rerouted: ${message}`) });
    if (conn.disconnectedAt || !conn.credentialsSealed) return stop('the first supplier cannot be asked whether it holds an order (the connection was removed).');
    let answer: SupplierOrderSnapshot | null;
    try {
      answer = so.supplierOrderId ? await this.gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!)) : await this.gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber));
      if (!answer) return { absent: true, answer };
      // Found cancelled (by an earlier run of this step, say): the same boundary as just after the cancel.
      if (answer.status === 'cancelled') {
        failpoint('dispatch.rerouteAfterCancel', so.id);
        return { absent: true, answer };
      }
      if (answer.status === 'shipped' || answer.status === 'delivered') return stop('the first supplier already shipped its order.');
      failpoint('dispatch.rerouteBeforeCancel', so.id);
      const held = answer;
      answer = await this.gateway.call(conn, (a, ctx) => a.cancelOrder(ctx, held.supplierOrderId));
      if (answer.status !== 'cancelled') return stop('the first supplier did not confirm the cancel of its order.');
      failpoint('dispatch.rerouteAfterCancel', so.id);
      return { absent: true, answer };
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      if (err.kind === 'notFound') return { absent: true, answer: null };
      if (['refused', 'alreadyShipped', 'notSupported', 'credentialsRejected', 'accountUnusable'].includes(err.kind)) return stop(`the first supplier would not cancel its order (${cleanReviewMessage(err.message)}).`);
      throw err; // a passing error: the queue runs the step again
    }
  }

  /** The alternate connection's checks, then what its supplier says now of each item; a Refusal says why not. */
  private async check({ so, conn: primary, items, storeCurrency }: Work, conn: SupplierConnection | null, alternates: AlternateOfItem[]): Promise<Plan> {
    if (!conn || conn.storeId !== so.storeId) throw new Refusal('not a connection of this store');
    if (conn.disconnectedAt || !conn.credentialsSealed) throw new Refusal('the connection was removed');
    if (!conn.enabled) throw new Refusal('the connection is switched off');
    if (conn.automation.level === 'off') throw new Refusal('its automation is off');
    if (conn.circuitOpenUntil && conn.circuitOpenUntil.getTime() > Date.now()) throw new Refusal('it is paused after repeated errors');
    const country = so.destination.country.toUpperCase();
    if (conn.automation.excludedCountries.includes(country)) throw new Refusal(`the store excluded ${country} for it`);
    const products = new Map<string, SupplierProduct>();
    const plan: Plan = { conn, items: [], costMinor: 0, currency: '', difference: { amountMinor: 0, currency: '' } };
    const recorded = new Map<string, number>();
    for (const item of items) {
      const alt = alternates.find((a) => a.itemId === item.id);
      if (!alt) throw new Refusal(`it has no alternate for ${item.sku}`);
      if (!products.has(alt.supplierProductId)) products.set(alt.supplierProductId, await this.product(conn, alt.supplierProductId));
      const product = products.get(alt.supplierProductId)!;
      const v = product.variants.find((x) => x.id === alt.supplierVariantId);
      if (!v || !v.available) throw new Refusal(`it no longer offers variant ${alt.supplierVariantId} (${item.sku})`);
      if (v.stock < item.quantity) throw new Refusal(`it has ${v.stock} of ${item.sku}; the order needs ${item.quantity}`);
      if (!product.shipsTo.includes(country)) throw new Refusal(`it does not deliver to ${country}`);
      if (alt.recordedCostMinor === null || !alt.recordedCurrency) throw new Refusal(`no cost was recorded for ${item.sku} when the order was taken`);
      if (plan.currency && plan.currency !== v.cost.currency) throw new Refusal(`it prices the items in ${plan.currency} and ${v.cost.currency}`);
      plan.items.push({ id: item.id, supplierVariantId: v.id, linkCostMinor: v.cost.amountMinor });
      plan.costMinor += v.cost.amountMinor * item.quantity;
      // Anchored: the cost recorded when the order was taken, never the last alternate's, so hops do not compound.
      recorded.set(alt.recordedCurrency, (recorded.get(alt.recordedCurrency) ?? 0) + alt.recordedCostMinor * item.quantity);
      plan.currency = v.cost.currency;
    }
    // Amounts in two currencies are compared in the store's, each at today's rate (no rate: this alternate cannot be judged).
    const inStore = async (amountMinor: number, currency: string): Promise<number> => {
      if (currency === storeCurrency) return amountMinor;
      const r = await this.rates.rateFor(currency, storeCurrency);
      if (!r.available) throw new Refusal(`no exchange rate from ${currency} to ${storeCurrency} to compare its cost with (${r.reason})`);
      return convertMinor(amountMinor, currency, storeCurrency, r.rate);
    };
    const same = recorded.size === 1 && recorded.has(plan.currency);
    const cur = same ? plan.currency : storeCurrency;
    const cost = same ? plan.costMinor : await inStore(plan.costMinor, plan.currency);
    let recordedCost = 0;
    for (const [c, amount] of recorded) recordedCost += same ? amount : await inStore(amount, c);
    const percent = primary.automation.reroute.maxCostIncreasePercent;
    const ceiling = Math.floor((recordedCost * (100 + percent)) / 100);
    const money = (n: number, c = cur) => formatMoney(n, c);
    if (cost > ceiling) throw new Refusal(`it costs ${money(cost)}, above the ceiling of ${money(ceiling)} (${percent}% above the recorded cost of ${money(recordedCost)})`);
    plan.difference = { amountMinor: cost - recordedCost, currency: cur };
    const limit = conn.automation.costLimit;
    if (limit && limit.currency === plan.currency && plan.costMinor > limit.amountMinor) throw new Refusal(`it costs ${money(plan.costMinor, plan.currency)}, above its cost limit of ${formatMoney(limit.amountMinor, limit.currency)}`);
    if (limit && limit.currency !== plan.currency) {
      const [costStore, limitStore] = [await inStore(plan.costMinor, plan.currency), await inStore(limit.amountMinor, limit.currency)];
      if (costStore > limitStore) throw new Refusal(`it costs ${money(costStore, storeCurrency)}, above its cost limit of ${formatMoney(limit.amountMinor, limit.currency)} (${money(limitStore, storeCurrency)})`);
    }
    return plan;
  }

  private async product(conn: SupplierConnection, id: string): Promise<SupplierProduct> {
    try {
      return await this.gateway.call(conn, (a, ctx) => a.getProduct(ctx, id));
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      throw new Refusal(err.kind === 'notFound' ? `it no longer offers product ${id}` : `it did not answer (${err.kind})`);
    }
  }

  /** The items go to the alternate in one transaction; its order is then sent like any other. */
  private async move(w: Work, plan: Plan, answer: SupplierOrderSnapshot | null, tried: RerouteTry[]): Promise<SupplierOrder> {
    const { so, conn: from } = w;
    const request = so.rerouteRequest!;
    // A part already sent at the alternate is never changed: the items then form a part of their own.
    const first = `supplier:${plan.conn.id}`;
    const groupKey = (await this.records.forPart(so.storeId, so.orderId, first)) ? `${first}:${so.id}` : first;
    const id = crypto.randomUUID();
    const details = {
      from: { supplierOrderId: so.id, connectionId: from.id, supplierKey: from.supplierKey },
      to: { supplierOrderId: id, connectionId: plan.conn.id, supplierKey: plan.conn.supplierKey, groupKey },
      reason: request.reason, by: request.by, costDifferenceMinor: plan.difference.amountMinor, currency: plan.difference.currency,
      ...(tried.length ? { tried } : {}),
    };
    const { first: written, second } = await this.records.reroute(so, {
      rerouted: { type: 'rerouted', actor: request.actor, to: id, details, answer },
      record: {
        id, storeId: so.storeId, orderId: so.orderId, groupKey, connectionId: plan.conn.id, supplierKey: plan.conn.supplierKey, orderNumber: so.orderNumber, contractModel: so.contractModel,
        destination: so.destination, payNow: false, createdByAccountId: so.createdByAccountId, createdByKeyId: so.createdByKeyId,
      },
      tried: [...so.rerouteTried, ...tried],
      items: plan.items,
      // A routed part's choice goes on with it: its order is never routed again (back at the primary, say).
      ...(so.routing ? { routing: so.routing } : {}),
    });
    failpoint('dispatch.rerouteAfterMove', so.id);
    await this.send(second);
    return written;
  }
}

/**
 * A routed part's quoted candidates that are not among its items' alternates (the link's primary, once the part went
 * to an alternate), as alternates at place -1, each item with the variant routing quoted and its recorded cost.
 */
function withRoutingCandidates(so: SupplierOrder, alternates: AlternateOfItem[]): AlternateOfItem[] {
  if (!so.routing) return alternates;
  const extra: AlternateOfItem[] = [];
  for (const q of so.routing.candidates) {
    if (q.connectionId === so.connectionId || alternates.some((a) => a.connectionId === q.connectionId)) continue;
    for (const item of q.items) {
      const known = alternates.find((a) => a.itemId === item.id);
      if (!known) continue;
      extra.push({ ...known, position: -1, connectionId: q.connectionId, supplierProductId: item.supplierProductId, supplierVariantId: item.supplierVariantId });
    }
  }
  return [...alternates, ...extra];
}
