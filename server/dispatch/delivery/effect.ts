import type { DeliveryWatch } from '../../connections';
import type { EventType } from '../../events';
import type { DeliveryAttentionReason } from '../../platform/vocabulary/delivery';
import type { SupplierOrderSnapshot } from '../../suppliers/adapter';
import type { SupplierOrder } from '../supplier-order';
import type { DeliveryState } from './types';
import { evaluate, observe, scanKey } from './watch';

/** The events of the transition that carry the watch (./watch.ts): the settings, and what else each brings. */
export type WatchEvent =
  | { type: 'supplierAnswered'; answer: SupplierOrderSnapshot; watch?: DeliveryWatch; history: string }
  | { type: 'deliveryWatched'; watch: DeliveryWatch }
  | { type: 'attentionAcknowledged'; reason: DeliveryAttentionReason; watch: DeliveryWatch };

/** What the watch adds to a change: its fields, its history entry (or the entry's details), and the event besides the status's. */
export interface WatchedChange {
  fields: { delivery: DeliveryState; deliveryDueAt: Date | null };
  history: { type: string; details: Record<string, unknown> } | null;
  details: Record<string, unknown>;
  also: EventType | null;
  /** The delivery state the write finds the record with (compare and set: ../sql/write.ts). */
  was: DeliveryState | null;
}

/**
 * The delivery watch over a change: what the supplier reported (a read-back's answer), a sweep's look once a threshold
 * came due, or a person's acknowledgement. None when the event carries no watch settings (the dispatch job's answers:
 * read-backs follow them). A change whose status stays is named after the attention's turn; one that `keepName`s (it
 * moves the status, or records a returned package) keeps its own name and event, the turn's event sent besides it.
 */
export function watchedChange(before: SupplierOrder, e: WatchEvent, after: SupplierOrder, now: Date, keepName: boolean): WatchedChange | null {
  if (!e.watch) return null;
  let d = observe(before.delivery, after, e.type === 'supplierAnswered' ? e.answer : undefined, now);
  const was = d.attention;
  if (e.type === 'attentionAcknowledged') d = { ...d, acknowledged: { reason: e.reason, at: now.toISOString(), scan: scanKey(d) }, attention: null };
  const r = evaluate(d, after, e.watch, now);
  const turn = e.type === 'attentionAcknowledged' ? (r.delivery.attention ? 'raised' : 'cleared') : r.turn;
  const fields = { delivery: r.delivery, deliveryDueAt: r.dueAt };
  const now_ = r.delivery.attention;
  const details: Record<string, unknown> =
    turn === 'raised' ? { deliveryAttention: now_ } : turn === 'cleared' ? { deliveryAttentionCleared: { reason: was?.reason ?? null } } : {};
  if (e.type === 'attentionAcknowledged') details.acknowledged = e.reason;
  const type = turn === 'raised' ? 'deliveryAttention' : turn === 'cleared' ? 'deliveryAttentionCleared' : null;
  const history =
    type && !keepName
      ? {
          type,
          details: {
            ...(turn === 'raised' ? { ...now_ } : { reason: was?.reason ?? null }),
            ...(e.type === 'attentionAcknowledged' ? { acknowledged: true } : {}),
            ...(e.type === 'supplierAnswered' ? { via: e.history } : {}),
          },
        }
      : null;
  const also: EventType | null = type && keepName ? (turn === 'raised' ? 'supplierOrder.deliveryAttention' : 'supplierOrder.deliveryAttentionCleared') : null;
  return { fields, history, details, also, was: before.delivery };
}
