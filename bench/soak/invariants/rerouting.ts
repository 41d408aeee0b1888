/**
 * The rerouting invariants (issue 34), from the suppliers' own records and the supplier orders' histories:
 * - never two live orders for the same items across suppliers: a rerouted part's orders (the first one, cancelled, and
 *   the alternate's, made for the same items) are one chain, followed through the `rerouted` entries; at most one order
 *   of a chain may be live at the suppliers. Sampled during the run too, from two reads of every supplier (an order is
 *   counted live only if both reads found it live, so two orders counted live were live at one moment between them);
 * - every reroute asked for (a pause the rule turned into a request, a `rerouteRequested`, a reroute the soak asked for
 *   by hand and was answered 200 or 202) ended: rerouted (its alternate's order known to the service, and held by the
 *   supplier once sent) or paused with the alternates tried; none still pending, none without its request;
 * - no part moved to the same alternate twice (each link the soak makes names one alternate per connection, so a
 *   connection names the alternate).
 */
import { Gathered, numberStem, ordersAtSuppliers, ServiceSupplierOrder } from '../records';
import type { AeOrder, CjRecords, SandboxRecords } from '../supplier-side';
import type { Store } from '../world';
import { repeated, Verdict, verdict } from './verdict';

export interface SoEvent {
  type: string;
  at?: string;
  details?: Record<string, unknown> | null;
}
type Held = ServiceSupplierOrder & { store: Store; events?: SoEvent[] };

/** What every supplier holds, read once: the part of `Gathered` that is the suppliers' own. */
export type SupplierReads = { sandbox: SandboxRecords; cj: CjRecords; aliexpress: AeOrder[] };

/** A reroute the soak asked for by hand and the service accepted (200 or 202). */
export interface AskedByHand {
  supplierOrderId: string;
  storeIndex: number;
  status: number;
}

const eventsOf = (so: ServiceSupplierOrder): SoEvent[] => (so as Held).events ?? [];
const field = (x: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), x);
const isRequest = (e: SoEvent) => (e.type === 'paused' && e.details?.reroute === true) || e.type === 'rerouteRequested';
/** Whether a reroute was asked for and has not ended yet: the last request has no `rerouted` or `rerouteFailed` after it. */
export const reroutePending = (events: SoEvent[]): boolean => {
  const last = events.filter((e) => isRequest(e) || e.type === 'rerouted' || e.type === 'rerouteFailed').at(-1);
  return !!last && isRequest(last);
};
const SENT = new Set(['submitted', 'confirmed', 'processing', 'shipped', 'delivered']);

/** Each supplier order's chain: the first order of the items it was made for (itself when never rerouted). */
export function chains(g: Gathered): Map<string, string> {
  const parent = new Map<string, string>();
  for (const so of g.supplierOrders.values()) {
    for (const e of eventsOf(so)) {
      const to = field(e.details, 'to', 'supplierOrderId');
      if (e.type === 'rerouted' && typeof to === 'string') parent.set(to, so._id);
      const from = field(e.details, 'reroutedFrom', 'from', 'supplierOrderId');
      if (e.type === 'created' && typeof from === 'string') parent.set(so._id, from);
    }
  }
  const root = new Map<string, string>();
  for (const id of g.supplierOrders.keys()) {
    let r = id;
    for (let hops = 0; parent.has(r) && hops < 20; hops++) r = parent.get(r)!;
    root.set(id, r);
  }
  return root;
}

/**
 * Failure lines for every chain with two live orders at its suppliers. With `earlier` (a read of every supplier made
 * before `g`'s), an order counts as live only if both reads found it live.
 */
export function liveAcrossReroutes(g: Gathered, earlier?: SupplierReads): string[] {
  const root = chains(g);
  const liveBefore = earlier
    ? new Set(
        ordersAtSuppliers({ ...g, ...earlier })
          .filter((o) => o.live)
          .map((o) => `${o.supplier}|${o.id}`),
      )
    : null;
  const live = ordersAtSuppliers(g).filter((o) => o.live && (!liveBefore || liveBefore.has(`${o.supplier}|${o.id}`)));
  const soOf = (number: string) => g.byNumberStem.get(numberStem(number));
  const failures: string[] = [];
  for (const [chain, orders] of repeated(
    live.filter((o) => soOf(o.number)),
    (o) => root.get(soOf(o.number)!._id) ?? soOf(o.number)!._id,
  )) {
    const first = g.supplierOrders.get(chain);
    failures.push(
      `the items of order ${first?.orderId ?? '?'} (store ${first?.store.index ?? '?'}, first sent as supplier order ${chain}) have ${orders.length} live orders at their suppliers: ` +
        orders
          .map(
            (o) =>
              `${o.supplier} order ${o.id} (number ${o.number}, ${o.status}${o.paid ? ', paid' : ''}) for the service's ${soOf(o.number)!._id}, ${soOf(o.number)!.status}`,
          )
          .join('; '),
    );
  }
  return failures;
}

/** Two live orders for the same items across suppliers: at the end, and in the samples taken during the run. */
export function noTwoLiveAcrossSuppliers(g: Gathered, sampled: { samples: number; failures: Map<string, string> }): Verdict {
  const failures = [...liveAcrossReroutes(g), ...[...sampled.failures.values()].map((f) => `during the run: ${f}`)];
  const rerouted = [...chains(g)].filter(([id, r]) => id !== r).length;
  return verdict(
    'never two live orders for the same items across suppliers',
    `${g.supplierOrders.size} supplier orders (${rerouted} made by a reroute) at the end, and ${sampled.samples} samples during the run`,
    failures,
  );
}

export interface RerouteCounts {
  byRule: number;
  byHand: number;
  rerouted: number;
  paused: number;
}

/** Every reroute asked for ended rerouted or paused: never lost, never stuck. Answers the counts too. */
export function reroutesEnded(g: Gathered, asked: AskedByHand[]): { verdict: Verdict; counts: RerouteCounts } {
  const failures: string[] = [];
  const counts: RerouteCounts = { byRule: 0, byHand: 0, rerouted: 0, paused: 0 };
  const atSuppliers = new Set(ordersAtSuppliers(g).map((o) => numberStem(o.number)));
  const name = (so: Held) =>
    `supplier order ${so._id} (store ${so.store.index}, order ${so.orderId}, ${so.supplierKey}, ${so.status}${so.reviewReason ? ` ${so.reviewReason}` : ''})`;
  for (const so of g.supplierOrders.values() as Iterable<Held>) {
    let pending: SoEvent | null = null;
    let outcome: SoEvent | null = null;
    for (const e of eventsOf(so)) {
      if (isRequest(e)) {
        pending = e;
        if (e.type === 'paused') counts.byRule++;
        else counts.byHand++;
      } else if (pending && (e.type === 'rerouted' || e.type === 'rerouteFailed')) {
        outcome = e;
        pending = null;
        if (e.type === 'rerouted') counts.rerouted++;
        else counts.paused++;
      }
    }
    if (pending)
      failures.push(`${name(so)}: its reroute (${pending.type === 'paused' ? 'by rule' : 'by hand'}, asked ${pending.at ?? '?'}) never ended: stuck`);
    if (!outcome) continue;
    if (outcome.type === 'rerouteFailed' && so.status !== 'needsReview' && !pending)
      failures.push(`${name(so)}: its reroute ended without an alternate, but it is no longer paused`);
    if (outcome.type !== 'rerouted') continue;
    const to = field(outcome.details, 'to', 'supplierOrderId');
    const alt = typeof to === 'string' ? g.supplierOrders.get(to) : undefined;
    if (so.status !== 'cancelled') failures.push(`${name(so)}: rerouted to ${String(to)}, yet not cancelled`);
    if (!alt) failures.push(`${name(so)}: rerouted to supplier order ${String(to)}, which the service does not have: the items are lost`);
    else if (SENT.has(alt.status) && !atSuppliers.has(numberStem(alt.supplierOrderNumber)))
      failures.push(`${name(so)}: rerouted to ${name(alt as Held)}, which no supplier holds (number ${alt.supplierOrderNumber}): the items are lost`);
  }
  for (const a of asked) {
    const so = g.supplierOrders.get(a.supplierOrderId);
    if (!so)
      failures.push(
        `the reroute the soak asked for supplier order ${a.supplierOrderId} (store ${a.storeIndex}, answered ${a.status}): the service has no such order`,
      );
    else if (!eventsOf(so).some((e) => e.type === 'rerouteRequested'))
      failures.push(`${name(so as Held)}: the soak's reroute was answered ${a.status}, but its history holds no request: lost`);
  }
  const v = verdict(
    'every reroute asked for ended rerouted or paused',
    `${counts.byRule + counts.byHand} reroutes asked (${counts.byRule} by rule, ${counts.byHand} by hand, ${asked.length} of them by the soak): ${counts.rerouted} rerouted, ${counts.paused} left paused`,
    failures,
  );
  return { verdict: v, counts };
}

/** No part moved to the same alternate twice: per chain, each alternate (its connection) taken at most once. */
export function noAlternateTwice(g: Gathered): Verdict {
  const root = chains(g);
  const moves: Array<{ chain: string; connectionId: string; from: string }> = [];
  for (const so of g.supplierOrders.values()) {
    for (const e of eventsOf(so).filter((x) => x.type === 'rerouted')) {
      moves.push({ chain: root.get(so._id) ?? so._id, connectionId: String(field(e.details, 'to', 'connectionId')), from: so._id });
    }
  }
  const failures = [...repeated(moves, (m) => `${m.chain}|${m.connectionId}`)].map(
    ([, ms]) =>
      `the items first sent as supplier order ${ms[0].chain} (order ${g.supplierOrders.get(ms[0].chain)?.orderId ?? '?'}) moved ${ms.length} times to the alternate on connection ${ms[0].connectionId}: from ${ms.map((m) => m.from).join(', ')}`,
  );
  return verdict('no part moved to the same alternate twice', `${moves.length} moves to an alternate`, failures);
}
