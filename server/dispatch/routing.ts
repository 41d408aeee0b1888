import type { RoutingRule } from '../connections';
import { failpoint } from '../platform/failpoints';
import { SupplierError } from '../suppliers/errors';
import type { SupplierOrderRecords } from './records';
import type { Work } from './work';
import { absentBeforeRouting, type Evaluation, move, rankByRule, whyNotAskable } from './sourcing';
import type { RoutingChoice, SupplierOrder } from './supplier-order';

// Routing at dispatch (issue 42; docs/decisions.md "Routing at dispatch"): before a part's first create, its rule
// chooses among the link's primary and alternates by live quotes in the store's currency (./sourcing/policies.ts).

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
    so.status === 'queued' &&
    so.routing === null &&
    so.attempt === 1 &&
    so.retriesUsed === 0 &&
    !so.numberKnownAbsent &&
    !so.cancelRequested &&
    !so.rerouteRequest &&
    !so.rerouteTried.length &&
    !so.earlier.length &&
    w.items.length > 0 &&
    w.items.every((i) => i.linkConnectionId === so.connectionId && i.supplierVariantId && i.supplierProductId)
  );
}

/** What routing answers the send: the record changed (the part moved), the choice to carry on the send's next write, or nothing to do. */
export type Routed = { written: SupplierOrder } | { carry: RoutingChoice } | null;

export class DispatchRouting {
  constructor(
    private readonly records: SupplierOrderRecords,
    private readonly quoteTimeoutMs: number,
    /** Asks for the dispatch job of a record made here (the chosen supplier's order). */
    private readonly request: (so: SupplierOrder) => Promise<void>,
  ) {}

  /**
   * Routing, before the part's first create. The choice is never written on its own: the part's current connection
   * chosen, it rides on the send's next write (./carry.ts); another chosen, the part's supplier is first asked by
   * number (one that holds it keeps it; one that cannot be asked keeps it too), then the one move (./sourcing/move.ts)
   * writes the choice on both records in one transaction, and the chosen order is sent with the quote that chose it.
   */
  async route(ev: Evaluation, fail: (err: SupplierError, carry: RoutingChoice | null) => Promise<SupplierOrder>): Promise<Routed> {
    const w = ev.work;
    const rule = ruleOf(w);
    if (rule.rule === 'primary' || !routable(w)) return null;
    const { so } = w;
    // Off, removed or its circuit open: not asked, so nothing is chosen; the send pauses the part for its connection.
    const cannot = whyNotAskable(ev, w.conn);
    if (cannot && ev.admissible({ connectionId: so.connectionId, conn: w.conn, items: [], position: null })) return null;
    const ranked = cannot ? null : await rankByRule(ev, rule, this.quoteTimeoutMs);
    const choice: RoutingChoice = ranked
      ? { ...ranked.choice, supplierOrderId: so.id }
      : {
          rule: rule.rule,
          connectionId: so.connectionId,
          candidates: [],
          excluded: [],
          supplierOrderId: so.id,
          why: `Not routed: ${cannot}, so the part stays with it.`,
        };
    failpoint('dispatch.routeAfterChoice', so.id);
    const offer = ranked?.offers.find((o) => o.connectionId === choice.connectionId);
    if (choice.connectionId === so.connectionId || !offer) return { carry: choice };
    let proof;
    try {
      proof = await absentBeforeRouting(ev);
    } catch (err) {
      if (err instanceof SupplierError) return { written: await fail(err, choice) };
      throw err;
    }
    // It holds our number already (a create before the rule was set, then a crash): the send records it here.
    if (!('absent' in proof)) {
      const why = 'cannot' in proof ? `it cannot be asked whether it holds the part's order (${proof.cannot})` : "the part's supplier already holds its order";
      return { carry: { ...choice, connectionId: so.connectionId, why: `${choice.why} Not moved: ${why}.` } };
    }
    const { first, second } = await move(ev, this.records, offer, { kind: 'routed', choice, chosenNow: true });
    await this.request(second);
    return { written: first };
  }
}
