import crypto from 'node:crypto';
import type { SupplierConnection, SupplierGateway } from '../connections';
import { failpoint } from '../platform/failpoints';
import { formatMoney } from '../platform/money';
import type { SupplierOrderSnapshot, SupplierProduct } from '../suppliers/adapter';
import { SupplierError } from '../suppliers/errors';
import type { SupplierOrderRecords, Work } from './records';
import { cleanReviewMessage, type ReviewReason } from './review-reasons';
import type { AlternateOfItem } from './sql/reroute';
import type { RerouteRequest, RerouteTry, SupplierOrder } from './supplier-order';
import { type DispatchEvent, SYSTEM } from './transition';

/** Where the items go: the alternate connection, each item's alternate variant and cost, and the total. */
interface Plan {
  conn: SupplierConnection;
  items: Array<{ id: string; supplierVariantId: string; linkCostMinor: number }>;
  costMinor: number;
  recordedCostMinor: number;
  currency: string;
}

/** A reason the alternate cannot take the part, in words for the review message. */
class Refusal extends Error {}

/** Two amounts in different currencies would have to be compared: never as plain numbers (no exchange rates yet). */
class CurrencyRefusal extends Refusal {}

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
  ) {}

  async run(w: Work): Promise<SupplierOrder> {
    const { so } = w;
    const request = so.rerouteRequest!;
    if (request.by === 'rule' && !(await this.storeDropshipping(so.storeId))) return this.end(so, [], "Not rerouted: the store owner's plan does not include dropshipping now.");
    const proof = await this.proveAbsent(w);
    if (!('absent' in proof)) return proof.ended;
    const alternates = await this.records.alternatesOfPart(so);
    // Each alternate in the order listed (a connection with several, each of its places), once across the chain.
    const done = new Set(so.rerouteTried.map((t) => `${t.connectionId}#${t.position}`));
    const candidates = [...new Map(alternates.map((a) => [`${a.connectionId}#${a.position}`, a])).values()].filter(
      (a) => !done.has(`${a.connectionId}#${a.position}`) && a.connectionId !== so.connectionId && (!request.connectionId || a.connectionId === request.connectionId),
    );
    const tried: RerouteTry[] = [];
    let currency = false;
    for (const { connectionId, position } of candidates) {
      const conn = await this.records.connection(so.storeId, connectionId);
      try {
        // Each item's alternate on that connection: the one at this place, else its first there.
        const onConn = alternates.filter((a) => a.connectionId === connectionId).sort((a, b) => Number(b.position === position) - Number(a.position === position) || a.position - b.position);
        const plan = await this.check(w, conn, onConn);
        return await this.move(w, plan, proof.answer, tried);
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        currency ||= err instanceof CurrencyRefusal;
        tried.push({ connectionId, position, supplierKey: conn?.supplierKey ?? 'unknown', why: err.message });
      }
    }
    // An alternate stopped by a currency: the pause says currencyMismatch (a person decides; no exchange rates yet).
    return this.end(so, tried, candidates.length ? 'Not rerouted: no alternate could take the part.' : 'Not rerouted: no alternate is left to try.', currency ? 'currencyMismatch' : undefined);
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
  private async check({ so, conn: primary, items }: Work, conn: SupplierConnection | null, alternates: AlternateOfItem[]): Promise<Plan> {
    if (!conn || conn.storeId !== so.storeId) throw new Refusal('not a connection of this store');
    if (conn.disconnectedAt || !conn.credentialsSealed) throw new Refusal('the connection was removed');
    if (!conn.enabled) throw new Refusal('the connection is switched off');
    if (conn.automation.level === 'off') throw new Refusal('its automation is off');
    if (conn.circuitOpenUntil && conn.circuitOpenUntil.getTime() > Date.now()) throw new Refusal('it is paused after repeated errors');
    const country = so.destination.country.toUpperCase();
    if (conn.automation.excludedCountries.includes(country)) throw new Refusal(`the store excluded ${country} for it`);
    const products = new Map<string, SupplierProduct>();
    const plan: Plan = { conn, items: [], costMinor: 0, recordedCostMinor: 0, currency: '' };
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
      if (alt.recordedCurrency !== v.cost.currency) throw new CurrencyRefusal(`its cost is in ${v.cost.currency}, the recorded cost in ${alt.recordedCurrency} (currencyMismatch: not compared)`);
      plan.items.push({ id: item.id, supplierVariantId: v.id, linkCostMinor: v.cost.amountMinor });
      plan.costMinor += v.cost.amountMinor * item.quantity;
      // Anchored: the cost recorded when the order was taken, never the last alternate's, so hops do not compound.
      plan.recordedCostMinor += alt.recordedCostMinor * item.quantity;
      plan.currency = v.cost.currency;
    }
    const percent = primary.automation.reroute.maxCostIncreasePercent;
    const ceiling = Math.floor((plan.recordedCostMinor * (100 + percent)) / 100);
    const money = (n: number) => formatMoney(n, plan.currency);
    if (plan.costMinor > ceiling) throw new Refusal(`it costs ${money(plan.costMinor)}, above the ceiling of ${money(ceiling)} (${percent}% above the recorded cost of ${money(plan.recordedCostMinor)})`);
    const limit = conn.automation.costLimit;
    if (limit && limit.currency !== plan.currency) throw new CurrencyRefusal(`its cost limit is in ${limit.currency}, its cost in ${plan.currency} (currencyMismatch: not compared)`);
    if (limit && plan.costMinor > limit.amountMinor) throw new Refusal(`it costs ${money(plan.costMinor)}, above its cost limit of ${formatMoney(limit.amountMinor, limit.currency)}`);
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
      reason: request.reason, by: request.by, costDifferenceMinor: plan.costMinor - plan.recordedCostMinor, currency: plan.currency,
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
    });
    failpoint('dispatch.rerouteAfterMove', so.id);
    await this.send(second);
    return written;
  }
}
