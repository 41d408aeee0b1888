import type { DispatchEvent } from '../dispatch-event';
import { SYSTEM } from '../dispatch-event';
import type { RerouteRequest } from '../supplier-order';
import type { Work } from '../work';
import type { Refusal } from './types';

/**
 * The sourcing unit (docs/architecture.md, "One sourcing decision"): whether a connection can take a part, and at
 * what cost, is judged in one place (./offer.ts `Evaluation`, once per job and candidate); three policies decide on
 * it (./policies.ts: send here, rank by the rule, first under the ceiling); one proof of absence guards every create
 * and every move (./absence.ts); one move carries the items to another connection (./move.ts).
 */
export { absentBeforeRerouting, absentBeforeRouting, absentEarlier, whyNotAskable } from './absence';
export { here } from './candidates';
export { move, type Leaving } from './move';
export { circuitOpen, Evaluation, type SourcingDeps } from './offer';
export { firstUnderCeiling, rankByRule, sendHere } from './policies';
export { isRefusal, type Offer, Refusal } from './types';

type Paused = Extract<DispatchEvent, { type: 'paused' }>;

/**
 * A refusal at the part's own supplier, as the pause it makes: with a reroute request when the connection's rule
 * lists its reason and an item names backup suppliers (the reroute step then runs, under the owner's plan as it is).
 */
export function pauseOf(w: Work, r: Pick<Refusal, 'reason' | 'why' | 'details'>, more: Pick<Paused, 'numberUnused'> = {}): Paused {
  const rule = w.conn.automation.reroute;
  const reroutes = rule.reasons.some((x) => x === r.reason) && w.items.some((i) => i.hasAlternates);
  const reroute: RerouteRequest | undefined = reroutes ? { by: 'rule', reason: r.reason, connectionId: null, actor: SYSTEM } : undefined;
  return { type: 'paused', reason: r.reason, message: r.why, details: r.details, ...more, ...(reroute ? { reroute } : {}) };
}
