import type { DeliveryWatch } from '../../connections';
import { DELIVERY_ATTENTION_WORDS, type DeliveryAttentionReason } from '../../platform/vocabulary/delivery';
import type { SupplierOrderSnapshot, TrackingEvent } from '../../suppliers/adapter';
import type { SupplierOrderStatus } from '../state-machine';
import type { DeliveryAttention, DeliveryState } from './types';

/** Scans kept on the record: enough to show the journey's end, bounded whatever a supplier sends. */
const SCANS_KEPT = 20;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Watched: paid and not yet delivered (before shipping, for tracking; after, for movement and the promise). */
const WATCHED: ReadonlySet<SupplierOrderStatus> = new Set(['confirmed', 'processing', 'shipped']);

/** The record's side the watch reads: its status after the change, whether the supplier was paid, its shipment. */
export interface Watched {
  status: SupplierOrderStatus;
  paymentStatus: string;
  shipping: { shippedAt: string | null } | null;
}

/** What the watch decided: the state to keep, when it next has a threshold to look at, and whether attention turned. */
export interface WatchResult {
  delivery: DeliveryState;
  dueAt: Date | null;
  turn: 'raised' | 'cleared' | null;
}

/** The latest scan, as an acknowledgement of an exception names it (its time may be reported otherwise on the next read). */
export const scanKey = (d: DeliveryState): string | null => {
  const last = d.scans[d.scans.length - 1];
  return last ? `${last.description}|${last.location ?? ''}|${d.scans.length}` : null;
};

/** Nothing known yet. */
export const UNWATCHED: DeliveryState = {
  paidAt: null,
  shippedAt: null,
  lastScanAt: null,
  scans: [],
  exception: null,
  promisedMaxDays: null,
  attention: null,
  acknowledged: null,
};
const ms = (iso: string | null): number => (iso ? Date.parse(iso) : NaN);
const later = (a: string | null, b: string | null): string | null => (!a ? b : !b ? a : ms(a) >= ms(b) ? a : b);

/**
 * The supplier's report over what was known: its times where it gives them, and its scans as it lists them now (the
 * supplier's list is the record: a scan it no longer lists, or dates otherwise, is taken as it says now).
 */
export function observe(before: DeliveryState | null, after: Watched, answer: SupplierOrderSnapshot | undefined, now: Date): DeliveryState {
  const s = before ?? UNWATCHED;
  const t = answer?.tracking;
  const scans: TrackingEvent[] = t
    ? t.events
        .filter((e) => Number.isFinite(ms(e.at)))
        .sort((a, b) => ms(a.at) - ms(b.at))
        .slice(-SCANS_KEPT)
    : s.scans;
  const paid = after.paymentStatus === 'paid';
  return {
    ...s,
    paidAt: answer?.paidAt ?? s.paidAt ?? (paid ? now.toISOString() : null),
    shippedAt: answer?.shipping?.shippedAt ?? s.shippedAt ?? (after.shipping ? (after.shipping.shippedAt ?? now.toISOString()) : null),
    scans,
    lastScanAt: t ? (scans.length ? scans[scans.length - 1].at : null) : s.lastScanAt,
    exception: t ? t.exception : s.exception,
    promisedMaxDays: t?.promisedMaxDays ?? s.promisedMaxDays,
  };
}

interface Threshold {
  reason: DeliveryAttentionReason;
  /** When it holds (now or later); null: it cannot hold with what is known. */
  from: number | null;
  message: string;
}

/** Each reason's threshold over the state, in the order they are raised: the supplier's exception first. */
function thresholds(d: DeliveryState, after: Watched, w: DeliveryWatch): Threshold[] {
  const ack = d.acknowledged;
  const base = (reason: DeliveryAttentionReason, at: string | null) => (ack?.reason === reason ? later(at, ack.at) : at);
  const out: Threshold[] = [];
  const last = d.scans[d.scans.length - 1];
  if (d.exception && w.exceptions.includes(d.exception) && !(ack?.reason === d.exception && ack.scan === scanKey(d))) {
    out.push({ reason: d.exception, from: 0, message: `The carrier reports: ${last?.description ?? DELIVERY_ATTENTION_WORDS[d.exception].why}.` });
  }
  if (!after.shipping) {
    const paid = base('noTracking', d.paidAt);
    out.push({
      reason: 'noTracking',
      from: paid ? ms(paid) + w.noTrackingDays * DAY : null,
      message: `No tracking ${w.noTrackingDays} days after the supplier was paid (${d.paidAt}).`,
    });
    return out;
  }
  const moved = base('noMovement', d.lastScanAt ?? d.shippedAt);
  out.push({
    reason: 'noMovement',
    from: moved ? ms(moved) + w.noMovementHours * HOUR : null,
    message: `No carrier scan since ${d.lastScanAt ?? d.shippedAt} (the watch allows ${w.noMovementHours} hours).`,
  });
  if (d.promisedMaxDays !== null && d.shippedAt) {
    const promised = ms(d.shippedAt) + (d.promisedMaxDays + w.overdueGraceDays) * DAY;
    const from = ack?.reason === 'overdue' ? Math.max(promised, ms(ack.at) + Math.max(1, w.overdueGraceDays) * DAY) : promised;
    out.push({
      reason: 'overdue',
      from,
      message: `Not delivered ${d.promisedMaxDays} days after shipping on ${d.shippedAt}, as promised, nor in the ${w.overdueGraceDays} days' grace.`,
    });
  }
  return out;
}

/**
 * The watch over `d` now: the first threshold that holds is the attention (kept with its `since` while the reason
 * stays), and the earliest one still to come is when the sweep looks again. A delivered, cancelled or not yet paid
 * order is not watched: its attention clears.
 */
export function evaluate(d: DeliveryState, after: Watched, w: DeliveryWatch, now: Date): WatchResult {
  const watched = WATCHED.has(after.status) || (after.status === 'needsReview' && !!after.shipping);
  const all = watched && (after.paymentStatus === 'paid' || after.shipping) ? thresholds(d, after, w) : [];
  const t = now.getTime();
  const holds = all.find((x) => x.from !== null && x.from <= t);
  const next = all.filter((x) => x.from !== null && x.from > t).map((x) => x.from!);
  const attention: DeliveryAttention | null = holds
    ? d.attention?.reason === holds.reason
      ? d.attention
      : { reason: holds.reason, since: now.toISOString(), message: holds.message }
    : null;
  const turn = attention?.reason === d.attention?.reason ? null : attention ? 'raised' : 'cleared';
  return { delivery: { ...d, attention }, dueAt: next.length ? new Date(Math.min(...next)) : null, turn };
}
