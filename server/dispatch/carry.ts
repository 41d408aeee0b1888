import { SYSTEM } from './dispatch-event';
import type { Change } from './change';
import type { RoutingChoice } from './supplier-order';

/** A change that may carry routing's choice: its history entry `routed`, written before the change's own; none: no choice. */
export type Carried = Change & { routed?: Change['history'] };

/** Routing's history entry `routed` (as ./transition.ts's event `routed` writes it): each candidate's quote, not its variants. */
export function routedEntry(choice: RoutingChoice): Change['history'] {
  return { actor: SYSTEM, type: 'routed', details: { ...choice, candidates: choice.candidates.map(({ items: _items, ...q }) => q) } };
}

/**
 * `c` with routing's choice written by it (./routing.ts): the `routing` column, and the choice's history entry and
 * event (`supplierOrder.routed`) before the change's own, in the same statement (./sql/write.ts). The choice is never
 * written on its own: it rides on the send's next write, or on the move's. No choice: `c` as it is.
 */
export function carrying(c: Change, choice: RoutingChoice | null | undefined): Carried {
  if (!choice || c.from === null) return c;
  return { ...c, fields: { ...c.fields, routing: choice }, after: { ...c.after, routing: choice }, routed: routedEntry(choice) };
}
