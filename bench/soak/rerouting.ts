/**
 * ─── Backup-supplier rerouting (issue 34): NOT YET IN THE SOAK ──────────────────────────────────────────────────
 *
 * Rerouting does not exist yet. When issue 34 lands, this is where it joins the soak:
 *
 * 1. The load (`reroutingLoad`, started by main.ts beside the others): give some products a backup supplier (each
 *    store has a sandbox, a CJ and an AliExpress connection to choose from), and make the primary fail for them
 *    while orders come in: the sandbox's `unavailableAccounts` for the store's account, `refuseNext`, stock at 0
 *    through `/control/variants/:id`, CJ's `unavailableAccounts` by openId; whatever issue 34 names as a reason
 *    to reroute. Count the reroutes asked for and the faults that should cause them.
 *
 * 2. The invariants (`reroutingInvariants`, added to the list in check.ts):
 *    - a part rerouted at most once: from the service's history of each part (over its API; issue 34 will say
 *      where), no part moves to a backup twice;
 *    - never two live orders for the same items across suppliers: already checked across every supplier's own
 *      records by "no duplicate supplier order per order part" (invariants/money.ts), which groups the orders of
 *      all suppliers by the part they were made for; with rerouting it must also hold while a part's first order
 *      is being withdrawn (cancelled at the first supplier before, or without being sent, the backup's is made),
 *      so sample it during the run, not only at the end.
 *
 * Until then both are empty: the soak neither loads nor counts rerouting, and its summary says nothing of it.
 */
import type { Verdict } from './invariants/verdict';
import type { Store } from './world';

export const REROUTING_IN_SOAK = false;

/** The rerouting load: nothing until issue 34 (see above). */
export function reroutingLoad(_stores: Store[]): { stop(): void } {
  return { stop: () => undefined };
}

/** The rerouting invariants: none until issue 34 (see above). */
export async function reroutingInvariants(_stores: Store[]): Promise<Verdict[]> {
  return [];
}
