/**
 * Routing at dispatch (issue 42) in the soak: two products of each store's own, beside the rerouting ones
 * (./rerouting.ts orders them in turn with those), each with one alternate on the store's other connection and a
 * routing rule on its link, so the service quotes both suppliers live in the part's job before its first create:
 * - `sandbox→cj by routing` (`lowestLandedCost`): the sandbox primary at $60, the CJ alternate at $10. The part moves
 *   to CJ (its first order `cancelled`, `routedAway`; the CJ order made with `trigger: routing`), sent unpaid there
 *   (the CJ connection pays by hand): the merchant pays it, as it pays the rerouted CJ orders;
 * - `sandbox kept by routing` (`fastest` within 10 % of the cheapest): the sandbox primary at $10, the CJ alternate at
 *   $60, so only the primary is within the cap; the choice is carried on the primary's own send.
 * A supplier fault can leave a candidate out (its quote failed or was late), and a part retried before its first
 * create is not routed again: the checks follow what each `routed` entry says, not the plan.
 */
import type { Gathered } from './records';
import { chains, SoEvent } from './invariants/rerouting';
import { Verdict, verdict } from './invariants/verdict';

export const ROUTING_KINDS = ['sandbox→cj by routing', 'sandbox kept by routing'] as const;
export type RoutingKind = (typeof ROUTING_KINDS)[number];

/** What each kind's two variants cost at their suppliers, and the link's rule. */
export const ROUTING_PLAN: Record<RoutingKind, { sandboxCostMinor: number; cjSellPrice: string; routing: Record<string, unknown> }> = {
  'sandbox→cj by routing': { sandboxCostMinor: 6000, cjSellPrice: '10.00', routing: { rule: 'lowestLandedCost' } },
  'sandbox kept by routing': { sandboxCostMinor: 1000, cjSellPrice: '60.00', routing: { rule: 'fastest', maxCostAboveCheapestPercent: 10 } },
};

/** The wire's name for a supplier order's connection. */
const connectionOf = (so: object) => (so as { integrationId?: string }).integrationId;

interface Quote {
  connectionId: string;
  storeCurrency: string;
  storeTotalMinor: number;
  maxDays: number | null;
}
interface Choice {
  supplierOrderId: string;
  rule: 'lowestLandedCost' | 'fastest';
  maxCostAboveCheapestPercent?: number;
  connectionId: string;
  candidates: Quote[];
}

/**
 * Why a choice breaks its rule, or null. Amounts compared only in the store's currency, each candidate's own. With no
 * candidate quoted (every quote failed or came late) the part stays with its primary, the connection of the order
 * that made the choice.
 */
export function brokenChoice(c: Choice, primaryConnectionId: string | undefined): string | null {
  const q = c.candidates;
  if (!q.length)
    return c.connectionId === primaryConnectionId
      ? null
      : `no candidate quoted, yet connection ${c.connectionId} chosen over the primary ${primaryConnectionId}`;
  if (new Set(q.map((x) => x.storeCurrency)).size !== 1) return `candidates in ${[...new Set(q.map((x) => x.storeCurrency))].join(' and ')}: not comparable`;
  const chosen = q.find((x) => x.connectionId === c.connectionId);
  if (!chosen) return `chose connection ${c.connectionId}, which is no candidate`;
  const cheapest = Math.min(...q.map((x) => x.storeTotalMinor));
  if (c.rule === 'lowestLandedCost') return chosen.storeTotalMinor === cheapest ? null : `chose ${chosen.storeTotalMinor} when ${cheapest} was quoted`;
  // fastest: the fewest days among those within the cap above the cheapest (integer arithmetic: total × 100 ≤ cheapest × (100 + cap)).
  const within = q.filter((x) => x.storeTotalMinor * 100 <= cheapest * (100 + (c.maxCostAboveCheapestPercent ?? 0)));
  if (!within.includes(chosen)) return `chose ${chosen.storeTotalMinor}, above the cap of ${c.maxCostAboveCheapestPercent} % over ${cheapest}`;
  const days = (x: Quote) => x.maxDays ?? Number.MAX_SAFE_INTEGER;
  return within.some((x) => days(x) < days(chosen)) ? `chose ${days(chosen)} days when ${Math.min(...within.map(days))} were within the cap` : null;
}

/**
 * Every routing choice kept its rule, each part was chosen for once, and a part moved went where it chose.
 */
export function routedByRule(g: Gathered, ordered: number): Verdict {
  const root = chains(g);
  type Chain = { choices: Map<string, Choice>; orders: string[] };
  const byChain = new Map<string, Chain>();
  for (const so of g.supplierOrders.values()) {
    const chain = root.get(so._id) ?? so._id;
    const c: Chain = byChain.get(chain) ?? { choices: new Map(), orders: [] };
    c.orders.push(so._id);
    for (const e of (so as { events?: SoEvent[] }).events ?? []) {
      if (e.type === 'routed' && e.details) c.choices.set(String(e.details.supplierOrderId), e.details as unknown as Choice);
    }
    byChain.set(chain, c);
  }
  const failures: string[] = [];
  let routed = 0;
  let moved = 0;
  let stayed = 0;
  for (const [chain, c] of byChain) {
    if (!c.choices.size) continue;
    routed++;
    if (c.choices.size > 1)
      failures.push(`the items first sent as supplier order ${chain} were routed ${c.choices.size} times (by ${[...c.choices.keys()].join(', ')})`);
    for (const choice of c.choices.values()) {
      const maker = g.supplierOrders.get(choice.supplierOrderId);
      const why = brokenChoice(choice, maker && connectionOf(maker));
      if (why) failures.push(`supplier order ${choice.supplierOrderId}: its ${choice.rule} choice ${why}`);
    }
    const choice = [...c.choices.values()][0];
    // Moved: the order its move made is at the chosen connection. Not moved though another was chosen: the part was
    // sent where it was (the supplier held its number already, or a fault paused it before the move: a part is
    // never moved after its first attempt), which the line counts.
    const made = c.orders
      .map((id) => g.supplierOrders.get(id)!)
      .find((so) => ((so as { events?: SoEvent[] }).events ?? []).some((e) => e.type === 'created' && e.details?.trigger === 'routing'));
    if (made) {
      moved++;
      if (connectionOf(made) !== choice.connectionId)
        failures.push(
          `the items of supplier order ${chain} were routed to connection ${choice.connectionId}, but moved to ${made._id} on ${connectionOf(made)}`,
        );
    } else if (connectionOf(g.supplierOrders.get(chain)!) !== choice.connectionId) stayed++;
  }
  if (ordered >= 5 && routed === 0) failures.push(`${ordered} orders of routed products, and not one part routed`);
  return verdict(
    'every routing choice kept its rule, once per part',
    `${ordered} orders of routed products: ${routed} parts routed, ${moved} of them moved to their alternate, ${stayed} sent where they were though another was chosen`,
    failures,
  );
}
