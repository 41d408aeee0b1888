import type { SupplierConnection } from '../../connections';
import { failpoint } from '../../platform/failpoints';
import type { SupplierOrderSnapshot } from '../../suppliers/adapter';
import { SupplierError } from '../../suppliers/errors';
import { cleanReviewMessage } from '../review-reasons';
import type { EarlierOrder, SupplierOrder } from '../supplier-order';
import type { Evaluation } from './offer';
import { circuitOpen } from './offer';
import { Refusal } from './types';

// The one proof of absence: no part is created at a connection, nor moved to one, while another connection may hold
// its number. A supplier that cannot be asked (off, removed, its circuit open, its credentials gone, or one that finds
// orders only in the service's own memory) proves nothing: the part waits or pauses, naming it, and never moves.

/** Why `conn` cannot be asked whether it holds an order of ours, or null when it can. */
export function whyNotAskable(ev: Evaluation, conn: SupplierConnection | null): string | null {
  if (!conn) return 'the connection was removed';
  const adapter = ev.deps.registry.find(conn.supplierKey);
  if (!adapter || ev.deps.registry.isSwitchedOff(conn.supplierKey)) return `the supplier ${conn.supplierKey} is switched off by the operator of this service`;
  if (conn.disconnectedAt || !conn.credentialsSealed) return 'the connection was removed';
  if (!conn.enabled) return 'the connection is switched off';
  if (circuitOpen(conn)) return 'the connection is paused after repeated supplier errors';
  if (adapter.ordersFoundBy === 'memory') return `${adapter.entry.name} cannot be asked for an order by our number`;
  return null;
}

/** What `so`'s supplier holds under its number now: its order, or null; never the answer of a supplier that cannot say. */
async function held(
  ev: Evaluation,
  conn: SupplierConnection,
  so: Pick<SupplierOrder, 'supplierOrderId' | 'supplierOrderNumber'>,
): Promise<SupplierOrderSnapshot | null> {
  const gateway = ev.deps.gateway;
  try {
    return so.supplierOrderId
      ? await gateway.call(conn, (a, ctx) => a.getOrder(ctx, so.supplierOrderId!))
      : await gateway.call(conn, (a, ctx) => a.findOrderByNumber(ctx, so.supplierOrderNumber));
  } catch (err) {
    if (err instanceof SupplierError && err.kind === 'notFound') return null;
    throw err;
  }
}

/** Routing, before it moves a part that sent nothing yet: its supplier asked by number. `held`: it has the order (send it here). */
export async function absentBeforeRouting(ev: Evaluation): Promise<{ absent: true } | { held: SupplierOrderSnapshot } | { cannot: string }> {
  const { so, conn } = ev.work;
  const why = whyNotAskable(ev, conn);
  if (why) return { cannot: why };
  const found = await held(ev, conn, so);
  return found ? { held: found } : { absent: true };
}

export type LeavingProof = { absent: true; answer: SupplierOrderSnapshot | null; proof: EarlierOrder['proof'] } | { stop: string };

/**
 * A reroute, before it moves the items: the part's supplier holds no live order for it. Its create was refused (the
 * number never used), a look-up finds none, or it holds one not shipped and confirms its cancel. Else the pause stands.
 */
export async function absentBeforeRerouting(ev: Evaluation): Promise<LeavingProof> {
  const { so, conn } = ev.work;
  if (so.numberKnownAbsent) return { absent: true, answer: null, proof: 'refused' };
  const gateway = ev.deps.gateway;
  // A supplier asked by its own id (it told us of the order) can say so even where it cannot be asked by our number.
  const why = so.supplierOrderId && conn.credentialsSealed && !conn.disconnectedAt ? null : whyNotAskable(ev, conn);
  if (why) return { stop: `the first supplier cannot be asked whether it holds an order (${why}).` };
  try {
    let answer = await held(ev, conn, so);
    if (!answer) return { absent: true, answer, proof: 'lookedUp' };
    // Found cancelled (by an earlier run of this step, say): the same boundary as just after the cancel.
    if (answer.status === 'cancelled') {
      failpoint('dispatch.rerouteAfterCancel', so.id);
      return { absent: true, answer, proof: 'cancelled' };
    }
    if (answer.status === 'shipped' || answer.status === 'delivered') return { stop: 'the first supplier already shipped its order.' };
    failpoint('dispatch.rerouteBeforeCancel', so.id);
    const live = answer;
    answer = await gateway.call(conn, (a, ctx) => a.cancelOrder(ctx, live.supplierOrderId));
    if (answer.status !== 'cancelled') return { stop: 'the first supplier did not confirm the cancel of its order.' };
    failpoint('dispatch.rerouteAfterCancel', so.id);
    return { absent: true, answer, proof: 'cancelled' };
  } catch (err) {
    if (!(err instanceof SupplierError)) throw err;
    if (['refused', 'alreadyShipped', 'notSupported', 'credentialsRejected', 'accountUnusable'].includes(err.kind)) {
      return { stop: `the first supplier would not cancel its order (${cleanReviewMessage(err.message)}).` };
    }
    throw err; // a passing error: the queue runs the step again
  }
}

/**
 * Before this order's first create: each supplier the part left after only a look-up is asked again (a create still
 * in flight there may have landed since). One holding a live order pauses this one with both named; one that cannot
 * be asked now pauses it too (a circuit: it waits, as a passing fault, and is retried).
 */
export async function absentEarlier(ev: Evaluation): Promise<Refusal | null> {
  const { so } = ev.work;
  for (const e of so.earlier.filter((x) => x.proof === 'lookedUp')) {
    const conn = ev.work.connections.find((c) => c.id === e.connectionId) ?? (await ev.deps.connection(so.storeId, e.connectionId));
    const why = whyNotAskable(ev, conn);
    const both = `the part was at ${e.supplierKey} before (order ${e.supplierOrderNumber})`;
    if (why) {
      const reason = conn && circuitOpen(conn) ? 'connectionUnhealthy' : 'connectionMissing';
      return new Refusal(reason, `Not sent to ${so.supplierKey}: ${both}, and it cannot be asked now whether it holds that order (${why}).`, {
        earlierSupplierOrderId: e.supplierOrderId,
      });
    }
    try {
      const found = await held(ev, conn!, { supplierOrderId: e.supplierSideId, supplierOrderNumber: e.supplierOrderNumber });
      if (found && found.status !== 'cancelled') {
        const words = `Not sent to ${so.supplierKey}: ${both}, and ${e.supplierKey} holds it (${cleanReviewMessage(found.supplierOrderId)}, ${cleanReviewMessage(String(found.supplierStatus))}). A person decides which one goes on.`;
        return new Refusal('supplierRefused', words, {
          earlierSupplierOrderId: e.supplierOrderId,
          heldAt: { connectionId: e.connectionId, supplierOrderId: found.supplierOrderId },
        });
      }
    } catch (err) {
      if (err instanceof SupplierError)
        return new Refusal('connectionUnhealthy', `${e.supplierKey}, where the part was before, did not answer (${err.kind}).`, {}, 'candidate', err);
      throw err;
    }
  }
  return null;
}
