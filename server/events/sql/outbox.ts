import crypto from 'node:crypto';
import { affected, Params, type Queryable, rows } from '../../platform/db';
import { TEST_EVENT_TYPE, type Subscription } from '../types';
import type { EventRows } from './rows';

// The outbox (event_outbox): how every domain writes its events, the test events, and what is old enough to go.

/** Notified (by trigger, migration EventOutboxNotify) when a statement wrote events. */
export const OUTBOX_CHANNEL = 'event_outbox';

/**
 * The events a change writes, as one step of the producing domain's own statement (so they commit with it): its text
 * goes in that statement's WITH list (`name AS (...)`) or runs as a statement of its own.
 */
export function outboxStep(e: EventRows): string {
  return `INSERT INTO event_outbox (store_id, type, resource_key, record_key_id, snapshot)
          SELECT ${e.storeId}, ${e.type}, ${e.resourceKey}, ${e.recordKeyId}, ${e.snapshot} FROM ${e.from}${e.where ? ` WHERE ${e.where}` : ''}`;
}

/** A test event for one subscription, and its delivery, in one statement; answers the delivery's id. */
export async function insertTestEvent(db: Queryable, s: Pick<Subscription, 'id' | 'storeId'>, snapshot: Record<string, unknown>): Promise<string> {
  const p = new Params();
  // Each test event is a resource of its own: test events need no order among themselves.
  const key = p.add(`subscription:${s.id}:${crypto.randomUUID()}`);
  const [r] = await rows<{ id: string }>(
    db,
    `WITH ev AS (INSERT INTO event_outbox (store_id, type, resource_key, snapshot, fanned_out) VALUES (${p.add(s.storeId)}, '${TEST_EVENT_TYPE}', ${key}, ${p.json(snapshot)}, true) RETURNING store_id, seq)
     INSERT INTO event_deliveries (store_id, event_seq, subscription_id, resource_key) SELECT store_id, seq, ${p.add(s.id)}, ${key} FROM ev RETURNING id`,
    p.values,
  );
  return r.id;
}

/** Events older than `days` with nothing left to deliver or react to go, their deliveries with them; answers how many. */
export function purgeOld(db: Queryable, days: number): Promise<number> {
  return affected(
    db,
    `DELETE /* cross-store: event-purge */ FROM event_outbox WHERE (store_id, seq) IN (SELECT o.store_id, o.seq FROM event_outbox o WHERE o.created_at < now() - make_interval(days => $1) AND o.fanned_out
        AND NOT EXISTS (SELECT 1 FROM event_deliveries d WHERE d.store_id = o.store_id AND d.event_seq = o.seq AND d.status = 'pending')
        AND NOT EXISTS (SELECT 1 FROM event_reactions r WHERE r.store_id = o.store_id AND r.event_seq = o.seq AND r.status = 'pending') LIMIT 20000)`,
    [days],
  );
}
