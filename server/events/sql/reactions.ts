import { preparedRows, type Queryable, rows } from '../../platform/db';
import { type ClaimedReaction, type EventColumns, outboxEventOf } from './rows';

// Internal reactions (event_reactions): fan-out makes them (./deliveries.ts), the delivery loop claims and ends them.

/** A claimed reaction as its claim answers it: the reaction and its event. */
interface ClaimRow extends EventColumns {
  id: string;
  handler: string;
  attempts: number;
  pending_since: Date;
}

/**
 * Claims due reactions under a lease, as deliveries are claimed: the lease moves them out of the due ones until it
 * lapses, so a process that dies mid-reaction leaves it to another. In order per handler and resource: a reaction
 * waits while an earlier one of the same handler about the same resource is pending. Stores take turns, as their
 * deliveries do: each store's earliest due reaction comes before any store's second, so one store's flood of
 * confirmations does not hold every other store's automatic sends behind it.
 */
export async function claimReactions(db: Queryable, limit: number, leaseMs: number): Promise<ClaimedReaction[]> {
  const found = await preparedRows<ClaimRow>(
    db,
    `WITH /* cross-store: event-reaction-claim */ due_stores AS (
       SELECT DISTINCT r.store_id FROM event_reactions r WHERE r.status = 'pending' AND r.next_attempt_at <= now()),
     turns AS (
       SELECT c.id, c.store_id, row_number() OVER (PARTITION BY c.store_id ORDER BY c.next_attempt_at, c.id) AS turn, c.next_attempt_at
         FROM due_stores s CROSS JOIN LATERAL (
           SELECT r.id, r.store_id, r.next_attempt_at FROM event_reactions r
            WHERE r.store_id = s.store_id AND r.status = 'pending' AND r.next_attempt_at <= now()
              AND NOT EXISTS (SELECT 1 FROM event_reactions e WHERE e.store_id = r.store_id AND e.handler = r.handler AND e.resource_key = r.resource_key AND e.status = 'pending' AND e.event_seq < r.event_seq)
            ORDER BY r.next_attempt_at, r.id LIMIT $1) c),
     picked AS (
       SELECT r.id, r.store_id FROM event_reactions r JOIN (SELECT id, store_id FROM turns ORDER BY turn, next_attempt_at, id LIMIT $1) t ON r.store_id = t.store_id AND r.id = t.id
        WHERE r.status = 'pending' AND r.next_attempt_at <= now() FOR UPDATE OF r SKIP LOCKED)
     UPDATE event_reactions r SET next_attempt_at = now() + make_interval(secs => $2), attempts = r.attempts + 1
       FROM picked, event_outbox o WHERE r.store_id = picked.store_id AND r.id = picked.id AND o.store_id = r.store_id AND o.seq = r.event_seq
     RETURNING r.id, r.handler, r.attempts, r.pending_since, o.seq, o.id AS event_id, o.store_id, o.type, o.resource_key, o.record_key_id, o.snapshot, o.created_at`,
    [limit, leaseMs / 1000],
  );
  return found.map((r) => ({
    id: r.id,
    handler: r.handler,
    attempts: r.attempts,
    pendingSince: r.pending_since,
    event: outboxEventOf(r),
  }));
}

/** A reaction done goes; one that failed is due again at `nextAt`, or, given up (`nextAt` null), kept failed with its error. */
export async function endReaction(db: Queryable, storeId: string, id: string, failure: { error: string; nextAt: Date | null } | null): Promise<void> {
  if (!failure) await rows(db, 'DELETE FROM event_reactions WHERE store_id = $2 AND id = $1', [id, storeId]);
  else
    await rows(
      db,
      `UPDATE event_reactions SET status = CASE WHEN $2::timestamptz IS NULL THEN 'failed' ELSE 'pending' END, next_attempt_at = coalesce($2, next_attempt_at), last_error = $3
        WHERE store_id = $4 AND id = $1`,
      [id, failure.nextAt, failure.error, storeId],
    );
}
